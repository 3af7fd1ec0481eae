//! Uploads to the upload host, from a URL or as Base64 text. The multipart stream upload (a
//! `File` with progress) stays with the JavaScript client.

use tunesmith_protocol::wire::{UploadBase64Request, UploadFromUrlRequest, UploadRecord};

super::client::operations! {
    /// Stores a remote file (downloaded by the service within 30 s).
    upload_from_url(UploadFromUrlRequest) -> UploadRecord = UploadFromUrl;
    /// Stores a file sent as Base64 text or a data URL (at most 10 MB).
    upload_base64(UploadBase64Request) -> UploadRecord = UploadBase64;
}
