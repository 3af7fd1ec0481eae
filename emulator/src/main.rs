//! Command line of the emulator: parse flags, start both hosts, print the ready line, run until Ctrl-C.

use std::io::Write;

use clap::Parser;
use tunesmith_emulator::config::{Config, DEV_KEY};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    if config.api_keys.is_empty() {
        eprintln!("no --api-key given: accepting the development key `{DEV_KEY}`");
    }
    let running = match tunesmith_emulator::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("could not start the emulator: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    eprintln!("data directory: {}", running.data_dir.display());
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "ready music={} upload={}",
        running.music_url(),
        running.upload_url()
    );
    let _ = out.flush();
    drop(out);
    let _ = tokio::signal::ctrl_c().await;
    running.shutdown().await;
    std::process::ExitCode::SUCCESS
}
