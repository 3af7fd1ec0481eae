//! The Node chaos scripts (`tests/chaos/*.mjs`): each prints one `CHAOS {json}` line with its
//! figures and goals and exits non-zero on a missed goal; their figures join the summary.

use super::{Figure, Figures};
use crate::proc;
use crate::test::node_scripts;
use anyhow::Result;
use serde_json::Value;
use std::ffi::OsString;
use std::process::Command;
use std::time::Duration;

const SCRIPT_TIMEOUT: Duration = Duration::from_secs(8 * 60);

/// Runs every script (or those named in `only`) with `env`; returns everything they printed (the
/// secrets probe scans it).
pub fn run(
    env: &[(&'static str, OsString)],
    scale: f64,
    only: Option<&[&str]>,
    figures: &mut Figures,
) -> Result<Vec<String>> {
    let mut scripts = node_scripts(&crate::root().join("tests").join("chaos"))?;
    if let Some(names) = only {
        scripts.retain(|s| {
            s.file_stem()
                .is_some_and(|stem| names.iter().any(|n| stem == *n))
        });
    }
    if scripts.is_empty() {
        println!("no tests/chaos/*.mjs scripts yet: the Node checks are skipped");
        figures.push(Figure::info(
            "node",
            "scripts",
            "none in tests/chaos yet".into(),
        ));
        return Ok(Vec::new());
    }
    let mut outputs = Vec::new();
    for script in &scripts {
        let name = script
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut cmd = Command::new("node");
        cmd.current_dir(crate::root())
            .arg(script)
            .envs(env.iter().cloned())
            .env("CHAOS_SCALE", scale.to_string());
        let (status, output) = proc::run_tee_with_deadline(cmd, Some(SCRIPT_TIMEOUT))?;
        let section = format!("node {name}");
        match parse_line(&output) {
            Some(report) => add(&section, &report, figures),
            None => figures.push(Figure::broken(&section, "printed no `CHAOS {...}` line")),
        }
        let any_missed = figures_missed(&output);
        if !status.success() && !any_missed {
            figures.push(Figure::broken(&section, &format!("exited {status}")));
        }
        outputs.push(output);
    }
    Ok(outputs)
}

fn figures_missed(output: &str) -> bool {
    parse_line(output).is_some_and(|r| {
        r["goals"]
            .as_object()
            .is_some_and(|g| g.values().any(|g| g["met"] == false))
    })
}

fn parse_line(output: &str) -> Option<Value> {
    output
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("CHAOS "))
        .and_then(|json| serde_json::from_str(json).ok())
}

fn show(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 => super::thousands(f),
            Some(f) => format!("{f:.2}"),
            None => n.to_string(),
        },
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A script's goals become rows with their verdict; its other figures, plain rows.
fn add(section: &str, report: &Value, figures: &mut Figures) {
    let goals = report["goals"].as_object();
    for (name, goal) in goals.into_iter().flatten() {
        figures.push(Figure {
            goal: show(&goal["target"]),
            met: Some(goal["met"] == true),
            note: if goal["met"] == true {
                String::new()
            } else {
                format!("{name} = {}", show(&goal["value"]))
            },
            ..Figure::info(section, name, show(&goal["value"]))
        });
    }
    for (name, value) in report["figures"].as_object().into_iter().flatten() {
        if goals.is_some_and(|g| g.contains_key(name)) {
            continue;
        }
        figures.push(Figure::info(section, name, show(value)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chaos_line_becomes_rows_with_verdicts() {
        let out = "noise\nCHAOS {\"name\":\"w\",\"figures\":{\"waiters\":1000,\"ms\":1.5},\"goals\":{\"pending\":{\"value\":0,\"target\":0,\"met\":true},\"dups\":{\"value\":2,\"target\":0,\"met\":false}}}\n";
        let report = parse_line(out).unwrap_or_default();
        let mut figures = Figures::default();
        add("node w", &report, &mut figures);
        assert!(!figures.all_met());
        assert!(figures_missed(out));
        assert_eq!(figures.0.len(), 4);
        // Goals first, then the other figures, each by name.
        assert_eq!(figures.0[0].note, "dups = 2");
        assert_eq!(figures.0[3].value, "1,000");
    }
}
