//! What the build changes in wasm-bindgen's glue (`tunesmith.js`) before it is minified, beside the
//! renames of `imports.rs`: every page downloads the glue, and two of its parts serve no caller of
//! this package. Together they took the minified glue from 3,123 to 2,669 B gzipped (2026-11-27):
//!
//! - **The loader** (`__wbg_load`, `__wbg_init`, `initSync`): wasm-bindgen's accepts a
//!   URL, a `Request`, a `Response`, a promise of one, bytes or a compiled module, in a current and a
//!   deprecated argument form, and warns in long sentences. The package's four entries are its only
//!   callers and pass a URL or a module: `loader.js` takes those, still compiles while streaming when
//!   the server sends `application/wasm` and the runtime can (`instantiateStreaming`), and loads
//!   once for all callers.
//! - **Namespace imports of one snippet**: wasm-bindgen writes `import * as importN from` the same
//!   snippet once per group of raw imports (13 of them) and as many keys of the import object. One
//!   import of the names the modules read suffices (`import_snippets_by_name`).
//!
//! Each change fails the build when the glue no longer has the shape it expects (a new wasm-bindgen),
//! and the build then loads both modules through the changed glue in Node; the e2e suite loads it in
//! Chromium, with and without the `application/wasm` type.
//!
//! Then [`bundle`] puts the glue and the two snippets it imports (`src/js/imports.js`, `errors.js`)
//! into one file, with rolldown: a page fetches one file of glue instead of three, one after the
//! other (each import is found only once its importer has arrived), and gzip compresses them as one:
//! 5,569 B instead of 2,685 + 2,885 + 478 = 6,010 B on 2026-11-27; 5,357 B once the snippet's
//! functions were imported by name.

use crate::imports::Imported;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// The loader that replaces wasm-bindgen's, from `async function __wbg_load` to the end of the glue.
const LOADER: &str = include_str!("loader.js");

/// Where wasm-bindgen's loader starts and how the glue ends.
const LOADER_START: &str = "async function __wbg_load(";
const GLUE_END: &str = "export { initSync, __wbg_init as default };";

/// The glue with this package's loader, and each snippet imported by name: only what the modules
/// (`imported`, both modules' imports) read from it.
pub fn rewrite(glue: &str, imported: &Imported) -> Result<String> {
    import_snippets_by_name(&replace_loader(glue)?, imported)
}

fn replace_loader(glue: &str) -> Result<String> {
    let (Some(start), Some(end)) = (glue.find(LOADER_START), glue.rfind(GLUE_END)) else {
        bail!("wasm-bindgen's glue has no `{LOADER_START}` ... `{GLUE_END}` to replace (xtask/src/glue.rs)");
    };
    // A debug build's glue goes on with comments and one more export (`export { wasm as __wasm }`),
    // which are kept after the new loader.
    let tail = &glue[end + GLUE_END.len()..];
    let tail_kept = tail
        .lines()
        .map(str::trim)
        .all(|line| line.is_empty() || line.starts_with("//") || line.starts_with("export {"));
    if end < start || !tail_kept {
        bail!("wasm-bindgen's glue does not end with its loader (xtask/src/glue.rs)");
    }
    for used in [
        "function __wbg_get_imports(",
        "function __wbg_finalize_init(",
        "let wasmModule, wasmInstance, wasm;",
    ] {
        if !glue[..start].contains(used) {
            bail!("wasm-bindgen's glue has no `{used}`, which loader.js calls (xtask/src/glue.rs)");
        }
    }
    let tail = if tail.trim().is_empty() { "" } else { tail };
    Ok(format!("{}{LOADER}{tail}", &glue[..start]))
}

