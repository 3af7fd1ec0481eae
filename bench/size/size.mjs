// `cargo xtask bench --only size`: where the shipped bytes are, past twiggy's list.
//   1. the JS glue (pkg/tunesmith.js as shipped, minified), by part: what each part weighs raw and
//      what removing it would save gzipped (the whole file gzipped with and without it);
//   2. the module (TUNESMITH_NAMED_WASM: the shipped module with its function names kept), by
//      section, by Rust module (`crate::module` of each function), and its data: text vs the rest;
//   3. an estimate, in gzipped bytes, of each size direction the package has measured or been
//      offered, from the figures above.
// Env: TUNESMITH_PKG; TUNESMITH_NAMED_WASM (without it, parts 2 and 3 are skipped);
// TUNESMITH_BENCH_SMOKE=1 changes nothing here (it is quick) but is accepted like every script.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const require = createRequire(new URL("../../xtask/js/package.json", import.meta.url));
const acorn = require("acorn");

const PKG = process.env.TUNESMITH_PKG;
const NAMED = process.env.TUNESMITH_NAMED_WASM;
if (!PKG) {
  console.error("size bench: TUNESMITH_PKG is required");
  process.exit(2);
}
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const pad = (s, n) => String(s).padEnd(n);
const num = (x, n = 9) => String(x).padStart(n);

// ---- 0. What a page loads: the browser entry's static imports, and what it imports on demand -------------
{
  const atStart = new Map();
  const onDemand = new Set();
  const follow = (file) => {
    if (atStart.has(file)) return;
    const text = readFileSync(join(PKG, file), "utf8");
    atStart.set(file, gz(text));
    const tree = acorn.parse(text, { ecmaVersion: "latest", sourceType: "module" });
    const relative = (source) => (source?.value?.startsWith("./") ? join(file, "..", source.value) : null);
    for (const node of tree.body) {
      const from = relative(node.source);
      if (from && /^(ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration)$/.test(node.type)) follow(from);
    }
    const dynamic = (node) => {
      if (!node || typeof node.type !== "string") return;
      if (node.type === "ImportExpression" && relative(node.source)) onDemand.add(relative(node.source));
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) value.forEach(dynamic);
        else if (value && typeof value === "object") dynamic(value);
      }
    };
    dynamic(tree);
  };
  follow("index.js");
  const wasmGz = gz(readFileSync(join(PKG, "tunesmith_bg.wasm")));
  const js = [...atStart.values()].reduce((n, b) => n + b, 0);
  console.log(`the browser entry (index.js) at start: ${js + wasmGz} B gzipped: tunesmith_bg.wasm ${wasmGz} + ${atStart.size} .js ${js}`);
  console.log(`  ${[...atStart].map(([f, b]) => `${f} ${b}`).join(", ")}`);
  const lazy = [...onDemand].filter((f) => !atStart.has(f));
  console.log(`  on demand (dynamic imports): ${lazy.map((f) => `${f} ${gz(readFileSync(join(PKG, f)))}`).join(", ") || "none"}\n`);
}

// ---- 1. The glue ---------------------------------------------------------------------------------------
const glue = readFileSync(join(PKG, "tunesmith.js"), "utf8");
const glueGz = gz(glue);
const ast = acorn.parse(glue, { ecmaVersion: "latest", sourceType: "module" });

/** Glue parts: [label, [start, end) ranges]. */
const parts = new Map();
const add = (label, start, end) => {
  if (!parts.has(label)) parts.set(label, []);
  parts.get(label).push([start, end]);
};
/** The object literal of wasm imports: the one with the most `name: function` properties. */
let importsObject = null;
const visit = (node) => {
  if (!node || typeof node.type !== "string") return;
  if (node.type === "ObjectExpression" && node.properties.length > (importsObject?.properties.length ?? 0)) importsObject = node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") visit(value);
  }
};
visit(ast);
const importRanges = new Set();
for (const p of importsObject?.properties ?? []) importRanges.add(p);

