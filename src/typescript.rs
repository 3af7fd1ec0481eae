//! The TypeScript declarations of the package, emitted into its `.d.ts`: `ts/generated.d.ts` (every
//! fact of `protocol/`, written by `cargo xtask codegen`), then the hand-written options, waiter
//! and upload declarations that state no fact of the service.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const GENERATED: &'static str = include_str!("ts/generated.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const OPTIONS: &'static str = include_str!("ts/options.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const WAITERS: &'static str = include_str!("ts/waiters.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const UPLOADS: &'static str = include_str!("ts/uploads.d.ts");
