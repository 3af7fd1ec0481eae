//! Shortens the names between the wasm and wasm-bindgen's glue, in the module and in the glue.
//!
//! wasm-bindgen names each import `__wbg_<name>_<16 hex digits>`: about 150 names of 35 bytes, written
//! twice (the module's import section and the glue's import object), and their hashes do not
//! compress. Renaming them `_0`, `_1`, ... saved about 3 KB of the gzipped package. The exports
//! (`client_generate`, `wasm_bindgen__convert__closures_____invoke__h<hash>`...) are written twice
//! too and become `$0`, `$1`, ... (those the glue reads; not `memory`, which the init function hands
//! to its caller).
//! wasm-opt's `--minify-imports-and-exports` leaves imports of non-`env` modules alone, and would
//! rename exports without telling the glue, hence this pass.

use anyhow::{bail, Context, Result};
use wasm_encoder::{EntityType, ExportSection, ImportSection, Module, RawSection};
use wasmparser::{Parser, Payload};

/// The module name under which wasm-bindgen's glue provides its imports.
pub const GLUE_MODULE: &str = "./tunesmith_bg.js";

/// `(old, new)` names: the imports in the order of the import section, then the exports (`$`).
pub type Renames = Vec<(String, String)>;

/// The export the glue's init function hands out as is (`instance.exports.memory`).
const KEPT_EXPORT: &str = "memory";

/// Renames every import of `GLUE_MODULE` whose name starts with `__wb` (`__wbg_*`, and the
/// intrinsics `__wbindgen_*`: 85 B gzipped) and every export but `memory` that `glue` reads, and
/// every import module (see [`module_name`]); returns the renamed module with the `(old, new)`
/// pairs for the glue, names then modules. wasmparser reads the module and wasm-encoder writes the
/// two sections; every other section is copied byte for byte.
pub fn shorten(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, Renames, Renames)> {
    let (mut renames, mut export_renames, mut modules) = (Vec::new(), Vec::new(), Vec::new());
    let module = rewrite(wasm, |name| {
        Ok(match name {
            Name::Import(old) => rename(&mut renames, old, '_'),
            Name::Module(old) => module_name(&mut modules, old),
            Name::Export(old) if replace_names(glue, old, "", true).1 > 0 => {
                rename(&mut export_renames, old, '$')
            }
            Name::Export(old) => old.to_owned(),
        })
    })?;
    renames.extend(export_renames);
    Ok((module, renames, modules))
}

/// Renames a second module built from the same crate (the browser entry's, with fewer features)
/// as [`shorten`] renamed the first, so that the first's glue loads either: each of its imports
/// and modules must have a name there, and it must have every export the glue reads (the glue calls
/// exports by name, some only when a function is called, where a missing one would fail late).
pub fn shorten_like(wasm: &[u8], renames: &Renames, modules: &Renames) -> Result<Vec<u8>> {
    let find =
        |list: &Renames, old: &str| list.iter().find(|(o, _)| o == old).map(|(_, n)| n.clone());
    let mut exports = Vec::new();
    let module = rewrite(wasm, |name| match name {
        Name::Import(old) => find(renames, old)
            .with_context(|| format!("the second module imports {old}, which the first does not")),
        Name::Module(old) => find(modules, old).with_context(|| {
            format!("the second module imports from {old}, which the first does not")
        }),
        Name::Export(old) => {
            exports.push(old.to_owned());
            Ok(find(renames, old).unwrap_or_else(|| old.to_owned()))
        }
    })?;
    let missing: Vec<&str> = renames
        .iter()
        .filter(|(old, new)| new.starts_with('$') && !exports.contains(old))
        .map(|(old, _)| old.as_str())
        .collect();
    if !missing.is_empty() {
        bail!(
            "the second module lacks exports the glue reads: {}",
            missing.join(", ")
        );
    }
    Ok(module)
}

/// What a module imports: its names, by import module.
pub type Imported = std::collections::BTreeMap<String, std::collections::BTreeSet<String>>;

/// The names `wasm` imports, by import module: what a namespace import of the glue must provide.
pub fn imported_names(wasm: &[u8]) -> Result<Imported> {
    let mut names = Imported::new();
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::ImportSection(reader) = payload? {
            for import in reader.into_imports() {
                let import = import?;
                names
                    .entry(import.module.to_owned())
                    .or_default()
                    .insert(import.name.to_owned());
            }
        }
    }
    Ok(names)
}