const OPERATION = /^client_/;
// The glue is wasm-bindgen's with the two snippets it imports (src/js/imports.js, errors.js) bundled
// in (xtask/src/glue.rs), then minified: terser joins declarations, so each declarator of a `var`
// is a part of its own. Classes keep their names (xtask's glue::CLASS_NAMES); the snippets'
// functions are known by what they call.
const units = ast.body.flatMap((stmt) =>
  stmt.type === "VariableDeclaration" ? stmt.declarations.map((d) => ({ stmt: d, decl: d })) : [{ stmt, decl: stmt.type === "ExportNamedDeclaration" && stmt.declaration ? stmt.declaration : stmt }],
);
const classOf = (decl) =>
  decl.type === "ClassDeclaration" ? [decl.id.name, decl] : decl.type === "VariableDeclarator" && decl.init?.type === "ClassExpression" ? [decl.id.name, decl.init] : null;
for (const { stmt, decl } of units) {
  const klass = classOf(decl);
  if (klass && klass[0] === "Client") {
    const [name, body] = klass;
    for (const m of body.body.body) {
      const text = glue.slice(m.start, m.end);
      // Every Client method but the class's own plumbing calls one export of the module.
      const key = m.key?.name ?? "";
      const callsOperation = m.kind === "method" && !m.computed && !["constructor", "free", "__destroy_into_raw"].includes(key) && /this\.__wbg_ptr/.test(text);
      add(callsOperation ? "Client: one method per operation or waiter" : `class ${name}: constructor, free, other methods`, m.start, m.end);
    }
    add(`class ${name}: constructor, free, other methods`, stmt.start, body.body.start + 1);
    continue;
  }
  if (klass) {
    add("the error classes (errors.js)", stmt.start, stmt.end);
    continue;
  }
  if (decl.type === "FunctionDeclaration" && decl.body.start <= importsObject?.start && importsObject?.end <= decl.body.end) {
    // The imports: each property is a function the module calls.
    for (const p of importsObject.properties) {
      const key = p.key?.name ?? p.key?.value ?? "";
      const label = key.startsWith("__wbindgen") ? "imports: wasm-bindgen intrinsics (closures, externref table)" : "imports: one function per JS API the module calls";
      add(label, p.start, p.end);
    }
    add("imports: the object around them", decl.start, importsObject.start);
    add("imports: the object around them", importsObject.end, decl.end);
    continue;
  }
  const text = glue.slice(stmt.start, stmt.end);
  let label;
  if (stmt.type === "ImportDeclaration") label = "imports of other files (none once bundled)";
  else if (stmt.type === "ExportNamedDeclaration" && !stmt.declaration) label = "the export list";
  else if (/instantiateStreaming|__wbindgen_start|new WebAssembly\.Instance/.test(text)) label = "init: instantiate, initSync, default (loading)";
  else if (/FinalizationRegistry|Symbol\.dispose/.test(text)) label = "finalizers (FinalizationRegistry, Symbol.dispose)";
  else if (/convert__closures|_wbg_cb_unref|destroy_closure/.test(text)) label = "closure adapters";
  else if (/XMLHttpRequest|AbortController|setTimeout|clearTimeout|performance\.now/.test(text)) label = "imports.js: transport (attempt, sleep, timer), watch iterator";
  else if (/FormData|FileReader|toBase64|btoa|arrayBuffer|Blob/.test(text)) label = "imports.js: uploads (blobs, Base64, forms, progress)";
  else if (/WebAssembly\.RuntimeError|RangeError|console\.error|new Map|new Set|\.then\(/.test(text)) label = "imports.js: settling Promises, the trap guard";
  else if (/TextDecoder|TextEncoder|encodeInto|charCodeAt|DataView|Uint8Array|externref|exn_store|__wbindgen_malloc/.test(text)) label = "strings, memory views, externref table";
  else if (decl.type === "FunctionDeclaration" && stmt.type === "ExportNamedDeclaration") label = `export function ${decl.id.name}`;
  else label = "other top-level code (small readers, helpers)";
  add(label, stmt.start, stmt.end);
}

const withoutRanges = (ranges) => {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [s, e] of sorted) {
    out += glue.slice(at, s);
    at = Math.max(at, e);
  }
  return out + glue.slice(at);
};
const glueRows = [...parts].map(([label, ranges]) => ({
  label,
  names: ranges.map(([start]) => glue.slice(start).match(/^[\w$]+/)?.[0]),
  count: ranges.length,
  raw: ranges.reduce((n, [s, e]) => n + e - s, 0),
  saves: glueGz - gz(withoutRanges(ranges)),
}));
glueRows.sort((a, b) => b.raw - a.raw);
const covered = glueRows.reduce((n, r) => n + r.raw, 0);
console.log(`glue pkg/tunesmith.js: ${glue.length} B raw, ${glueGz} B gzipped (${covered} B of it in the parts below)`);
console.log(`  ${pad("part", 62)} ${num("items", 6)} ${num("raw B")} ${num("gzip B saved if removed", 24)}`);
for (const r of glueRows) console.log(`  ${pad(r.label, 62)} ${num(r.count, 6)} ${num(r.raw)} ${num(r.saves, 24)}`);
const operationMethods = glueRows.find((r) => r.label.startsWith("Client: one method"));

