//! tunesmith: a typed client for the hosted music-generation service, compiled to wasm for JavaScript.
//!
//! The JavaScript surface is the `Client` class below: one method per operation, typed request and
//! response objects (declared in `typescript.rs`), real `Error` subclasses (`js/errors.js`).
//!
//! Rust web apps use `rust_api` instead (cargo feature `rust-api`): the same service through async
//! methods over the protocol's own structs, with a typed `rust_api::Error`.
//!
//! # Panics
//!
//! A panic in wasm is fatal to the whole module, not to one call: the instance traps, every call
//! in flight is lost, and the page must reload. So no input may reach one, and the build makes a
//! new panic path hard to add:
//!
//! - Every value a caller passes enters Rust through one checked path, `js::Arg`: JavaScript only
//!   under `catch`, nothing copied or walked without a bound, and whatever is wrong becomes a
//!   `ValidationError` naming the field. `clippy.toml` disallows the `js_sys`/`wasm_bindgen` calls
//!   that would read a caller's value another way (or throw through wasm frames).
//! - Clippy denies, in this crate and in `tunesmith-protocol` (compiled into the same module),
//!   `unwrap`, `expect`, `panic!`, `unreachable!`, `todo!`, `unimplemented!`, `exit`, indexing and
//!   slicing that can go out of bounds, slicing a string at a byte offset, and `assert!` in
//!   functions that return a `Result` (`[lints.clippy]` of both Cargo.toml); an exception needs an
//!   `allow` with its reason beside it. Arithmetic is not linted: the shipped profile has no
//!   overflow checks (overflow wraps, it does not panic), every integer division is by a constant,
//!   and the protocol's arithmetic runs with overflow checks on under the fuzzer.
//! - Should a panic happen anyway, `settle.rs` rejects every pending Promise and makes
//!   later calls fail at once, with a `TunesmithError` of kind `internal`, instead of leaving them
//!   pending on a dead module (the trap itself cannot be avoided: see below). Every Promise the
//!   package returns goes through `settle::promise`, every synchronous entry point starts with
//!   `settle::entered`.
//!
//! `panic = "abort"` in `[profile.wasm-release]` is deliberate, and the only choice on stable:
//! `wasm32-unknown-unknown` cannot unwind without a nightly `-Zbuild-std` and wasm exception
//! handling, which would also put a landing pad in every function that holds a value with a
//! destructor (size, in a package with a size budget), and `catch_unwind` could still not recover a
//! module whose `RefCell`s and JS-side state a panic left half-way. So no code here relies on
//! unwinding, and the profile says so explicitly rather than leaving it to the target's default.
//! The shipped module goes one step further on the pinned nightly that builds it:
//! `-Cpanic=immediate-abort` (xtask/src/package.rs), where a panic is a trap and nothing else.
// Tests may unwrap: a failing test should stop loudly. Shipped code may not (Cargo.toml lints).
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::disallowed_methods,
        clippy::disallowed_macros
    )
)]

// Talc: binned free lists, so the cost of an allocation stays flat however many calls are in
// flight (lol_alloc's single free list made it linear in the live blocks: 217 µs per call at
// 1,000 calls in flight, 990 µs at 40,000), and smaller than dlmalloc. Figures: README, Reliability.
// Running out of memory traps (std aborts), and the glue's `guardExports` rejects the pending
// Promises then (settle.rs).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

mod callbacks;
mod client;
mod driver;
mod error_classes;
mod errors;
mod js;
// Shapes the service's answers, which the crate parsed from JSON itself: plain data, with no
// getters or traps, that it may read with any `js_sys` call.
#[allow(clippy::disallowed_methods)]
mod normalize;
mod options;
// Not in the npm build: `format!` may be used there (clippy.toml).
#[cfg(feature = "rust-api")]
#[allow(clippy::disallowed_macros)]
pub mod rust_api;
mod settle;
mod tasks;
mod typescript;
mod uploads;
mod validate_export;
mod waiters;
mod watch;

pub use callbacks::{callback_key, parse_callback};
pub use client::Client;

