//! A minimal HTTP/1.1 client over std for the few requests xtask makes itself (benchmark set-up):
//! one request per connection, so no pooling to get wrong.

use anyhow::{bail, Context, Result};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

pub struct Response {
    pub status: u16,
    pub body: String,
}

/// `method` `base` + `path`, e.g. `request("http://127.0.0.1:8787", "GET", "/x", &[], None)`.
pub fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Result<Response> {
    let host = base
        .strip_prefix("http://")
        .context("only http:// URLs are supported")?;
    let host = host.split('/').next().unwrap_or(host);
    let addr = std::net::ToSocketAddrs::to_socket_addrs(host)?
        .next()
        .with_context(|| format!("cannot resolve {host}"))?;
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.unwrap_or("");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> Result<Response> {
    let (status, body) = parse_raw(raw)?;
    Ok(Response {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// The status and the (de-chunked) body bytes of a raw HTTP/1.1 answer.
pub fn parse_raw(raw: &[u8]) -> Result<(u16, Vec<u8>)> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no end of headers in the response")?;
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .context("no status in the response")?;
    let chunked = lines.any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let payload = &raw[split + 4..];
    let body = if chunked {
        dechunk(payload)?
    } else {
        payload.to_vec()
    };
    Ok((status, body))
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .context("truncated chunk size")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16)
            .with_context(|| format!("bad chunk size `{size_text}`"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        if data.len() < size {
            bail!("truncated chunk");
        }
        body.extend_from_slice(&data[..size]);
        data = data.get(size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::parse_response;

    #[test]
    fn reads_plain_and_chunked_bodies() {
        let plain = parse_response(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}").ok();
        assert_eq!(
            plain.map(|r| (r.status, r.body)),
            Some((200, "{}".to_string()))
        );
        let chunked =
            parse_response(b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3;x=y\r\n:1}\r\n0\r\n\r\n").ok();
        assert_eq!(
            chunked.map(|r| (r.status, r.body)),
            Some((404, "{\"a\":1}".to_string()))
        );
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
    }
}
