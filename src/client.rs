//! The JavaScript face's `Client`: a handle on one driver. Its methods are spread over the modules
//! of what they do (`lib.rs`: the operations; `waiters.rs`, `watch.rs`, `uploads/`).

use crate::driver::Driver;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A client of the music-generation service. Cheap to keep: create one and reuse it.
#[wasm_bindgen]
pub struct Client {
    pub(crate) inner: Rc<Driver>,
}