if (!NAMED) {
  console.log("TUNESMITH_NAMED_WASM not set: the module's breakdown is skipped");
  process.exit(0);
}

// ---- 2. The module -------------------------------------------------------------------------------------
const wasm = readFileSync(NAMED);
let pos = 8;
const u32 = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = wasm[pos++];
    result += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return result;
    shift += 7;
  }
};
const name = () => {
  const n = u32();
  const s = wasm.subarray(pos, pos + n).toString("utf8");
  pos += n;
  return s;
};
const sections = [];
for (pos = 8; pos < wasm.length; ) {
  const id = wasm[pos++];
  const size = u32();
  const start = pos;
  const custom = id === 0 ? name() : null;
  sections.push({ id, size, start, body: pos, end: start + size, custom });
  pos = start + size;
}
const SECTION_NAMES = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount", "tag"];
const section = (id) => sections.find((s) => s.id === id);

// Imports: how many functions come before the module's own.
let importedFuncs = 0;
const imports = section(2);
if (imports) {
  pos = imports.body;
  for (let n = u32(), i = 0; i < n; i++) {
    name();
    name();
    const kind = wasm[pos++];
    if (kind === 0) {
      u32();
      importedFuncs++;
    } else if (kind === 1) {
      pos++;
      const flags = u32();
      u32();
      if (flags & 1) u32();
    } else if (kind === 2) {
      const flags = u32();
      u32();
      if (flags & 1) u32();
    } else if (kind === 3) pos += 2;
    else if (kind === 4) {
      pos++;
      u32();
    }
  }
}
// Names: functions (subsection 1) and data segments (subsection 9).
const funcNames = new Map();
const dataNames = new Map();
const names = sections.find((s) => s.custom === "name");
if (names) {
  pos = names.body;
  while (pos < names.end) {
    const sub = wasm[pos++];
    const size = u32();
    const end = pos + size;
    if (sub === 1 || sub === 9) {
      for (let n = u32(), i = 0; i < n; i++) {
        const idx = u32();
        (sub === 1 ? funcNames : dataNames).set(idx, name());
      }
    }
    pos = end;
  }
}
// Code: each body with its name.
const bodies = [];
const code = section(10);
pos = code.body;
for (let n = u32(), i = 0; i < n; i++) {
  const size = u32();
  const fname = funcNames.get(importedFuncs + i) ?? `func[${importedFuncs + i}]`;
  bodies.push({ name: fname, start: pos, end: pos + size });
  pos += size;
}
// Data: each active segment's bytes.
const segments = [];
const data = section(11);
if (data) {
  pos = data.body;
  for (let n = u32(), i = 0; i < n; i++) {
    const flags = u32();
    if (flags === 2) u32();
    if (flags !== 1) {
      while (wasm[pos] !== 0x0b) pos++; // the offset expression: i32.const N end
      pos++;
    }
    const size = u32();
    segments.push({ name: dataNames.get(i) ?? `data[${i}]`, bytes: wasm.subarray(pos, pos + size) });
    pos += size;
  }
}

