//! A throwaway `redis-server` (Debian's package) on a free loopback port, for the companion's
//! several-instances tests: no data on disk, stopped (SIGTERM, then SIGKILL) when dropped.

use crate::{signal, toolchain};
use anyhow::{bail, Context, Result};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What the test and bench scripts read to find the server.
pub const ENV_REDIS_URL: &str = "TUNESMITH_TEST_REDIS_URL";

pub struct RedisServer {
    child: Child,
    pub url: String,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer> {
        let bin = toolchain::redis_server()?;
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let child = Command::new(bin)
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting redis-server")?;
        let mut server = RedisServer {
            child,
            url: format!("redis://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !ping(port) {
            if Instant::now() > deadline {
                bail!("redis-server did not answer PING on port {port} within 10 s");
            }
            if let Some(status) = server.child.try_wait()? {
                bail!("redis-server exited at start ({status})");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        println!("redis-server ready: {}", server.url);
        Ok(server)
    }
}

fn ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut reply = [0u8; 7];
    stream.write_all(b"PING\r\n").is_ok()
        && stream.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        signal::stop(&mut self.child, libc::SIGTERM, Duration::from_secs(5));
    }
}
