//! A throwaway `redis-server` (Debian's package) on a free loopback port, for the companion's
//! several-instances tests: no data on disk, stopped (SIGTERM, then SIGKILL) when dropped.

use crate::proc::Server;
use crate::toolchain;
use anyhow::Result;
use std::net::TcpListener;
use std::process::Command;

/// What the test and bench scripts read to find the server.
pub const ENV_REDIS_URL: &str = "TUNESMITH_TEST_REDIS_URL";

pub struct RedisServer {
    _server: Server,
    pub url: String,
}

impl RedisServer {
    pub fn start() -> Result<RedisServer> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let mut cmd = Command::new(toolchain::redis_server()?);
        cmd.args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ]);
        // Its log, on stdout, says when it listens.
        let ready = |line: &str| line.contains("Ready to accept connections").then_some(());
        let (server, ()) = Server::start(cmd, false, ready)?;
        let url = format!("redis://127.0.0.1:{port}");
        println!("redis-server ready: {url}");
        Ok(RedisServer {
            _server: server,
            url,
        })
    }
}