// wasm-bindgen drops `producers` from the shipped module (--remove-producers-section).
const shipped = sections.filter((s) => s.custom !== "name" && s.custom !== "producers");
const shippedBytes = shipped.reduce((n, s) => n + (s.end - s.start) + 1 + 5, 0);
console.log(`\nmodule ${NAMED}: ${wasm.length} B with names, about ${shippedBytes} B without (as shipped)`);
console.log(`  ${pad("section", 30)} ${num("raw B")} ${num("gzip alone", 11)}`);
for (const s of shipped) {
  const label = s.custom === null ? SECTION_NAMES[s.id] ?? `id ${s.id}` : `custom "${s.custom}"`;
  console.log(`  ${pad(label, 30)} ${num(s.size)} ${num(gz(wasm.subarray(s.start, s.end)), 11)}`);
}

/** `tunesmith::call::Inner::execute_via::{{closure}}::h…` → `tunesmith::call`. */
const moduleOf = (fname) => {
  const clean = fname.replace(/\[[0-9a-f]+\]/g, "").replace(/^<(.*?)( as .*)?>::/, "$1::");
  if (/shim|^func\[/.test(fname) && !clean.includes("::")) return "(wasm-bindgen export shims)";
  const path = clean.split("::").filter((p) => !/^h[0-9a-f]{16}$/.test(p) && !p.startsWith("{{"));
  const depth = ["core", "alloc", "std"].includes(path[0]) ? 2 : path[0]?.startsWith("tunesmith") ? 2 : 1;
  return path.slice(0, depth).join("::").replace(/<.*$/, "") || fname;
};
const groups = new Map();
for (const b of bodies) {
  const m = moduleOf(b.name);
  if (!groups.has(m)) groups.set(m, []);
  groups.get(m).push(b);
}
const codeRows = [...groups].map(([m, list]) => ({
  m,
  count: list.length,
  raw: list.reduce((n, b) => n + b.end - b.start, 0),
  gzip: gz(Buffer.concat(list.map((b) => wasm.subarray(b.start, b.end)))),
}));
codeRows.sort((a, b) => b.raw - a.raw);
const codeRaw = codeRows.reduce((n, r) => n + r.raw, 0);
console.log(`\ncode by Rust module (${bodies.length} functions, ${codeRaw} B of bodies; "gzip alone" compresses the group by itself)`);
console.log(`  ${pad("module", 46)} ${num("fns", 5)} ${num("raw B")} ${num("share", 7)} ${num("gzip alone", 11)}`);
for (const r of codeRows.slice(0, 30)) {
  console.log(`  ${pad(r.m, 46)} ${num(r.count, 5)} ${num(r.raw)} ${num(((r.raw * 100) / codeRaw).toFixed(1) + "%", 7)} ${num(r.gzip, 11)}`);
}
if (codeRows.length > 30) {
  const rest = codeRows.slice(30);
  console.log(`  ${pad(`... ${rest.length} more modules`, 46)} ${num(rest.reduce((n, r) => n + r.count, 0), 5)} ${num(rest.reduce((n, r) => n + r.raw, 0))}`);
}

// Data: runs of printable text (messages, advice, names) against the rest (tables, pointers).
const allData = Buffer.concat(segments.map((s) => s.bytes));
const text = [];
const other = [];
let run = [];
const flush = () => {
  if (run.length >= 6) text.push(Buffer.from(run));
  else other.push(Buffer.from(run));
  run = [];
};
for (const b of allData) {
  if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b >= 0xc2) run.push(b);
  else {
    flush();
    other.push(Buffer.from([b]));
  }
}
flush();
const textBytes = Buffer.concat(text);
const otherBytes = Buffer.concat(other);
const sentences = text.filter((t) => / \S+ \S+ /.test(t.toString("latin1")));
const sentenceBytes = Buffer.concat(sentences);
console.log(`\ndata: ${allData.length} B in ${segments.length} segment(s), ${gz(allData)} B gzip alone`);
console.log(`  text runs of 6+ printable bytes     ${num(textBytes.length)} B raw ${num(gz(textBytes))} B gzip alone (${text.length} runs)`);
console.log(`    of which sentences (messages, advice) ${num(sentenceBytes.length)} B raw ${num(gz(sentenceBytes))} B gzip alone (${sentences.length} runs)`);
console.log(`  the rest (tables, pointers, numbers) ${num(otherBytes.length)} B raw ${num(gz(otherBytes))} B gzip alone`);