use driver::{Body, CallOptions, Config, Driver};
use errors::Error;
use js::{get, Arg, JsFields};
use js_sys::Promise;
use std::rc::Rc;
use tunesmith_protocol::endpoints::Method;
use tunesmith_protocol::{rules, Op, TaskFamily};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `ClientOptions` of the `.d.ts`: typed for TypeScript, read field by field in `options.rs`.
    #[wasm_bindgen(typescript_type = "ClientOptions")]
    pub type ClientOptions;
}

#[wasm_bindgen]
impl Client {
    /// Creates a client. Throws a `TunesmithError` (kind `configuration`) or a `ValidationError` for
    /// bad options, and, in a browser page, for a literal `apiKey` without `dangerouslyAllowBrowser`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<ClientOptions>) -> Result<Client, JsValue> {
        settle::entered()?;
        let config = Config::from_js(&Arg::optional(options.map(JsValue::from), "options"))?;
        Ok(Client {
            inner: Rc::new(Driver::new(config)?),
        })
    }
}

impl Client {
    /// Validates, sends and shapes one operation, as a Promise for JavaScript.
    /// With `wait` (in the options or the request), a create resolves with the task's final record.
    fn run(&self, op: Op, request: JsValue, options: Option<JsValue>) -> Promise {
        let inner = self.inner.clone();
        settle::promise(async move {
            let options = options.unwrap_or(JsValue::UNDEFINED);
            // Read before anything is sent: a bad `wait` must not leave a charged task behind.
            let (wait, request) =
                waiters::wait_requested(op, &request, &options).map_err(Error::into_js)?;
            let created = call_op(&inner, op, request, options)
                .await
                .map_err(Error::into_js)?;
            match wait {
                Some((family, opts)) => {
                    waiters::wait_after_create(inner, family, created, opts).await
                }
                None => Ok(created),
            }
        })
    }
}

async fn call_op(
    inner: &Driver,
    op: Op,
    request: JsValue,
    options: JsValue,
) -> Result<JsValue, Error> {
    let opts = CallOptions::from_js(&Arg::new(options, "options"))?;
    send_request(inner, op, request, opts).await
}

/// Validates `request` with `op`'s rules, sends it and shapes the answer: every operation's path
/// from its request object on (`uploadFromUrl` builds its own from the URL and the options).
pub(crate) async fn send_request(
    inner: &Driver,
    op: Op,
    request: JsValue,
    opts: CallOptions,
) -> Result<JsValue, Error> {
    let endpoint = op.endpoint();
    let nothing = request.is_undefined() && endpoint.fields.is_empty();
    // A query with nothing to send (getCredits): nothing to read, check or encode.
    if nothing && matches!(endpoint.method, Method::Get) && opts.extra_fields.is_none() {
        let data = inner.execute(op, Body::None, &[], &opts).await?;
        return Ok(normalize::output(op, data));
    }
    let request = if nothing {
        js_sys::Object::new().into()
    } else {
        request
    };
    let request = Arg::new(request, "request");
    if !request.is_plain_object() {
        return Err(request.invalid(
            "type",
            tunesmith_protocol::text!(
                endpoint.name,
                " takes a request object, e.g. { ",
                endpoint.fields.first().map_or("", |f| f.name),
                " }"
            ),
        ));
    }
    // From here on the request is plain data: its getters and Proxy traps ran once, under catch.
    let (request_json, request) = request.plain_json()?;
    check_request(op, &request)?;
    let extra_fields = match &opts.extra_fields {
        Some(extra) => Some(extra.plain_copy()?),
        None => None,
    };
    let (body, query) = match endpoint.method {
        Method::Get => {
            let mut query = endpoint
                .fields
                .iter()
                .filter_map(|f| {
                    get(&request, f.name)
                        .as_string()
                        .map(|v| (f.name.to_owned(), v))
                })
                .collect::<Vec<_>>();
            if let Some(extra) = &extra_fields {
                for (k, v) in Arg::new(extra.clone(), "extraFields").entries()? {
                    if let Some(v) = text_of(&Arg::new(v, "extraFields"))? {
                        query.push((k, v));
                    }
                }
            }
            (Body::None, query)
        }
        Method::Post => {
            let json = match &extra_fields {
                Some(extra) => {
                    let merged = js::shallow_copy(&request);
                    for (k, v) in Arg::new(extra.clone(), "extraFields").entries()? {
                        js::set(&merged, &k, &v);
                    }
                    Arg::new(merged.into(), "request").plain_json()?.0
                }
                None => request_json,
            };
            (Body::Json(json), Vec::new())
        }
    };
    let query: Vec<(&str, String)> = query.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let data = inner.execute(op, body, &query, &opts).await?;
    Ok(normalize::output(op, data))
}

