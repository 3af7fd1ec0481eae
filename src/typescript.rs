//! The TypeScript declarations of every request, response and method, emitted into the package's `.d.ts`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("ts/types.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const CLIENT: &'static str = include_str!("ts/client.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const WAITERS: &'static str = include_str!("ts/waiters.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const UPLOADS: &'static str = include_str!("ts/uploads.d.ts");