// ---- 3. Estimates --------------------------------------------------------------------------------------
const codeSection = section(10);
const codeRatio = gz(wasm.subarray(codeSection.start, codeSection.end)) / codeSection.size;
const group = (re) => codeRows.filter((r) => re.test(r.m)).reduce((n, r) => n + r.raw, 0);
const fnBytes = (re) => bodies.filter((b) => re.test(b.name)).reduce((n, b) => n + b.end - b.start, 0);
const exportsSection = section(7);
let operationExportNames = 0;
let operationExports = 0;
pos = exportsSection.body;
for (let n = u32(), i = 0; i < n; i++) {
  const e = name();
  pos++;
  u32();
  if (OPERATION.test(e) && !/^client_(new|watchTask)$/.test(e)) {
    operationExports++;
    operationExportNames += e.length + 3;
  }
}
const exportGz = gz(wasm.subarray(exportsSection.start, exportsSection.end));
const OPERATION_SHIM = /^client_(?!new|watchTask)\w+ externref shim/;
const shimBytes = fnBytes(OPERATION_SHIM);
const methodNames = operationMethods?.names ?? [];
const namesTable = gz(JSON.stringify(methodNames));
const entry = Math.round((exportGz * operationExportNames) / exportsSection.size + shimBytes * codeRatio + (operationMethods?.saves ?? 0) - namesTable);
const fmtCode = group(/^(core::fmt|alloc::fmt)/);
const estimates = [
  [
    "one exported call entry + the named methods in generated JS",
    entry,
    `${operationExports} exports (${operationExportNames} B of names and entries), their ${shimBytes} B of shims, and the glue's ${operationMethods?.count ?? 0} methods (${operationMethods?.saves ?? 0} B gzip), less a table of the ${methodNames.length} names (${namesTable} B gzip)`,
  ],
  [
    "messages and advice text in JS rather than in the module",
    Math.round(fmtCode * codeRatio),
    `moves ${gz(sentenceBytes)} B (gzip alone) of sentences from the module to JS, where they cost about as much: the saving is the formatting code around them (core::fmt + alloc::fmt: ${fmtCode} B raw), and only if no other formatting keeps it`,
  ],
  [
    "the rules table as compact data",
    Math.round(gz(otherBytes) / 2),
    `half of the non-text data (${gz(otherBytes)} B gzip alone: the endpoint and field tables, each name a pointer + length), plus part of the table walkers (tunesmith_protocol::rules + endpoints: ${group(/^tunesmith_protocol::(rules|endpoints)/)} B raw code) if they read a compact form`,
  ],
  [
    "dead normalizers",
    Math.round(group(/^tunesmith::normalize/) * codeRatio),
    `upper bound: all of tunesmith::normalize (${group(/^tunesmith::normalize/)} B raw code); only the normalizers that change nothing are dead`,
  ],
];
console.log(`\nestimates of the size directions, gzipped (code compresses ${codeRatio.toFixed(2)}x here):`);
for (const [label, bytes, why] of estimates) console.log(`  ~${num(bytes, 6)} B  ${label}\n             ${why}`);
