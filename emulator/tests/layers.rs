//! The crate's module graph, read from the source tree: no import cycle, and layers that point one way.
//!
//! Every file is a node; an edge goes from a file to the module file a path in it names
//! (`crate::a::b`, `super::x`, or a child module named by its parent). `mod` declarations are
//! structure, not edges. `LAYERS_SRC=/other/src` checks another tree (e.g. an older commit) and
//! prints its cycles without failing.
//! Over 400 lines on purpose: the reader of imports and the cycle finder are the test's own, and
//! one file states the layers of all three crates it guards.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "mod.rs" => {}
        "main.rs" if parts.is_empty() => return None,
        other => parts.push(other.strip_suffix(".rs")?.to_owned()),
    }
    Some(parts)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its trailing `#[cfg(test)] mod tests`.
fn code(text: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        // A test module (after its attributes) names its parent through `super`; it is no dependency.
        let test_module = t == "#[cfg(test)]"
            && lines[n + 1..]
                .iter()
                .map(|l| l.trim_start())
                .find(|l| !l.starts_with("#[") && !l.starts_with("//"))
                .is_some_and(|l| l.starts_with("mod tests"));
        if test_module {
            break;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Paths of a use-tree starting at `s` (after `prefix::`): `a::b`, `{a, b::{c, d}}`, `a::*`.
fn use_tree(s: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        while *i < s.len() && s[*i].is_whitespace() {
            *i += 1;
        }
        if *i < s.len() && s[*i] == '{' {
            *i += 1;
            loop {
                use_tree(s, i, path.clone(), out);
                while *i < s.len() && s[*i].is_whitespace() {
                    *i += 1;
                }
                match s.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return;
                    }
                    _ => return,
                }
                while *i < s.len() && s[*i].is_whitespace() {
                    *i += 1;
                }
                if s.get(*i) == Some(&'}') {
                    *i += 1;
                    return;
                }
            }
        }
        let start = *i;
        while *i < s.len() && ident_char(s[*i]) {
            *i += 1;
        }
        if *i > start {
            path.push(s[start..*i].iter().collect());
        }
        if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
            *i += 2;
            continue;
        }
        out.push(path);
        return;
    }
}

