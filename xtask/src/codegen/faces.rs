//! The Rust methods of every operation, from the endpoint table: the Rust face's
//! (`src/rust_api/generated.rs`: its request struct in, its record out) and the JavaScript face's
//! (`src/generated.rs`: the suites' Rust path to each named method). A new operation gets both, and
//! a stale file fails `codegen --check`.

use super::HEADER;
use anyhow::{bail, Result};
use tunesmith_protocol::endpoints::Answer;
use tunesmith_protocol::schema::{snake_case, RECOVERY_ENVELOPE};
use tunesmith_protocol::Op;

/// The doc line of an operation's method: its summary, as a sentence.
fn doc(op: Op) -> String {
    format!("    /// {}.\n", op.endpoint().summary.trim_end_matches('.'))
}

/// `src/rust_api/generated.rs`: one line per operation for `client::operations!`. The multipart
/// stream upload (a `File` with progress) stays with the JavaScript client.
pub fn rust_face() -> Result<String> {
    let mut out = HEADER.to_owned();
    out.push_str(
        "//! The Rust face's method of every operation (but the multipart stream upload, which stays with\n\
         //! the JavaScript client): its request struct in, its record out.\n\n\
         use tunesmith_protocol::wire::*;\n\n\
         super::client::operations! {\n",
    );
    for op in Op::ALL.into_iter().filter(|op| *op != Op::UploadStream) {
        let request = op.request_type().unwrap_or("");
        // What the driver resolves with: the record's struct; a number; recovery's own envelope.
        let output = match (op.output().rust, op.answer()) {
            (Some(rust), _) => rust,
            (None, Answer::Number) => "f64",
            (None, Answer::Envelope) => RECOVERY_ENVELOPE.rust.unwrap_or("RecoveryEnvelope"),
            (None, _) => bail!("{op:?}: its record has no Rust struct"),
        };
        out.push_str(&doc(op));
        out.push_str(&format!(
            "    {}({request}) -> {output} = {op:?};\n",
            snake_case(op.endpoint().name)
        ));
    }
    out.push_str("}\n");
    Ok(out)
}

/// `src/generated.rs`: the JavaScript face's method of every operation of the music host, for the
/// suites (the uploads take a file or a URL first, and are written by hand beside `__call`).
pub fn js_face() -> String {
    let mut out = HEADER.to_owned();
    out.push_str(
        "//! One method per operation of the music host, for Rust callers of the JavaScript face (the\n\
         //! suites): the same path as JavaScript's named methods through `Client::call`.\n\n\
         use tunesmith_protocol::Op;\n\n\
         operations! {\n",
    );
    for op in Op::ALL.into_iter().filter(|op| !op.is_upload()) {
        out.push_str(&doc(op));
        out.push_str(&format!(
            "    {} => Op::{op:?};\n",
            snake_case(op.endpoint().name)
        ));
    }
    out.push_str("}\n");
    out
}