/// The package's rules for a request of `op` (plain data): the operation's rules, then no field
/// it does not have. Shared by the client's calls and `validateRequest` (the companion's check).
fn check_request(op: Op, request: &JsValue) -> Result<(), Error> {
    let fields = JsFields::new(request);
    let verdict = op.validate(&fields);
    fields.verdict()?;
    let keys = Arg::new(request.clone(), "request").entries()?;
    let known = op.endpoint().fields;
    verdict.map_err(|e| rules::name_near_miss(known, e, keys.iter().map(|(k, _)| k.as_str())))?;
    for (key, _) in &keys {
        rules::check_known(known, key)?;
    }
    Ok(())
}

/// A query parameter's text: strings as they are, numbers and booleans written out.
fn text_of(v: &Arg) -> Result<Option<String>, Error> {
    Ok(v.text()?
        .or_else(|| v.number().map(tunesmith_protocol::num::fmt))
        .or_else(|| {
            v.boolean()
                .map(|b| if b { "true".into() } else { "false".into() })
        }))
}

#[wasm_bindgen]
impl Client {
    /// Every operation's one entry from JavaScript: `operation` is its name (`getTask`...). The
    /// named methods (`client.getTask(request, options)`) are defined over it in JavaScript, from
    /// the endpoint table (`pkg-template/methods.generated.js`, written by `cargo xtask codegen`):
    /// one export and one glue function instead of one per operation (wasm size). Their TypeScript
    /// signatures are generated into `ts/generated.d.ts`. The uploads' first argument is their file,
    /// Base64 data or URL rather than a request object.
    // `operation` is a `JsValue`, not a `&str`: the glue would convert any other value to a string
    // in JavaScript, running its `toString` outside the checked path.
    ///
    /// The waiters (`waitForTask`...) come through here too, named by their family's
    /// `waiter_name`: `request` is then the task id (or the `{ taskId }` a create resolved with).
    #[wasm_bindgen(js_name = "__call", skip_typescript)]
    pub fn call(&self, operation: JsValue, request: JsValue, options: Option<JsValue>) -> Promise {
        let name = Arg::new(operation, "operation");
        match op_named(&name) {
            Ok(Op::UploadStream) => self.upload_file(request, options),
            Ok(Op::UploadBase64) => self.upload_base64(request, options),
            Ok(Op::UploadFromUrl) => self.upload_from_url(request, options),
            Ok(op) => self.run(op, request, options),
            Err(e) => match waiter_named(&name) {
                Some(family) => waiters::waiter_promise(self, family, request, options),
                None => settle::promise(async move { Err(e.into_js()) }),
            },
        }
    }
}

/// The task family whose waiter (`waitForTask`...) `name` names.
fn waiter_named(name: &Arg) -> Option<TaskFamily> {
    let text = name.text().ok()??;
    TaskFamily::ALL
        .into_iter()
        .find(|family| family.waiter_name() == text)
}

/// The operation of the endpoint table named by `name` (`getTask`...): shared by `call` and
/// `validateRequest`.
fn op_named(name: &Arg) -> Result<Op, Error> {
    let text = name.text()?;
    Op::ALL
        .into_iter()
        .find(|op| Some(op.endpoint().name) == text.as_deref())
        .ok_or_else(|| name.invalid("type", "no operation has this name"))
}

/// One method per operation, for Rust callers of the JavaScript face (the suites): the same path
/// as JavaScript's named methods through [`Client::call`]. Not exported: JavaScript reaches them
/// through `__call`, and the suites check that every operation of the table is reached.
macro_rules! operations {
    ($( $(#[$meta:meta])* $name:ident => $op:expr; )*) => {
        impl $crate::Client {
            $(
                $(#[$meta])*
                pub fn $name(
                    &self,
                    request: ::wasm_bindgen::JsValue,
                    options: Option<::wasm_bindgen::JsValue>,
                ) -> ::js_sys::Promise {
                    self.run($op, request, options)
                }
            )*
        }
    };
}

// The rows: `generated.rs`, written by `cargo xtask codegen` from the endpoint table.
mod generated;