/// Every path in `code` that starts with `crate::`, `super::` or one of `children`, as segments
/// resolved to absolute module paths.
fn references(code: &str, module: &Module, children: &[String]) -> Vec<Module> {
    let s: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if i > 0 && (ident_char(s[i - 1]) || s[i - 1] == ':') || !ident_char(s[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < s.len() && ident_char(s[i]) {
            i += 1;
        }
        let word: String = s[start..i].iter().collect();
        if !(s.get(i) == Some(&':') && s.get(i + 1) == Some(&':')) {
            continue;
        }
        let base: Option<Vec<String>> = match word.as_str() {
            "crate" => Some(Vec::new()),
            // `super` of a.rs and of a/mod.rs is the parent of module `a`.
            "super" => Some(module[..module.len().saturating_sub(1)].to_vec()),
            "self" => Some(module.clone()),
            w if children.iter().any(|c| c == w) => {
                // The child's name is the first segment of the tree.
                i = start;
                let mut paths = Vec::new();
                use_tree(&s, &mut i, module.clone(), &mut paths);
                out.extend(paths);
                None
            }
            _ => None,
        };
        if let Some(base) = base {
            i += 2;
            let mut paths = Vec::new();
            use_tree(&s, &mut i, base, &mut paths);
            out.extend(paths);
        }
    }
    out.into_iter()
        .map(|path| {
            let mut m = Vec::new();
            for seg in path {
                match seg.as_str() {
                    "super" => {
                        m.pop();
                    }
                    "self" => {}
                    _ => m.push(seg),
                }
            }
            m
        })
        .collect()
}

struct Graph {
    files: BTreeMap<Module, PathBuf>,
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

fn graph(src: &Path) -> Graph {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let mut files = BTreeMap::new();
    for p in &paths {
        if let Some(m) = module_of(src, p) {
            files.insert(m, p.clone());
        }
    }
    // The longest prefix of a path that is a module file.
    let module_file = |reference: &[String]| {
        (0..=reference.len())
            .rev()
            .map(|n| reference[..n].to_vec())
            .find(|m| files.contains_key(m))
    };
    let mut named: BTreeMap<Module, Vec<Module>> = BTreeMap::new();
    for (module, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let children: Vec<String> = files
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m[module.len()].clone())
            .collect();
        let body = code(&text);
        // `mod x;` declarations are the tree, not dependencies.
        let body: String = body
            .lines()
            .filter(|l| {
                let t = l
                    .trim_start()
                    .trim_start_matches("pub ")
                    .trim_start_matches("pub(crate) ");
                !(t.starts_with("mod ") && t.trim_end().ends_with(';'))
            })
            .collect::<Vec<_>>()
            .join("\n");
        named.insert(module.clone(), references(&body, module, &children));
    }
    // What a module re-exports of its children (`pub use family::TaskFamily;` in lib.rs), by
    // name: `crate::TaskFamily` depends on `family`, not on the root, or every such path would
    // make a circle through the module that re-exports it.
    let mut reexports: BTreeMap<Module, BTreeMap<String, Module>> = BTreeMap::new();
    for (module, paths) in &named {
        for path in paths {
            if let (Some(last), Some(m)) = (path.last(), module_file(path)) {
                if m.len() > module.len() && m.starts_with(module) && m.len() < path.len() {
                    reexports
                        .entry(module.clone())
                        .or_default()
                        .insert(last.clone(), m);
                }
            }
        }
    }
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, references) in &named {
        let set = edges.entry(module.clone()).or_default();
        for reference in references {
            let target = module_file(reference).map(|t| {
                let name = reference.get(t.len());
                let through = reexports
                    .get(&t)
                    .zip(name)
                    .and_then(|(n, name)| n.get(name));
                through.cloned().unwrap_or(t)
            });
            if let Some(t) = target {
                if &t != module {
                    set.insert(t);
                }
            }
        }
    }
    Graph { files, edges }
}

