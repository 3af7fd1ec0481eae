//! Uploads to the upload host, from a URL or as Base64 text. The multipart stream upload (a
//! `File` with progress) stays with the JavaScript client.

use super::client::Client;
use super::error::Error;
use tunesmith_protocol::wire::{UploadBase64Request, UploadFromUrlRequest, UploadRecord};
use tunesmith_protocol::Op;

impl Client {
    /// Stores a remote file (downloaded by the service within 30 s).
    pub async fn upload_from_url(
        &self,
        request: &UploadFromUrlRequest,
    ) -> Result<UploadRecord, Error> {
        self.call(Op::UploadFromUrl, request).await
    }

    /// Stores a file sent as Base64 text or a data URL (at most 10 MB).
    pub async fn upload_base64(
        &self,
        request: &UploadBase64Request,
    ) -> Result<UploadRecord, Error> {
        self.call(Op::UploadBase64, request).await
    }
}
