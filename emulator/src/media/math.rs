//! The transcendental functions the media use, from the `libm` crate on every build. std's come
//! from the platform's C library natively and from a Rust port on wasm32, whose last bits differ;
//! the two builds of the emulator must render the same bytes (emulator/tests/media_parity.rs).

pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

pub fn cos(x: f32) -> f32 {
    libm::cosf(x)
}

pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}

pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}
