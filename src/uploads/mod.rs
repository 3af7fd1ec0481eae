//! Uploads to the upload host: `uploadFile` (a File or Blob, as a multipart stream or as Base64),
//! `uploadBase64` (Base64 text, a data URL or bytes) and `uploadFromUrl`.

mod base64;
mod from_data;
mod from_file;
mod from_url;
mod mime;
mod options;
mod progress;
mod send;
mod xhr;
