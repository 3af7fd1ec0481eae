//! `cargo lab chaos`: the reliability probes, each figure beside its goal. Not part
//! of `cargo xtask test` (it takes minutes and loads the machine); the short version of each
//! probe runs there as an ordinary test.

mod fuzz;
mod hostile;
mod kill;
mod net;
mod node;
mod secrets;
#[cfg(test)]
mod short;

use crate::emulator;
use anyhow::Result;
use std::time::Instant;

pub struct Options {
    pub only: Option<Vec<String>>,
    pub fuzz_inputs: u64,
    pub kills: u32,
    /// CHAOS_SCALE for the Node scripts (1 = their full figures).
    pub scale: f64,
    pub seed: Option<u64>,
}

/// `companion` runs the companion's probes alone (tests/chaos/companion.mjs, in the secrets probe),
/// and `boundaries` the probes of what one user may reach of another's or of the machine
/// (tests/chaos/boundaries.mjs), both of which `node` runs among the other scripts.
const SECTIONS: [&str; 7] = [
    "fuzz",
    "kill",
    "hostile",
    "secrets",
    "node",
    "companion",
    "boundaries",
];
/// The sections that are one Node script each, named as the script.
const SCRIPT_SECTIONS: [&str; 2] = ["companion", "boundaries"];

/// Goals of the full run.
pub const FUZZ_INPUTS_GOAL: u64 = 10_000_000;
pub const KILLS_GOAL: u32 = 50;

pub fn run(opts: &Options) -> Result<bool> {
    let sections = xtask::flags::pick(&SECTIONS, opts.only.as_deref(), "section")?;
    let seed = opts.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    println!("chaos seed {seed} (--seed {seed} replays the random choices)");
    let started = Instant::now();
    let needs_emulator = sections.iter().any(|s| *s != "fuzz");
    let bin = if needs_emulator {
        Some(emulator::build()?)
    } else {
        None
    };
    let mut figures = Figures::default();
    let sandbox_root = emulator::fresh_temp_dir("chaos")?;
    let mut ran_secrets = false;
    for section in &sections {
        println!("\n==== chaos: {section} ====");
        let outcome = match (*section, &bin) {
            ("fuzz", _) => fuzz::run(opts.fuzz_inputs, seed, &mut figures),
            ("kill", Some(bin)) => {
                let settings = kill::Settings {
                    kills: opts.kills,
                    seed,
                    min_ms: 300,
                    max_ms: 2500,
                    max_upload: 64 * 1024,
                };
                kill::run(bin, &sandbox_root.join("kill"), &settings)
                    .map(|f| f.figures(&mut figures, KILLS_GOAL))
            }
            // The native binary, then the wasm build from the packed package, each with its figures.
            ("hostile", Some(bin)) => {
                let settings = hostile::Settings::full(seed);
                let native = hostile::run(bin, &sandbox_root.join("hostile"), &settings)
                    .map(|f| f.figures(&mut figures, &settings, hostile::S));
                let npx = npx_project().and_then(|project| {
                    let server = hostile::Server::Npx(&project);
                    hostile::run_on(server, &sandbox_root.join("hostile-npx"), &settings)
                        .map(|f| f.figures(&mut figures, &settings, hostile::S_NPX))
                });
                if let Err(e) = &npx {
                    eprintln!("xtask: chaos hostile (npx) failed: {e:#}");
                    figures.push(Figure::broken(hostile::S_NPX, &format!("{e:#}")));
                }
                native
            }
            // The Node scripts run inside the secrets probe, so their output is scanned too.
            ("secrets" | "node" | "companion" | "boundaries", Some(bin)) if !ran_secrets => {
                ran_secrets = true;
                let named: Vec<&'static str> = SCRIPT_SECTIONS
                    .into_iter()
                    .filter(|s| sections.contains(s))
                    .collect();
                let scripts = if sections.contains(&"node") {
                    Some(secrets::Scripts {
                        scale: opts.scale,
                        only: None,
                    })
                } else {
                    (!named.is_empty()).then_some(secrets::Scripts {
                        scale: opts.scale,
                        only: Some(named),
                    })
                };
                secrets::run(
                    bin,
                    &sandbox_root.join("secrets"),
                    secrets::Clients::Node { scripts },
                    &mut figures,
                )
            }
            _ => Ok(()),
        };
        if let Err(e) = outcome {
            eprintln!("xtask: chaos {section} failed: {e:#}");
            figures.push(Figure::broken(section, &format!("{e:#}")));
        }
    }
    let _ = std::fs::remove_dir_all(&sandbox_root);
    figures.print(started.elapsed());
    Ok(figures.all_met())
}

/// The package built and packed, installed into a project of its own as `npx tunesmith
/// emulator` finds it (the wasm build's server).
fn npx_project() -> Result<std::path::PathBuf> {
    let pkg = crate::package::build(crate::package::Profile::Release)?;
    let tarball = crate::test::pack(&pkg.dir)?;
    xtask::emulator_wasm::npx_project(&tarball)
}

