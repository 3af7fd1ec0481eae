//! Which URLs the emulator downloads from (URL uploads and source audio), decided without I/O:
//! no `user@` or numeric host forms, never the emulator's own routes but its file URLs, and no
//! loopback or private address unless `--allow-private-url-uploads` allows them.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use url::Url;

/// A URL the emulator will not download, with the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub rule: &'static str,
    pub msg: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`fileUrl` {} (rule: {})", self.msg, self.rule)
    }
}

fn refuse(rule: &'static str, msg: impl Into<String>) -> Refusal {
    Refusal {
        rule,
        msg: msg.into(),
    }
}

/// The emulator's own two hosts, as bound.
#[derive(Clone, Copy, Debug)]
pub struct Own {
    pub music: SocketAddr,
    pub upload: SocketAddr,
}

/// Where a checked URL leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A file URL of the emulator's own upload host (`/files/...`, `/download/...`).
    OwnUpload,
    /// A generated file of the emulator's own music host (`/files/...`).
    OwnMusic,
    Elsewhere,
}

/// The URL's form: http(s), no credentials, and a host written as a name, a dotted IPv4 address
/// or a bracketed IPv6 address (not `2130706433`, `0x7f.1` or `127.1`, which mean 127.0.0.1).
pub fn check_form(raw: &str) -> Result<Url, Refusal> {
    let url =
        Url::parse(raw.trim()).map_err(|e| refuse("url", format!("is not a valid URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("url", "must be an http or https URL"));
    }
    let authority = raw
        .trim()
        .split_once("://")
        .map_or("", |(_, rest)| rest)
        .split(['/', '\\', '?', '#'])
        .next()
        .unwrap_or("");
    if authority.contains('@') || !url.username().is_empty() || url.password().is_some() {
        return Err(refuse(
            "url_credentials",
            "must not name a user or password before its host (`user@host`)",
        ));
    }
    if let Some(ip) = url.host_str().and_then(|h| h.parse::<Ipv4Addr>().ok()) {
        let written = if authority.starts_with('[') {
            authority
        } else {
            authority.rsplit_once(':').map_or(authority, |(h, _)| h)
        };
        if !written.eq_ignore_ascii_case(&ip.to_string()) {
            return Err(refuse(
                "url_numeric_host",
                format!("must write an IPv4 host as four decimal numbers: `{written}` means {ip}"),
            ));
        }
    }
    Ok(url)
}

/// The address as IPv4 when it is an IPv4 address mapped into IPv6.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether `ip` is reachable only from this machine or its own network.
pub fn is_private(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || v4 == Ipv4Addr::new(192, 0, 0, 8)
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
    }
}

/// Whether `addr` reaches the host bound at `bound`.
fn reaches(addr: SocketAddr, bound: SocketAddr) -> bool {
    let ip = canonical(addr.ip());
    addr.port() == bound.port()
        && (ip == canonical(bound.ip())
            || ip.is_loopback()
            || ip.is_unspecified()
            || (bound.ip().is_unspecified() && is_private(ip)))
}

/// Where `url`, reaching `addr`, leads; refused when that is a route of the emulator other than
/// its files, or (unless `allow_private`) a loopback or private address.
pub fn check_target(
    url: &Url,
    addr: SocketAddr,
    own: Own,
    allow_private: bool,
) -> Result<Target, Refusal> {
    let path = url.path();
    let (upload, music) = (reaches(addr, own.upload), reaches(addr, own.music));
    let file = path.starts_with("/files/");
    if upload && (file || path.starts_with("/download/")) {
        return Ok(Target::OwnUpload);
    }
    if music && file {
        return Ok(Target::OwnMusic);
    }
    if upload || music {
        return Err(refuse(
            "url_emulator_route",
            format!(
                "points at the emulator's own `{path}`: only its file URLs (`/files/...`, `/download/...`) can be uploaded from"
            ),
        ));
    }
    if is_private(addr.ip()) && !allow_private {
        return Err(refuse(
            "url_private_address",
            format!(
                "points at `{}` ({}), a loopback or private address: the emulator downloads from them only when started with --allow-private-url-uploads",
                url.host_str().unwrap_or(""),
                addr.ip()
            ),
        ));
    }
    Ok(Target::Elsewhere)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own() -> Own {
        Own {
            music: "127.0.0.1:8787".parse().unwrap(),
            upload: "127.0.0.1:8788".parse().unwrap(),
        }
    }

    fn at(url: &str, addr: &str, allow: bool) -> Result<Target, &'static str> {
        let url = check_form(url).map_err(|r| r.rule)?;
        check_target(&url, addr.parse().unwrap(), own(), allow).map_err(|r| r.rule)
    }

    #[test]
    fn forms_that_hide_a_host_are_refused() {
        for (url, rule) in [
            ("http://2130706433:8787/x", "url_numeric_host"),
            ("http://0x7f000001/x", "url_numeric_host"),
            ("http://0177.0.0.1/x", "url_numeric_host"),
            ("http://127.1/x", "url_numeric_host"),
            ("http://user@127.0.0.1/x", "url_credentials"),
            ("http://a:b@example.com/x", "url_credentials"),
            ("http://@example.com/x", "url_credentials"),
            ("ftp://example.com/x", "url"),
        ] {
            assert_eq!(check_form(url).unwrap_err().rule, rule, "{url}");
        }
        for url in [
            "http://127.0.0.1:8788/files/a.wav",
            "http://[::1]:8787/files/a",
            "https://example.com/a.mp3?x=1@2",
            "http://example.com:80/a#b@c",
        ] {
            assert!(check_form(url).is_ok(), "{url}");
        }
    }

    #[test]
    fn only_the_emulator_file_routes_and_public_addresses_pass() {
        let files = at(
            "http://127.0.0.1:8788/files/p/a.wav",
            "127.0.0.1:8788",
            false,
        );
        assert_eq!(files, Ok(Target::OwnUpload));
        let dl = at(
            "http://localhost:8788/download/abc",
            "127.0.0.1:8788",
            false,
        );
        assert_eq!(dl, Ok(Target::OwnUpload));
        let track = at(
            "http://127.0.0.1:8787/files/t/0.mp3",
            "127.0.0.1:8787",
            false,
        );
        assert_eq!(track, Ok(Target::OwnMusic));
        for (url, addr) in [
            ("http://127.0.0.1:8787/_emulator/stats", "127.0.0.1:8787"),
            (
                "http://127.0.0.1:8787/files/../_emulator/stats",
                "127.0.0.1:8787",
            ),
            ("http://127.0.0.1:8787/inbox/x", "127.0.0.1:8787"),
            (
                "http://[::ffff:127.0.0.1]:8787/_emulator/x",
                "[::ffff:127.0.0.1]:8787",
            ),
            (
                "http://127.0.0.1:8788/api/file-url-upload",
                "127.0.0.1:8788",
            ),
        ] {
            assert_eq!(at(url, addr, true), Err("url_emulator_route"), "{url}");
        }
        for addr in [
            "127.0.0.1:9",
            "10.1.2.3:80",
            "192.168.1.1:80",
            "169.254.169.254:80",
            "[fd00::1]:80",
            "[::ffff:10.0.0.1]:80",
            "0.0.0.0:80",
        ] {
            assert_eq!(
                at("http://h/x", addr, false),
                Err("url_private_address"),
                "{addr}"
            );
            assert_eq!(
                at("http://h/x", addr, true),
                Ok(Target::Elsewhere),
                "{addr}"
            );
        }
        assert_eq!(
            at("http://h/x", "93.184.216.34:80", false),
            Ok(Target::Elsewhere)
        );
    }
}