/// wasm-bindgen imports a snippet whole, `import * as importN from "<module>"`, once per group of raw
/// imports (13 times for `imports.js`), each a key `"<module>": importN,` of the import object. The
/// first of a module becomes `import { <name> as <ns>_<name>, ... }` of the names the modules
/// import from it, and its key an object of them; the others go, with their keys. A namespace keeps
/// every export of the snippet alive, and a bundler writes it out with a getter per export: the
/// modules read 13 of imports.js's 28 (220 B gzipped on 2026-11-27).
fn import_snippets_by_name(glue: &str, imported: &Imported) -> Result<String> {
    // The first namespace of each module, with the object that replaces it; the later ones.
    let mut named: Vec<(&str, &str, String)> = Vec::new();
    let mut merged: Vec<&str> = Vec::new();
    let mut out = String::with_capacity(glue.len());
    for line in glue.split_inclusive('\n') {
        let Some((ns, module)) = namespace_import(line) else {
            out.push_str(line);
            continue;
        };
        if named.iter().any(|(_, m, _)| *m == module) {
            merged.push(ns);
            continue;
        }
        let Some(names) = imported.get(module).filter(|n| !n.is_empty()) else {
            bail!("the glue imports {module} whole, but no module imports from it (xtask/src/glue.rs)");
        };
        let aliases: Vec<String> = names.iter().map(|n| format!("{n} as {ns}_{n}")).collect();
        out.push_str(&format!(
            "import {{ {} }} from \"{module}\";\n",
            aliases.join(", ")
        ));
        let fields: Vec<String> = names.iter().map(|n| format!("{n}: {ns}_{n}")).collect();
        named.push((ns, module, format!("{{ {} }}", fields.join(", "))));
    }
    let mut keyed = String::with_capacity(out.len());
    for line in out.split_inclusive('\n') {
        let value = import_entry(line).map(|(_, value)| value);
        if value.is_some_and(|v| merged.contains(&v)) {
            continue;
        }
        match named.iter().find(|(ns, _, _)| Some(*ns) == value) {
            Some((ns, _, object)) => {
                keyed.push_str(&line.replacen(&format!("\": {ns},"), &format!("\": {object},"), 1))
            }
            None => keyed.push_str(line),
        }
    }
    for ns in merged.iter().chain(named.iter().map(|(ns, _, _)| ns)) {
        if crate::imports::replace_names(&keyed, ns, ns, false).1 > 0 {
            bail!("the glue still reads the namespace {ns} after its snippet was imported by name (xtask/src/glue.rs)");
        }
    }
    Ok(keyed)
}

/// What the package's own files import from the snippets, which the bundled glue re-exports: the
/// error classes (`api.js`), `useFetch` (`node.js`), and `panicked` (what a trap calls: the
/// hostile-input suite calls it to stop the module). `tunesmith.js` is not one of the package's
/// `exports`: no user code imports it.
const SNIPPET_EXPORTS: &[(&str, &[&str])] = &[
    ("errors.js", ERROR_CLASSES),
    ("imports.js", &["useFetch", "panicked"]),
];

/// The error classes of `src/js/errors.js`.
const ERROR_CLASSES: &[&str] = &[
    "TunesmithError",
    "ValidationError",
    "ApiError",
    "NetworkError",
    "TimeoutError",
    "AbortError",
    "TaskFailedError",
];

/// The classes whose own names show (in consoles, stacks and `constructor.name`): the error classes
/// and `Client`. The terser run on the bundle must not rename their bindings, since rolldown writes
/// each as `var Name = class ...`, whose name is the binding's.
pub fn class_names() -> impl Iterator<Item = &'static str> {
    ERROR_CLASSES.iter().copied().chain(["Client"])
}

