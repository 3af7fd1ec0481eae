//! The emulator's domain, with no HTTP in it: tasks and their timelines, `emulate:` plans, costs,
//! callback delivery state, credits, uploads, faults and the registries on disk.

pub mod bounds;
pub mod cost;
pub mod create;
pub mod credits;
pub mod delivery;
pub mod error;
pub mod faults;
pub mod host;
pub mod inbox;
pub mod log;
pub mod personas;
pub mod plan;
pub mod rate_limit;
pub mod registry;
pub mod store;
pub mod task;
pub mod uploads;
pub mod url_rules;