/// A name [`rewrite`] asks for: an import of the glue's (`__wb*`), an import module, or an export
/// (not `memory`, which the glue's init function hands to its caller as it is).
enum Name<'a> {
    Import(&'a str),
    Module(&'a str),
    Export(&'a str),
}

/// `wasm` with its import and export sections rewritten under the names `new_name` gives; every
/// other section is copied byte for byte.
fn rewrite(wasm: &[u8], mut new_name: impl FnMut(Name) -> Result<String>) -> Result<Vec<u8>> {
    let mut module = Module::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload? {
            Payload::ImportSection(reader) => {
                let mut section = ImportSection::new();
                for import in reader.into_imports() {
                    let import = import?;
                    let name = if import.module == GLUE_MODULE && import.name.starts_with("__wb") {
                        new_name(Name::Import(import.name))?
                    } else {
                        import.name.to_owned()
                    };
                    let from = new_name(Name::Module(import.module))?;
                    section.import(&from, &name, EntityType::try_from(import.ty)?);
                }
                module.section(&section);
            }
            Payload::ExportSection(reader) => {
                let mut section = ExportSection::new();
                for export in reader {
                    let export = export?;
                    let name = if export.name == KEPT_EXPORT {
                        export.name.to_owned()
                    } else {
                        new_name(Name::Export(export.name))?
                    };
                    section.export(&name, export.kind.into(), export.index);
                }
                module.section(&section);
            }
            other => {
                if let Some((id, range)) = other.as_section() {
                    let data = wasm.get(range).context("a section runs past the end")?;
                    module.section(&RawSection { id, data });
                }
            }
        }
    }
    Ok(module.finish())
}

/// The short name of an import module (`./tunesmith_bg.js`, `./snippets/tunesmith-<hash>/src/js/
/// imports.js`): `m0`, `m1`, ... in order of first use, recorded as renaming `old`. Each of the
/// module's imports names its module: some 90 times 17 to 56 bytes.
fn module_name(modules: &mut Renames, old: &str) -> String {
    match modules.iter().find(|(o, _)| o == old) {
        Some((_, new)) => new.clone(),
        None => rename(modules, old, 'm'),
    }
}

/// Applies the module renames of [`shorten`] to the glue: the keys of its import object
/// (`"./tunesmith_bg.js":e`), not its `import ... from "./snippets/..."` statements. wasm-bindgen
/// writes one key per namespace import of a snippet, all the same module: they stay one key each.
pub fn apply_modules_to_glue(glue: &str, modules: &[(String, String)]) -> Result<String> {
    let mut out = glue.to_owned();
    for (old, new) in modules {
        let key = format!("\"{old}\":");
        if !out.contains(&key) {
            bail!("the glue's import object has no key {key}");
        }
        out = out.replace(&key, &format!("{new}:"));
    }
    Ok(out)
}

/// The next short name after `sigil` (`_0`, `_1`, ... `$0`..., `m0`...), recorded as renaming `old`.
fn rename(renames: &mut Renames, old: &str, sigil: char) -> String {
    let short = format!("{sigil}{}", base36(renames.len()));
    renames.push((old.to_owned(), short.clone()));
    short
}

/// Applies the renames to the glue, whole names only: an import where it stands as a name (the
/// import object's keys), an export where the glue reads it as a property (`wasm.client_generate`,
/// which `wasm.client_generateCover` must not match).
pub fn apply_to_glue(glue: &str, renames: &[(String, String)]) -> Result<String> {
    let mut out = glue.to_owned();
    for (old, new) in renames {
        let export = new.starts_with('$');
        let (replaced, count) = replace_names(&out, old, new, export);
        if count == 0 {
            let what = if export { "export" } else { "import" };
            bail!("the glue does not mention the {what} {old}");
        }
        out = replaced;
    }
    Ok(out)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// `text` with every whole-name occurrence of `old` (after a `.` when `member`) replaced.
pub(crate) fn replace_names(text: &str, old: &str, new: &str, member: bool) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut rest = text;
    let mut before: Option<char> = None;
    while let Some(at) = rest.find(old) {
        let prev = rest[..at].chars().next_back().or(before);
        let next = rest[at + old.len()..].chars().next();
        let starts = if member {
            prev == Some('.')
        } else {
            !prev.is_some_and(is_name_char)
        };
        let whole = starts && !next.is_some_and(is_name_char);
        out.push_str(&rest[..at]);
        out.push_str(if whole { new } else { old });
        count += usize::from(whole);
        before = old.chars().next_back();
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    (out, count)
}

fn base36(n: usize) -> String {
    let last = char::from_digit((n % 36) as u32, 36).unwrap_or('0');
    match n / 36 {
        0 => last.to_string(),
        rest => format!("{}{last}", base36(rest)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::ExportKind;

    /// What the glue of `module()` reads.
    const GLUE: &str = "a.__wbg_fetch_0123456789abcdef=1;b.__wbg_then_fedcba9876543210=2;\
        export function generate(e){return w.client_generate(e)}\
        function c(e){return w.client_generateCover(e)}const m=w.memory";

    /// A module importing two glue functions, a snippet function and a memory, and exporting two
    /// functions and its memory.
    fn module() -> Vec<u8> {
        module_of(
            &[
                (GLUE_MODULE, "__wbg_fetch_0123456789abcdef"),
                ("./snippets/x/errors.js", "makeError"),
                (GLUE_MODULE, "__wbg_then_fedcba9876543210"),
            ],
            &["client_generate", "memory", "client_generateCover"],
        )
    }

    /// A module importing these functions and a memory, and exporting these names.
    fn module_of(functions: &[(&str, &str)], exports: &[&str]) -> Vec<u8> {
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        for (module, field) in functions {
            imports.import(module, field, EntityType::Function(0));
        }
        let memory = wasm_encoder::MemoryType {
            minimum: 17,
            maximum: Some(128),
            memory64: false,
            shared: false,
            page_size_log2: None,
        };
        imports.import(GLUE_MODULE, "memory", EntityType::Memory(memory));
        let mut section = ExportSection::new();
        for name in exports {
            let kind = if *name == "memory" {
                ExportKind::Memory
            } else {
                ExportKind::Func
            };
            section.export(name, kind, 0);
        }
        let mut module = Module::new();
        module.section(&types).section(&imports).section(&section);
        module.finish()
    }

    /// The `(module, name)` of each import of `wasm`, and the name of each export.
    fn names(wasm: &[u8]) -> (Vec<(String, String)>, Vec<String>) {
        let (mut imports, mut exports) = (Vec::new(), Vec::new());
        for payload in Parser::new(0).parse_all(wasm) {
            match payload.unwrap() {
                Payload::ImportSection(r) => {
                    for i in r.into_imports() {
                        let i = i.unwrap();
                        imports.push((i.module.to_owned(), i.name.to_owned()));
                    }
                }
                Payload::ExportSection(r) => {
                    exports.extend(r.into_iter().map(|e| e.unwrap().name.to_owned()));
                }
                _ => {}
            }
        }
        (imports, exports)
    }

    #[test]
    fn a_second_module_with_fewer_imports_gets_the_first_ones_names_or_an_error() {
        let (_, renames, modules) = shorten(&module(), GLUE).unwrap();
        let all_exports = ["client_generate", "memory", "client_generateCover"];
        let fewer = module_of(
            &[(GLUE_MODULE, "__wbg_then_fedcba9876543210")],
            &all_exports,
        );
        let (imports, exports) = names(&shorten_like(&fewer, &renames, &modules).unwrap());
        let pair = |m: &str, n: &str| (m.to_owned(), n.to_owned());
        assert_eq!(imports, [pair("m0", "_1"), pair("m0", "memory")]);
        assert_eq!(exports, ["$0", "memory", "$1"]);
        let unknown = module_of(
            &[(GLUE_MODULE, "__wbg_parse_0000000000000000")],
            &all_exports,
        );
        let e = shorten_like(&unknown, &renames, &modules).unwrap_err();
        assert!(
            e.to_string().contains("__wbg_parse_0000000000000000"),
            "{e}"
        );
        let other_module = module_of(&[("./snippets/y/other.js", "f")], &all_exports);
        assert!(shorten_like(&other_module, &renames, &modules).is_err());
        let lacking = module_of(&[], &["client_generate", "memory"]);
        let e = shorten_like(&lacking, &renames, &modules).unwrap_err();
        assert!(e.to_string().contains("client_generateCover"), "{e}");
    }

    #[test]
    fn renames_glue_imports_only_and_keeps_the_rest_byte_for_byte() {
        let (out, renames, _) = shorten(&module(), GLUE).unwrap();
        assert_eq!(
            renames[..2],
            [
                ("__wbg_fetch_0123456789abcdef".to_owned(), "_0".to_owned()),
                ("__wbg_then_fedcba9876543210".to_owned(), "_1".to_owned()),
            ]
        );
        assert_eq!(
            &out[..14],
            &module()[..14],
            "header and type section unchanged"
        );
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("makeError") && text.contains("memory") && !text.contains("__wbg"));
        assert!(!text.contains(GLUE_MODULE) && !text.contains("errors.js"));
        assert_eq!(
            apply_to_glue(GLUE, &renames[..2]).unwrap(),
            "a._0=1;b._1=2;export function generate(e){return w.client_generate(e)}\
             function c(e){return w.client_generateCover(e)}const m=w.memory"
        );
        assert!(apply_to_glue("nothing", &renames).is_err());
        assert_eq!(base36(36), "10");
    }

    #[test]
    fn renames_every_export_but_memory_and_the_glue_reads_each_whole_name() {
        let (out, renames, _) = shorten(&module(), GLUE).unwrap();
        assert_eq!(
            renames[2..],
            [
                ("client_generate".to_owned(), "$0".to_owned()),
                ("client_generateCover".to_owned(), "$1".to_owned()),
            ]
        );
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("memory") && !text.contains("client_"));
        // Renamed twice, the names are already short: nothing is renamed to a clash.
        let glue = apply_to_glue(GLUE, &renames).unwrap();
        let again = shorten(&out, &glue).unwrap().1;
        assert!(again
            .iter()
            .all(|(old, new)| old.starts_with('$') && new.starts_with('$')));
        let exports = &renames[2..];
        assert_eq!(
            apply_to_glue(GLUE, exports).unwrap(),
            "a.__wbg_fetch_0123456789abcdef=1;b.__wbg_then_fedcba9876543210=2;\
             export function generate(e){return w.$0(e)}function c(e){return w.$1(e)}const m=w.memory"
        );
        // A name the glue only holds inside a longer one is not there, and an export the glue
        // does not read (wasm-bindgen's `__abort_handler`, for other hosts) keeps its name.
        let only_longer = "w.client_generateCover()";
        assert!(apply_to_glue(only_longer, &exports[..1]).is_err());
        let (_, renames, _) = shorten(&module(), only_longer).unwrap();
        assert_eq!(
            renames[2..],
            [("client_generateCover".to_owned(), "$0".to_owned())]
        );
    }

    #[test]
    fn renames_each_import_module_once_in_the_module_and_in_the_glue_import_object_only() {
        let (out, _, modules) = shorten(&module(), GLUE).unwrap();
        assert_eq!(
            modules,
            [
                (GLUE_MODULE.to_owned(), "m0".to_owned()),
                ("./snippets/x/errors.js".to_owned(), "m1".to_owned()),
            ]
        );
        let imports: Vec<String> = Parser::new(0)
            .parse_all(&out)
            .filter_map(|p| match p {
                Ok(Payload::ImportSection(r)) => Some(r.into_imports()),
                _ => None,
            })
            .flatten()
            .map(|i| i.unwrap().module.to_owned())
            .collect();
        assert_eq!(imports, ["m0", "m1", "m0", "m0"]);
        let glue = "import{makeError as e}from\"./snippets/x/errors.js\";\
            return{__proto__:null,\"./tunesmith_bg.js\":h,\"./snippets/x/errors.js\":f,\"./snippets/x/errors.js\":g}";
        assert_eq!(
            apply_modules_to_glue(glue, &modules).unwrap(),
            "import{makeError as e}from\"./snippets/x/errors.js\";return{__proto__:null,m0:h,m1:f,m1:g}"
        );
        assert!(apply_modules_to_glue("{}", &modules).is_err());
    }
}
