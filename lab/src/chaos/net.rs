//! Raw HTTP/1.1 for the chaos probes: bytes in and out (uploads compared byte for byte), a
//! deadline on every request, and requests that no well-behaved client would send.

use anyhow::{Context, Result};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

pub struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_default()
    }

    /// The music host answers HTTP 200 with the outcome in `code`; the upload host's status is it.
    pub fn code(&self) -> i64 {
        self.json()["code"].as_i64().unwrap_or(-1)
    }
}

/// `http://host:port` → its socket address.
pub fn addr_of(base: &str) -> Result<SocketAddr> {
    let host = base
        .strip_prefix("http://")
        .context("only http:// URLs are supported")?;
    let host = host.split('/').next().unwrap_or(host);
    host.to_socket_addrs()?
        .next()
        .with_context(|| format!("cannot resolve {host}"))
}

/// Sends `head` (without the final blank line) and `body`, and reads the whole answer.
pub fn send_raw(addr: SocketAddr, head: &str, body: &[u8], timeout: Duration) -> Result<Reply> {
    let mut stream = TcpStream::connect_timeout(&addr, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let mut request = Vec::with_capacity(head.len() + 4 + body.len());
    request.extend_from_slice(head.as_bytes());
    request.extend_from_slice(b"\r\n\r\n");
    request.extend_from_slice(body);
    // A server may answer and close before reading a refused body: keep what it said.
    let write = stream.write_all(&request);
    let mut raw = Vec::new();
    let read = stream.read_to_end(&mut raw);
    if raw.is_empty() {
        write?;
        read?;
    }
    parse(&raw)
}

/// `method path` with the usual headers and a body of any bytes.
pub fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    timeout: Duration,
) -> Result<Reply> {
    let addr = addr_of(base)?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("\r\n{name}: {value}"));
    }
    send_raw(addr, &head, body, timeout)
}

/// A JSON request with a bearer key.
pub fn json(
    base: &str,
    method: &str,
    path: &str,
    key: &str,
    body: Option<&serde_json::Value>,
    timeout: Duration,
) -> Result<Reply> {
    let auth = format!("Bearer {key}");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    request(
        base,
        method,
        path,
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        body.as_bytes(),
        timeout,
    )
}

/// A multipart/form-data body: text fields, then a file field; returns (content type, body).
pub fn multipart(
    fields: &[(&str, &str)],
    file_field: &str,
    file_name: &str,
    bytes: &[u8],
) -> (String, Vec<u8>) {
    let boundary = "----chaos-7d1f0b9e5c3a";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

fn parse(raw: &[u8]) -> Result<Reply> {
    let (status, body) = crate::http::parse_raw(raw)?;
    Ok(Reply { status, body })
}

/// A free port on loopback now (a restarted emulator must come back on the same ports: the
/// callback URLs of its tasks name them).
pub fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_binary_and_chunked_answers() {
        let plain = parse(b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n\x00\xff\x01").ok();
        assert_eq!(plain.map(|r| r.body), Some(vec![0, 255, 1]));
        let chunked =
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
        assert_eq!(chunked.ok().map(|r| r.json()), Some(serde_json::json!({})));
    }

    #[test]
    fn multipart_bodies_carry_fields_then_the_file() {
        let (ty, body) = multipart(&[("uploadPath", "a")], "file", "x.bin", b"\x00\x01");
        let text = String::from_utf8_lossy(&body);
        assert!(ty.starts_with("multipart/form-data; boundary="));
        assert!(text.contains("name=\"uploadPath\"\r\n\r\na\r\n"));
        assert!(text.contains("filename=\"x.bin\""));
        assert!(body.windows(2).any(|w| w == b"\x00\x01"));
    }
}
