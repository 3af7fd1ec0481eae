//! tunesmith: a typed client for the hosted music-generation service, compiled to wasm for JavaScript.
