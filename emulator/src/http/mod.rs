//! HTTP at the edge: both hosts' routers, handlers, extractors, middleware and envelopes.

pub mod admin;
pub mod auth;
pub mod body;
pub mod cover;
pub mod edge;
pub mod envelope;
pub mod extract;
pub mod files;
pub mod gate;
pub mod inbox;
pub mod lyrics;
pub mod midi;
pub mod music;
pub mod openapi;
pub mod persona;
pub mod recovery;
pub mod router;
pub mod send_file;
#[cfg(feature = "native")]
pub mod serve;
pub mod tasks;
pub mod uploads;
pub mod video;
pub mod vocal_separation;
pub mod voice;
pub mod wav;
