//! The JavaScript host ([`tunesmith_emulator::host`]): one object of functions the JavaScript side
//! hands in. Storage is synchronous (Node's `fs` or a `Map`); sleeping, callbacks and downloads
//! are Promises. Work is spawned on the page's or Node's own event loop.
//!
//! The object, as `emulator/host.js` in the package makes it:
//! `read(path) -> Uint8Array | undefined`, `write(path, bytes)` (whole, atomic),
//! `append(path, bytes)`, `list(dir) -> string[]`, `exists(path) -> boolean`, `remove(path)`,
//! `removeDir(path)`, `prepare(dirs, tmp)`, `sleep(ms) -> Promise`,
//! `post(url, body, timeoutMs) -> Promise<boolean>`, `resolve(host, port) -> Promise<string | null>`
//! (`ip:port`), `get(url, host) -> Promise<{status, body}>`.

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use js_sys::{Array, Promise, Uint8Array};
use send_wrapper::SendWrapper;
use tunesmith_emulator::core::host::{
    BoxFuture, Chunks, Fetching, Host, Outbound, Runtime, Staged, Storage,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    /// The host object (see the module's documentation).
    pub type JsHost;

    #[wasm_bindgen(method, catch)]
    fn read(this: &JsHost, path: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn write(this: &JsHost, path: &str, bytes: Vec<u8>) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn append(this: &JsHost, path: &str, bytes: Vec<u8>) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn list(this: &JsHost, dir: &str) -> Result<Array, JsValue>;
    #[wasm_bindgen(method)]
    fn exists(this: &JsHost, path: &str) -> bool;
    #[wasm_bindgen(method, js_name = remove)]
    fn remove_file(this: &JsHost, path: &str);
    #[wasm_bindgen(method, js_name = removeDir)]
    fn remove_dir(this: &JsHost, path: &str);
    #[wasm_bindgen(method, catch)]
    fn prepare(this: &JsHost, dirs: Array, tmp: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(method)]
    fn sleep(this: &JsHost, ms: f64) -> Promise;
    #[wasm_bindgen(method)]
    fn post(this: &JsHost, url: &str, body: Vec<u8>, timeout_ms: f64) -> Promise;
    #[wasm_bindgen(method)]
    fn resolve(this: &JsHost, host: &str, port: u16) -> Promise;
    #[wasm_bindgen(method)]
    fn get(this: &JsHost, url: &str, host: &str) -> Promise;
}

/// The host object, shared by the three traits. wasm32 without threads has one thread, so the
/// wrapper's "same thread" check always holds.
type Shared = Arc<SendWrapper<JsHost>>;

fn io_err(e: JsValue) -> io::Error {
    let text = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the host's storage failed".to_owned());
    io::Error::other(text)
}

fn name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A Promise as a `Send` future (see [`Shared`]).
fn wait(promise: Promise) -> BoxFuture<'static, Result<JsValue, JsValue>> {
    Box::pin(SendWrapper::new(JsFuture::from(promise)))
}

struct JsStorage(Shared);

/// A staged file in memory, written whole when persisted.
struct Buffer {
    host: Shared,
    bytes: Vec<u8>,
}

impl Staged for Buffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn read_all(&self) -> io::Result<Vec<u8>> {
        Ok(self.bytes.clone())
    }

    fn persist(self: Box<Self>, path: &Path) -> io::Result<()> {
        self.host.write(&name(path), self.bytes).map_err(io_err)
    }
}

impl Storage for JsStorage {
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        let v = self.0.read(&name(path)).map_err(io_err)?;
        Ok(v.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec))
    }

    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.0.append(&name(path), bytes.to_vec()).map_err(io_err)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        let names = self.0.list(&name(dir)).map_err(io_err)?;
        Ok(names
            .iter()
            .filter_map(|n| n.as_string())
            .map(PathBuf::from)
            .collect())
    }

    fn exists(&self, path: &Path) -> bool {
        self.0.exists(&name(path))
    }

    fn remove_file(&self, path: &Path) {
        self.0.remove_file(&name(path));
    }

    fn remove_dir_all(&self, path: &Path) {
        self.0.remove_dir(&name(path));
    }

    fn prepare(&self, dirs: &[&Path], tmp: &Path) -> io::Result<()> {
        let list: Array = dirs.iter().map(|d| JsValue::from(name(d))).collect();
        self.0.prepare(list, &name(tmp)).map_err(io_err)
    }

    fn stage(&self, _tmp: &Path) -> io::Result<Box<dyn Staged>> {
        Ok(Box::new(Buffer {
            host: self.0.clone(),
            bytes: Vec::new(),
        }))
    }
}

struct JsRuntime(Shared);

impl Runtime for JsRuntime {
    fn wall_ms(&self) -> i64 {
        js_sys::Date::now() as i64
    }

    fn sleep(&self, ms: u64) -> BoxFuture<'static, ()> {
        let waiting = wait(self.0.sleep(ms as f64));
        Box::pin(async move {
            let _ = waiting.await;
        })
    }

    fn spawn(&self, task: BoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }

    /// One thread: the work runs here and now.
    fn blocking(&self, work: Box<dyn FnOnce() + Send>) -> BoxFuture<'static, ()> {
        work();
        Box::pin(async {})
    }

    fn entropy(&self) -> u64 {
        let half = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
        (half() << 32) | half()
    }
}

struct JsOutbound(Shared);

/// A downloaded body, handed over whole.
struct Whole(Option<Vec<u8>>);

impl Chunks for Whole {
    fn next(&mut self) -> BoxFuture<'_, Result<Option<Vec<u8>>, String>> {
        let next = self.0.take();
        Box::pin(async move { Ok(next) })
    }
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".to_owned())
}

impl Outbound for JsOutbound {
    fn post_json(&self, url: String, body: Vec<u8>, timeout_ms: u64) -> BoxFuture<'static, bool> {
        let sent = wait(self.0.post(&url, body, timeout_ms as f64));
        Box::pin(async move { sent.await.is_ok_and(|v| v.is_truthy()) })
    }

    fn resolve(&self, host: String, port: u16) -> BoxFuture<'static, Option<SocketAddr>> {
        let found = wait(self.0.resolve(&host, port));
        Box::pin(async move {
            let addr = found.await.ok()?.as_string()?;
            addr.parse().ok()
        })
    }

    fn get(&self, url: String, host: String) -> BoxFuture<'static, Result<Fetching, String>> {
        let got = wait(self.0.get(&url, &host));
        Box::pin(async move {
            let res = got.await.map_err(|e| message(&e))?;
            let field = |k: &str| js_sys::Reflect::get(&res, &JsValue::from_str(k));
            let status = field("status").ok().and_then(|s| s.as_f64()).unwrap_or(0.0) as u16;
            let body = field("body")
                .ok()
                .and_then(|b| b.dyn_into::<Uint8Array>().ok())
                .map(|b| b.to_vec())
                .unwrap_or_default();
            Ok(Fetching {
                status,
                body: Box::new(Whole(Some(body))),
            })
        })
    }
}

/// The JavaScript host as the emulator holds it.
pub fn host(js: JsHost) -> Host {
    let shared: Shared = Arc::new(SendWrapper::new(js));
    Host {
        storage: Arc::new(JsStorage(shared.clone())),
        runtime: Arc::new(JsRuntime(shared.clone())),
        outbound: Arc::new(JsOutbound(shared)),
    }
}
