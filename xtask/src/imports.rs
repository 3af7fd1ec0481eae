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

/// The module name under which wasm-bindgen's glue provides its imports.
pub const GLUE_MODULE: &str = "./tunesmith_bg.js";

/// `(old, new)` names: the imports in the order of the import section, then the exports (`$`).
pub type Renames = Vec<(String, String)>;

/// The export the glue's init function hands out as is (`instance.exports.memory`).
const KEPT_EXPORT: &str = "memory";

/// Renames every import of `GLUE_MODULE` whose name starts with `__wbg` and every export but
/// `memory` that `glue` reads, and returns the renamed module with the `(old, new)` pairs for the
/// glue.
pub fn shorten(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, Renames)> {
    if wasm.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        bail!("not a wasm module (version 1)");
    }
    let mut out = wasm[..8].to_vec();
    let mut renames = Vec::new();
    let mut export_renames = Vec::new();
    let mut r = Reader {
        bytes: wasm,
        pos: 8,
    };
    while r.pos < wasm.len() {
        let id = r.byte()?;
        let size = r.u32()? as usize;
        let body = r.take(size)?;
        let section = match id {
            2 => rename_imports(body, &mut renames)?,
            7 => rename_exports(body, glue, &mut export_renames)?,
            _ => body.to_vec(),
        };
        out.push(id);
        write_u32(&mut out, section.len() as u32);
        out.extend_from_slice(&section);
    }
    renames.extend(export_renames);
    Ok((out, renames))
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
fn replace_names(text: &str, old: &str, new: &str, member: bool) -> (String, usize) {
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

fn rename_exports(body: &[u8], glue: &str, renames: &mut Renames) -> Result<Vec<u8>> {
    let mut r = Reader {
        bytes: body,
        pos: 0,
    };
    let count = r.u32()?;
    let mut out = Vec::with_capacity(body.len());
    write_u32(&mut out, count);
    for _ in 0..count {
        let field = r.name()?;
        let kind = r.byte()?;
        let index = r.u32()?;
        let read_by_glue = replace_names(glue, field, "", true).1 > 0;
        let field = if field == KEPT_EXPORT || !read_by_glue {
            field.to_owned()
        } else {
            let short = format!("${}", base36(renames.len()));
            renames.push((field.to_owned(), short.clone()));
            short
        };
        write_name(&mut out, &field);
        out.push(kind);
        write_u32(&mut out, index);
    }
    if r.pos != body.len() {
        bail!("trailing bytes in the export section");
    }
    Ok(out)
}

fn rename_imports(body: &[u8], renames: &mut Renames) -> Result<Vec<u8>> {
    let mut r = Reader {
        bytes: body,
        pos: 0,
    };
    let count = r.u32()?;
    let mut out = Vec::with_capacity(body.len());
    write_u32(&mut out, count);
    for _ in 0..count {
        let module = r.name()?;
        let field = r.name()?;
        let desc_start = r.pos;
        r.skip_import_desc()?;
        let desc = &body[desc_start..r.pos];
        let field = if module == GLUE_MODULE && field.starts_with("__wbg") {
            let short = format!("_{}", base36(renames.len()));
            renames.push((field.to_owned(), short.clone()));
            short
        } else {
            field.to_owned()
        };
        write_name(&mut out, module);
        write_name(&mut out, &field);
        out.extend_from_slice(desc);
    }
    if r.pos != body.len() {
        bail!("trailing bytes in the import section");
    }
    Ok(out)
}

fn base36(mut n: usize) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    loop {
        s.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8> {
        let b = *self
            .bytes
            .get(self.pos)
            .context("unexpected end of the module")?;
        self.pos += 1;
        Ok(b)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let s = self
            .bytes
            .get(self.pos..self.pos + n)
            .context("section runs past the end")?;
        self.pos += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32> {
        let (mut value, mut shift) = (0u32, 0);
        loop {
            let b = self.byte()?;
            value |= u32::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
            if shift > 28 {
                bail!("LEB128 number too long");
            }
        }
    }

    fn name(&mut self) -> Result<&'a str> {
        let len = self.u32()? as usize;
        std::str::from_utf8(self.take(len)?).context("import name is not UTF-8")
    }

    fn limits(&mut self) -> Result<()> {
        let flags = self.byte()?;
        self.u32()?;
        if flags & 1 != 0 {
            self.u32()?;
        }
        Ok(())
    }

    /// Skips an import's description: function, table, memory, global or tag.
    fn skip_import_desc(&mut self) -> Result<()> {
        match self.byte()? {
            0x00 => self.u32().map(|_| ()),
            0x01 => {
                self.byte()?; // reference type: funcref or externref
                self.limits()
            }
            0x02 => self.limits(),
            0x03 => {
                self.byte()?; // value type
                self.byte().map(|_| ()) // mutability
            }
            0x04 => {
                self.byte()?;
                self.u32().map(|_| ())
            }
            kind => bail!("unknown import kind {kind:#x}"),
        }
    }
}

fn write_u32(out: &mut Vec<u8>, mut n: u32) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_u32(out, name.len() as u32);
    out.extend_from_slice(name.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the glue of `module()` reads.
    const GLUE: &str = "a.__wbg_fetch_0123456789abcdef=1;b.__wbg_then_fedcba9876543210=2;\
        export function generate(e){return w.client_generate(e)}\
        function c(e){return w.client_generateCover(e)}const m=w.memory";

    /// A module importing two glue functions, a snippet function and a memory, and exporting two
    /// functions and its memory.
    fn module() -> Vec<u8> {
        let mut imports = Vec::new();
        write_u32(&mut imports, 4);
        for (module, field) in [
            (GLUE_MODULE, "__wbg_fetch_0123456789abcdef"),
            ("./snippets/x/errors.js", "makeError"),
            (GLUE_MODULE, "__wbg_then_fedcba9876543210"),
        ] {
            write_name(&mut imports, module);
            write_name(&mut imports, field);
            imports.extend_from_slice(&[0x00, 0x00]);
        }
        write_name(&mut imports, GLUE_MODULE);
        write_name(&mut imports, "memory");
        imports.extend_from_slice(&[0x02, 0x01, 0x11, 0x80, 0x01]);
        let mut exports = Vec::new();
        write_u32(&mut exports, 3);
        for (field, kind) in [
            ("client_generate", 0),
            ("memory", 2),
            ("client_generateCover", 0),
        ] {
            write_name(&mut exports, field);
            exports.extend_from_slice(&[kind, 0]);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]); // type section: one () -> ()
        wasm.push(2);
        write_u32(&mut wasm, imports.len() as u32);
        wasm.extend_from_slice(&imports);
        wasm.push(7);
        write_u32(&mut wasm, exports.len() as u32);
        wasm.extend_from_slice(&exports);
        wasm
    }

    #[test]
    fn renames_glue_imports_only_and_keeps_the_rest_byte_for_byte() {
        let (out, renames) = shorten(&module(), GLUE).unwrap();
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
        let glue = "a.__wbg_fetch_0123456789abcdef=1;b.__wbg_then_fedcba9876543210=2;\
            w.client_generate(1);w.client_generateCover(2);w.memory";
        assert_eq!(
            apply_to_glue(glue, &renames[..2]).unwrap(),
            "a._0=1;b._1=2;w.client_generate(1);w.client_generateCover(2);w.memory"
        );
        assert!(apply_to_glue("nothing", &renames).is_err());
        assert_eq!(base36(36), "10");
    }

    #[test]
    fn renames_every_export_but_memory_and_the_glue_reads_each_whole_name() {
        let (out, renames) = shorten(&module(), GLUE).unwrap();
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
        let (_, renames) = shorten(&module(), only_longer).unwrap();
        assert_eq!(
            renames[2..],
            [("client_generateCover".to_owned(), "$0".to_owned())]
        );
    }
}
