//! Callbacks leaving the emulator: delivery of each task's callbacks to its `callBackUrl`.

pub mod delivery;