/// One row of the summary: a measured value, and the goal it is held against (if any).
pub struct Figure {
    pub section: String,
    pub name: String,
    pub value: String,
    pub goal: String,
    pub met: Option<bool>,
    /// An example of what went wrong, or why.
    pub note: String,
}

impl Figure {
    pub fn info(section: &str, name: &str, value: String) -> Figure {
        Figure {
            section: section.into(),
            name: name.into(),
            value,
            goal: String::new(),
            met: None,
            note: String::new(),
        }
    }

    pub fn at_least(section: &str, name: &str, value: f64, goal: f64) -> Figure {
        Figure {
            goal: format!(">= {}", thousands(goal)),
            met: Some(value >= goal),
            ..Figure::info(section, name, thousands(value))
        }
    }

    pub fn at_most(section: &str, name: &str, value: f64, goal: f64, unit: &str) -> Figure {
        Figure {
            goal: format!("<= {}{unit}", thousands(goal)),
            met: Some(value <= goal),
            ..Figure::info(section, name, format!("{}{unit}", thousands(value)))
        }
    }

    /// A count that must be zero; `example` names the first offender.
    pub fn none_of(section: &str, name: &str, count: usize, example: String) -> Figure {
        Figure {
            goal: "0".into(),
            met: Some(count == 0),
            note: if count == 0 { String::new() } else { example },
            ..Figure::info(section, name, thousands(count as f64))
        }
    }

    /// A section that could not run is a missed goal.
    pub fn broken(section: &str, error: &str) -> Figure {
        Figure {
            goal: "runs".into(),
            met: Some(false),
            note: error.lines().next().unwrap_or_default().to_string(),
            ..Figure::info(section, "section ran", "error".into())
        }
    }
}

#[derive(Default)]
pub struct Figures(Vec<Figure>);

impl Figures {
    pub fn push(&mut self, figure: Figure) {
        self.0.push(figure);
    }

    pub fn all_met(&self) -> bool {
        self.0.iter().all(|f| f.met != Some(false))
    }

    /// The summary table (Markdown, so that the README can quote it), then notes on every miss.
    pub fn print(&self, took: std::time::Duration) {
        println!("\n==== chaos summary ====");
        println!("| probe | figure | value | goal | result |");
        println!("|---|---|---|---|---|");
        let mut notes = Vec::new();
        for f in &self.0 {
            let result = match f.met {
                Some(true) => "met".to_string(),
                Some(false) => {
                    notes.push(format!(
                        "[{}] {} / {}: {}",
                        notes.len() + 1,
                        f.section,
                        f.name,
                        f.note
                    ));
                    format!("MISSED [{}]", notes.len())
                }
                None => String::new(),
            };
            println!(
                "| {} | {} | {} | {} | {} |",
                f.section, f.name, f.value, f.goal, result
            );
        }
        for note in &notes {
            println!("{note}");
        }
        let missed = self.0.iter().filter(|f| f.met == Some(false)).count();
        let goals = self.0.iter().filter(|f| f.met.is_some()).count();
        println!(
            "\nchaos: {} of {goals} goals met, {missed} missed ({:.0} s)",
            goals - missed,
            took.as_secs_f64()
        );
    }
}

/// 12345678 → "12,345,678"; fractions keep one decimal.
pub fn thousands(n: f64) -> String {
    if !n.is_finite() {
        return n.to_string();
    }
    let whole = n.trunc().abs() as u64;
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    let frac = n.abs().fract();
    if frac >= 0.05 && whole < 1000 {
        out.push_str(format!("{frac:.1}").trim_start_matches('0'));
    }
    if n < 0.0 {
        out.insert(0, '-');
    }
    out
}

/// Standard Base64 with padding (the upload host's `base64Data`).
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(&[0xff, 0xfe, 0x00, 0x01]), "//4AAQ==");
    }

    #[test]
    fn numbers_read_with_thousands_separators() {
        assert_eq!(thousands(0.0), "0");
        assert_eq!(thousands(10_000_000.0), "10,000,000");
        assert_eq!(thousands(1234.6), "1,234");
        assert_eq!(thousands(12.5), "12.5");
        assert_eq!(thousands(-4200.0), "-4,200");
    }

    #[test]
    fn a_missed_goal_fails_the_run_and_names_an_example() {
        let mut figures = Figures::default();
        figures.push(Figure::at_least("fuzz", "inputs", 20.0, 10.0));
        figures.push(Figure::info("fuzz", "inputs/s", "5".into()));
        assert!(figures.all_met());
        figures.push(Figure::none_of("kill", "lost", 2, "u1".into()));
        assert!(!figures.all_met());
        assert_eq!(figures.0[2].note, "u1");
        assert_eq!(
            Figure::at_most("h", "rss", 300.0, 256.0, " MB").met,
            Some(false)
        );
    }
}