/// Bundles `dir/tunesmith.js` and the snippets it imports (wasm-bindgen's folder of them, see
/// [`snippet_folder`]) into `dir/tunesmith.js`, with rolldown, and removes `dir/snippets`. The bundle
/// re-exports [`SNIPPET_EXPORTS`]; the build fails if it still imports a file.
pub fn bundle(dir: &Path) -> Result<()> {
    let snippets = snippet_folder(dir)?;
    let js = dir.join("tunesmith.js");
    let mut entry = std::fs::read_to_string(&js)?;
    for (file, names) in SNIPPET_EXPORTS {
        let names = names.join(", ");
        entry.push_str(&format!(
            "\nexport {{ {names} }} from \"./{snippets}/{file}\";"
        ));
    }
    let entry_file = dir.join("tunesmith.entry.js");
    std::fs::write(&entry_file, entry)?;
    let status = Command::new(crate::toolchain::rolldown()?)
        .arg(&entry_file)
        .args(["--format", "esm", "--platform", "neutral", "--file"])
        .arg(&js)
        .status()
        .context("cannot run rolldown")?;
    std::fs::remove_file(&entry_file)?;
    if !status.success() {
        bail!("rolldown could not bundle the glue ({status})");
    }
    let bundled = std::fs::read_to_string(&js)?;
    if let Some(left) = still_imported(&bundled) {
        bail!("the bundled glue still imports {left} (xtask/src/glue.rs)");
    }
    std::fs::remove_dir_all(dir.join("snippets"))?;
    Ok(())
}

/// The snippet every build writes, which names the folder of them all.
const ERRORS_SNIPPET_SUFFIX: &str = "src/js/errors.js";