/// Strongly connected components with more than one file (Tarjan).
fn cycles(g: &Graph) -> Vec<Vec<Module>> {
    struct St<'a> {
        g: &'a Graph,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on: BTreeSet<Module>,
        next: usize,
        out: Vec<Vec<Module>>,
    }
    fn visit(st: &mut St<'_>, v: &Module) {
        st.index.insert(v.clone(), st.next);
        st.low.insert(v.clone(), st.next);
        st.next += 1;
        st.stack.push(v.clone());
        st.on.insert(v.clone());
        let succ: Vec<Module> = st.g.edges.get(v).into_iter().flatten().cloned().collect();
        for w in succ {
            if !st.index.contains_key(&w) {
                visit(st, &w);
                let lw = st.low[&w];
                let lv = st.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if st.on.contains(&w) {
                let iw = st.index[&w];
                let lv = st.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if st.low[v] == st.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on.remove(&w);
                let done = &w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                st.out.push(comp);
            }
        }
    }
    let mut st = St {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.files.keys() {
        if !st.index.contains_key(v) {
            visit(&mut st, v);
        }
    }
    st.out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

fn own_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The protocol crate's sources and the client's, beside the emulator's in the workspace.
fn sibling_src(crate_dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_dir)
        .join("src")
}

/// The cycles of a tree, printed; `LAYERS_SRC=/other/src` checks another tree (e.g. an older
/// commit) instead and only prints.
fn assert_no_cycle(own: PathBuf) {
    let other = std::env::var_os("LAYERS_SRC").map(PathBuf::from);
    let src = other.clone().unwrap_or(own);
    let g = graph(&src);
    let found = cycles(&g);
    let files: usize = found.iter().map(Vec::len).sum();
    println!(
        "{}: {} files, {} cycles (strongly connected components) covering {files} files",
        src.display(),
        g.files.len(),
        found.len()
    );
    for c in &found {
        println!(
            "  cycle: {}",
            c.iter().map(name).collect::<Vec<_>>().join(", ")
        );
    }
    if other.is_none() {
        assert!(found.is_empty(), "import cycles: {found:?}");
    }
}

#[test]
fn no_import_cycle() {
    assert_no_cycle(own_src());
}

#[test]
fn no_import_cycle_in_the_protocol() {
    assert_no_cycle(sibling_src("protocol"));
}

#[test]
fn no_import_cycle_in_the_client() {
    assert_no_cycle(sibling_src("."));
}

/// Layer of a module: 0 core, 1 families, 2 callbacks, 3 HTTP; others are unchecked.
fn layer(m: &Module) -> Option<u8> {
    match m.first().map(String::as_str) {
        Some("core") => Some(0),
        Some("families") => Some(1),
        Some("callbacks") => Some(2),
        Some("http") => Some(3),
        _ => None,
    }
}

#[test]
fn layers_point_one_way() {
    let g = graph(&own_src());
    let mut wrong = Vec::new();
    for (from, tos) in &g.edges {
        for to in tos {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    wrong.push(format!("{} -> {}", name(from), name(to)));
                }
            }
            // The core and the families know nothing of the shared edge state.
            if layer(from).is_some_and(|l| l <= 1) && layer(to).is_none() && !to.is_empty() {
                let allowed = ["store", "clock", "media"];
                if !allowed.contains(&to[0].as_str()) {
                    wrong.push(format!("{} -> {}", name(from), name(to)));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "edges against the layers: {wrong:#?}");
    for (m, path) in &g.files {
        if layer(m).is_some_and(|l| l <= 1) {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(!text.contains("axum"), "{} names axum", path.display());
        }
    }
}

#[test]
fn the_checker_sees_a_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(
        src.join("a/mod.rs"),
        "pub mod x;\nuse crate::{b::{self, f}};\n",
    )
    .unwrap();
    std::fs::write(src.join("a/x.rs"), "fn g() { super::super::b::f() }\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "// crate::a is only named here\nuse crate::a::x;\n",
    )
    .unwrap();
    let g = graph(src);
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].len(), 2);
}

/// The client's one driver knows neither of its faces: it names only itself, the error type, the
/// JavaScript runtime's bindings and the executor its futures await through (`tasks`); and the
/// Rust face names nothing of the JavaScript face.
#[test]
fn the_client_driver_knows_neither_face() {
    let g = graph(&sibling_src("."));
    let mut wrong = Vec::new();
    for (from, tos) in &g.edges {
        for to in tos {
            let first = |m: &Module| m.first().cloned().unwrap_or_default();
            let driver_reaches_out = first(from) == "driver"
                && !matches!(first(to).as_str(), "driver" | "errors" | "js" | "tasks");
            let rust_face_reaches_js_face = first(from) == "rust_api"
                && !matches!(first(to).as_str(), "rust_api" | "driver" | "errors" | "js");
            if driver_reaches_out || rust_face_reaches_js_face {
                wrong.push(format!("{} -> {}", name(from), name(to)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "edges out of the driver or across faces: {wrong:#?}"
    );
}

/// `crate::Name` re-exported by the root depends on the module that defines it, not on the root:
/// a path through a re-export is no circle, and a real circle through one is still found.
#[test]
fn the_checker_reads_paths_through_re_exports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(
        src.join("lib.rs"),
        "mod a;\nmod b;\npub use a::Thing;\nfn f(_: b::B) {}\n",
    )
    .unwrap();
    std::fs::write(src.join("a.rs"), "pub struct Thing;\n").unwrap();
    std::fs::write(src.join("b.rs"), "pub struct B(crate::Thing);\n").unwrap();
    assert!(cycles(&graph(src)).is_empty());
    std::fs::write(src.join("a.rs"), "pub struct Thing(crate::b::B);\n").unwrap();
    let found = cycles(&graph(src));
    assert_eq!(found.len(), 1, "{found:?}");
}
