//! The emulator's settings: one clap-derived struct, used by the command line and by tests alike.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

/// The development key accepted when no `--api-key` is given.
pub const DEV_KEY: &str = "ts-dev-key";

const ABOUT: &str =
    "A faithful local emulator of the music-generation service (music host) and its upload host.";

const LONG_ABOUT: &str = "\
A faithful local emulator of the music-generation service (music host) and its upload host.

Music host: every envelope is answered with HTTP 200 and the outcome in the body `code`
(clients must read the body code whatever the HTTP status). Unknown paths and wrong methods
answer HTTP 404 with envelope code 404. Upload host: the HTTP status equals the body `code`.

Costs (credits per call): `x-credits` of each operation in GET /openapi.json (the price list
is the protocol's, `Op::price`). Not enough credits: code 429 (music table) or 402 (cover table), and no task.

Deterministic outcomes: `emulate:STATUS` in title, prompt or content (or any other string field,
e.g. the callBackUrl, for operations without them) makes the task end in STATUS
(SENSITIVE_WORD_ERROR, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION, ...; `emulate:failed` fails any
family); `emulate:skip-stages` goes straight to SUCCESS with one `complete` callback. Header
`X-Emulate-Code: N` answers that one request with code N and changes nothing; with
`X-Emulate-Retry-After: SECONDS` the Retry-After of that answer. `X-Emulate-Stage-Delay-Ms: N` on
a create request spaces that task's stages N ms apart instead of --stage-delay-ms (at most 600000).

Admin routes (no auth) on the music host: GET /_emulator/requests, GET /_emulator/stats,
POST /_emulator/faults, POST /_emulator/credits, POST /_emulator/clock; callback inbox at
/inbox/{name}; the OpenAPI document at /openapi.json.";

#[derive(Parser, Clone, Debug)]
#[command(name = "tunesmith-emulator", version, about = ABOUT, long_about = LONG_ABOUT, args_override_self = true)]
pub struct Config {
    /// Address of the music host; port 0 picks a free port. Not the ports of `cargo xtask demo`
    /// (8787 to 8789), so that the emulator and the demo can run side by side.
    #[arg(long, default_value = "127.0.0.1:8790")]
    pub music_addr: SocketAddr,

    /// Address of the upload host; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8791")]
    pub upload_addr: SocketAddr,

    /// Accepted bearer token (repeatable). Without any, the development key `ts-dev-key` is accepted.
    #[arg(long = "api-key", value_name = "KEY")]
    pub api_keys: Vec<String>,

    /// The service's own path segment (`/api/v1/{svc}/cover/...`).
    #[arg(long, default_value = "suno")]
    pub service_segment: String,

    /// Where tasks, uploads, generated files and credits are kept; default: a fresh temporary directory.
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Time between task stages, in milliseconds.
    #[arg(long, default_value_t = 1500)]
    pub stage_delay_ms: u64,

    /// Starting credits of each key.
    #[arg(long, default_value_t = 10_000)]
    pub credits: i64,

    /// Requests per 10 s sliding window per key (over it: 430 music, 429 cover and upload); 0 turns it off.
    #[arg(long, default_value_t = 20)]
    pub rate_limit: u32,

    /// Share (0 to 1) of API responses replaced by a random retryable failure (405/430/455/500 on music).
    #[arg(long, default_value_t = 0.0)]
    pub fault_rate: f64,

    /// A callback counts only if the receiver answers 200 within this many milliseconds.
    #[arg(long, default_value_t = 15_000)]
    pub callback_timeout_ms: u64,

    /// Wait before retrying a failed callback delivery, in milliseconds.
    #[arg(long, default_value_t = 1_000)]
    pub callback_retry_delay_ms: u64,

    /// Largest accepted stream upload (and URL download), in MB.
    #[arg(long, default_value_t = 200)]
    pub max_upload_mb: u64,

    /// Serve the static files of DIR at `/` on the music host (for the demo page).
    #[arg(long, value_name = "DIR")]
    pub www: Option<PathBuf>,

    /// Seed of the random source (task ids, random faults) for reproducible runs.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Use a clock that `POST /_emulator/clock` can advance (to test retention and expiry).
    #[arg(long)]
    pub manual_clock: bool,

    /// Let URL uploads and source audio be downloaded from loopback and private addresses (other
    /// local servers); the emulator's own routes other than its files stay refused.
    #[arg(long)]
    pub allow_private_url_uploads: bool,

    /// Longest wait for a request header, and longest pause within a request body, in milliseconds;
    /// then the connection is closed.
    #[arg(long, default_value_t = 20_000)]
    pub read_timeout_ms: u64,

    /// Open connections per host; past it, new connections wait to be accepted. Well above the
    /// 1,000 waiters a page or a load test keeps open at once (512 made a quarter of them fail to
    /// connect); the read timeout, not this bound, is what closes slow clients.
    #[arg(long, default_value_t = 4096)]
    pub max_connections: usize,
}

impl Config {
    /// Settings for tests: both hosts on ephemeral loopback ports, short delays, no rate limit.
    pub fn for_tests() -> Self {
        Self::for_tests_with(&[])
    }

    /// The test settings with `extra` flags on top (a repeated flag overrides the default).
    pub fn for_tests_with(extra: &[&str]) -> Self {
        const TEST_FLAGS: [&str; 13] = [
            "tunesmith-emulator",
            "--music-addr",
            "127.0.0.1:0",
            "--upload-addr",
            "127.0.0.1:0",
            "--stage-delay-ms",
            "40",
            "--rate-limit",
            "0",
            "--callback-timeout-ms",
            "2000",
            "--callback-retry-delay-ms",
            "30",
        ];
        Config::parse_from(TEST_FLAGS.iter().chain(extra))
    }

    /// The keys that authenticate requests.
    pub fn keys(&self) -> Vec<String> {
        if self.api_keys.is_empty() {
            vec![DEV_KEY.to_owned()]
        } else {
            self.api_keys.clone()
        }
    }
}
