//! Shortens the names of the wasm's imports from wasm-bindgen's glue, in the module and in the glue.
//!
//! wasm-bindgen names each import `__wbg_<name>_<16 hex digits>`: about 150 names of 35 bytes, written
//! twice (the module's import section and the glue's import object), and their hashes do not
//! compress. Renaming them `_0`, `_1`, ... saves about 3 KB of the gzipped package. wasm-opt's
//! `--minify-imports-and-exports` leaves imports of non-`env` modules alone, hence this pass.

use anyhow::{bail, Context, Result};

/// The module name under which wasm-bindgen's glue provides its imports.
pub const GLUE_MODULE: &str = "./tunesmith_bg.js";

/// `(old, new)` import names, in the order of the import section.
pub type Renames = Vec<(String, String)>;

/// Renames every import of `GLUE_MODULE` whose name starts with `__wbg` in `wasm`, and returns the
/// renamed module with the `(old, new)` pairs to apply to the glue.
pub fn shorten(wasm: &[u8]) -> Result<(Vec<u8>, Renames)> {
    if wasm.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        bail!("not a wasm module (version 1)");
    }
    let mut out = wasm[..8].to_vec();
    let mut renames = Vec::new();
    let mut r = Reader {
        bytes: wasm,
        pos: 8,
    };
    while r.pos < wasm.len() {
        let id = r.byte()?;
        let size = r.u32()? as usize;
        let body = r.take(size)?;
        if id != 2 {
            out.push(id);
            write_u32(&mut out, size as u32);
            out.extend_from_slice(body);
            continue;
        }
        let section = rename_imports(body, &mut renames)?;
        out.push(id);
        write_u32(&mut out, section.len() as u32);
        out.extend_from_slice(&section);
    }
    Ok((out, renames))
}

/// Applies the renames to the glue: each old name is a unique 40-odd-character token.
pub fn apply_to_glue(glue: &str, renames: &[(String, String)]) -> Result<String> {
    let mut out = glue.to_owned();
    for (old, new) in renames {
        if !out.contains(old.as_str()) {
            bail!("the glue does not mention the import {old}");
        }
        out = out.replace(old.as_str(), new);
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

    /// A module importing two glue functions, a snippet function and a memory.
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
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]); // type section: one () -> ()
        wasm.push(2);
        write_u32(&mut wasm, imports.len() as u32);
        wasm.extend_from_slice(&imports);
        wasm
    }

    #[test]
    fn renames_glue_imports_only_and_keeps_the_rest_byte_for_byte() {
        let (out, renames) = shorten(&module()).unwrap();
        assert_eq!(
            renames,
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
        // The renamed module parses again, with nothing left to rename.
        assert!(shorten(&out).unwrap().1.is_empty());
        let glue = "a.__wbg_fetch_0123456789abcdef=1;b.__wbg_then_fedcba9876543210=2";
        assert_eq!(apply_to_glue(glue, &renames).unwrap(), "a._0=1;b._1=2");
        assert!(apply_to_glue("nothing", &renames).is_err());
        assert_eq!(base36(36), "10");
    }
}