/// The folder, relative to `pkg`, where wasm-bindgen wrote the crate's snippets
/// (`snippets/<crate>-<hash>/src/js`): the one holding `errors.js`, which must be one.
pub fn snippet_folder(pkg: &Path) -> Result<String> {
    let found: Vec<String> = crate::package::files_under(&pkg.join("snippets"))?
        .iter()
        .filter_map(|p| p.strip_prefix(pkg).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .filter_map(|p| {
            p.strip_suffix(ERRORS_SNIPPET_SUFFIX)
                .map(|dir| format!("{dir}src/js"))
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!("wasm-bindgen wrote no snippet ending in {ERRORS_SNIPPET_SUFFIX}"),
        many => bail!("several snippets end in {ERRORS_SNIPPET_SUFFIX}: {many:?}"),
    }
}

/// The first line of a bundle (rolldown writes one statement a line) that still imports or
/// re-exports a module, if any.
fn still_imported(bundle: &str) -> Option<&str> {
    bundle.lines().map(str::trim).find(|line| {
        line.starts_with("import ")
            || line.starts_with("import{")
            || (line.starts_with("export") && line.contains(" from "))
    })
}

/// `("<module>", value)` of a line `"<module>": value,` of the glue's import object.
fn import_entry(line: &str) -> Option<(&str, &str)> {
    line.trim()
        .strip_suffix(',')
        .and_then(|entry| entry.split_once("\": "))
        .filter(|(module, _)| module.starts_with('"'))
}

/// `import * as <name> from "<module>"` (wasm-bindgen's form, with or without a semicolon).
fn namespace_import(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("import * as ")?;
    let (name, module) = rest.split_once(" from ")?;
    let module = module.trim_end_matches(';').trim_matches(['"', '\'']);
    Some((name, module))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLUE: &str = "import { a } from './snippets/x/imports.js';\n\
import * as import1 from \"./snippets/x/imports.js\"\n\
import * as import2 from \"./snippets/x/imports.js\"\n\
import * as import3 from \"./other.js\"\n\
function __wbg_get_imports() {\n    return {\n        \"./snippets/x/imports.js\": import1,\n        \"./snippets/x/imports.js\": import2,\n        \"./other.js\": import3,\n    };\n}\n\
let wasmModule, wasmInstance, wasm;\n\
function __wbg_finalize_init(instance, module) {}\n\
async function __wbg_load(module, imports) {\n    console.warn('long');\n}\n\
export { initSync, __wbg_init as default };\n";

    /// What the modules of the test glue import: `a` and `b` of the snippet, `c` of other.js.
    fn imported() -> Imported {
        [
            ("./snippets/x/imports.js", &["a", "b"][..]),
            ("./other.js", &["c"][..]),
            ("./tunesmith_bg.js", &["__wbg_x"][..]),
        ]
        .into_iter()
        .map(|(m, names)| (m.to_owned(), names.iter().map(|n| n.to_string()).collect()))
        .collect()
    }

    fn rewrite(glue: &str) -> Result<String> {
        super::rewrite(glue, &imported())
    }

    #[test]
    fn imports_each_snippet_by_the_names_the_modules_read_and_replaces_the_loader() {
        let out = rewrite(GLUE).unwrap();
        assert_eq!(out.matches("import * as").count(), 0, "{out}");
        assert!(
            out.contains(
                "import { a as import1_a, b as import1_b } from \"./snippets/x/imports.js\";"
            ),
            "{out}"
        );
        assert!(
            out.contains("\"./snippets/x/imports.js\": { a: import1_a, b: import1_b },"),
            "{out}"
        );
        for merged in ["import1", "import2", "import3"] {
            assert_eq!(
                crate::imports::replace_names(&out, merged, merged, false).1,
                0,
                "{out}"
            );
        }
        assert!(out.contains("\"./other.js\": { c: import3_c },"), "{out}");
        let nobody = rewrite(&GLUE.replace("./other.js", "./unread.js"));
        assert!(nobody.is_err(), "a namespace no module imports from");
        assert!(
            !out.contains("__wbg_load") && !out.contains("console.warn"),
            "{out}"
        );
        assert!(out.ends_with(LOADER), "{out}");
    }

    #[test]
    fn a_glue_of_another_shape_fails_the_build() {
        let no_loader = GLUE.replace("async function __wbg_load(", "async function load(");
        assert!(rewrite(&no_loader).is_err());
        let no_finalize = GLUE.replace("function __wbg_finalize_init(", "function finish(");
        assert!(rewrite(&no_finalize).is_err());
        let trailing = format!("{GLUE}export const more = 1;\n");
        assert!(rewrite(&trailing).is_err());
    }

    #[test]
    fn a_debug_glue_keeps_what_follows_its_loader() {
        let debug = format!("{GLUE}//#endregion\nexport {{ wasm as __wasm }}\n");
        let out = rewrite(&debug).unwrap();
        assert!(
            out.ends_with("//#endregion\nexport { wasm as __wasm }\n")
                && !out.contains("__wbg_load"),
            "{out}"
        );
    }

    #[test]
    fn a_bundle_that_still_imports_a_file_is_refused() {
        let bundled = "var t = class extends Error {};\nfunction f() {}\nexport { t as TunesmithError, f };\n";
        assert_eq!(still_imported(bundled), None);
        for left in [
            "import { a } from \"./snippets/x/imports.js\";",
            "import{a}from'./x.js';",
            "import * as b from \"./x.js\";",
            "export { a } from \"./snippets/x/errors.js\";",
            "export * from './x.js';",
        ] {
            let text = format!("{bundled}{left}\n");
            assert_eq!(still_imported(&text), Some(left), "{text}");
        }
    }

    #[test]
    fn finds_the_snippet_folder_relative_to_the_package() {
        let pkg = std::env::temp_dir().join(format!("tunesmith-snippets-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&pkg);
        let write = |rel: &str| {
            let path = pkg.join(rel);
            std::fs::create_dir_all(path.parent().unwrap_or(&pkg)).ok();
            std::fs::write(path, "").ok();
        };
        write("snippets/tunesmith-1a2b/src/js/errors.js");
        write("snippets/tunesmith-1a2b/src/js/imports.js");
        assert_eq!(
            snippet_folder(&pkg).ok().as_deref(),
            Some("snippets/tunesmith-1a2b/src/js")
        );
        write("snippets/tunesmith-ffff/src/js/errors.js");
        assert!(snippet_folder(&pkg).is_err());
        let _ = std::fs::remove_dir_all(&pkg);
        assert!(snippet_folder(&pkg).is_err());
    }
}
