//! The shapes of what the service answers and what the client returns, declared once as data.
//!
//! Each [`Record`] lists its fields with their types, nullability, presence and documentation.
//! From these declarations `cargo xtask codegen` writes the serde structs of the wire
//! (`wire/generated.rs`, used by the emulator and the Rust API) and the package's TypeScript
//! (`src/ts/generated.d.ts`); [`check`] holds a returned value against the same declarations at
//! run time (the suites do this in Node and Chromium for everything the emulator produces).
//!
//! Requests are declared in the endpoint table (`endpoints.rs`), whose field rules drive validation;
//! this module adds the declarations of everything that comes back.
//!
//! Why data rather than a derive: the same field list must yield Rust (with serde renames), the
//! TypeScript (with docs), and a run-time checker in wasm tests; a plain table read by a native
//! code generator does all three without a proc-macro crate, and a newcomer reads it as a table.

// The emulator's checks of its own answers (never in the shipped wasm): `format!` may be used.
#[allow(clippy::disallowed_macros)]
mod check;
mod records;
mod shape;
mod vocab;

pub use check::{check, Inspect, Mismatch, Shape};
pub use records::*;
pub use shape::*;
pub use vocab::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_record_has_unique_field_names_and_resolvable_types() {
        for r in RECORDS {
            let fields = r.all_fields();
            for (i, f) in fields.iter().enumerate() {
                assert!(
                    fields[i + 1..].iter().all(|g| g.name != f.name),
                    "{}.{} twice",
                    r.name,
                    f.name
                );
                if r.rust.is_none() {
                    // Client-built shapes have no wire struct, so nothing to rename.
                    assert!(f.rust.is_none(), "{}.{}", r.name, f.name);
                }
            }
        }
    }

    #[test]
    fn snake_case_of_camel_names() {
        assert_eq!(snake_case("audioWavUrl"), "audio_wav_url");
        assert_eq!(snake_case("taskId"), "task_id");
        assert_eq!(snake_case("id"), "id");
    }
}
