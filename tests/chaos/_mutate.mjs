// Mutations of real service answers (and callback bodies): what a broken service, proxy or network
// could hand the client. Each is a pure function of a PRNG, so a case can be replayed by its seed.

const HUGE = "x".repeat(200_000);
const WRONG = [null, "", "x", "null", 0, -1, 1.5, -0.0, true, false, [], {}, [null], { a: 1 }, [[[]]], "200", " 1 "];
const NUMBERS = [
  1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 64, 1e-320, -1, -200, 0, 4294967296, 0.5, 199.999,
];
const NAN_ISH = ["NaN", "Infinity", "-Infinity", "-0", "1e999", "0x10", "１２", "5", "", " ", "\u0000", "true"];
/** Raw JSON number literals that JSON.stringify cannot write. */
const RAW_NUMBERS = ["1e999", "-1e999", "1E400", "-0", "0.0000000000000000000000001", "123456789012345678901234567890", "1.7976931348623157e309"];

/** Every [holder, key] of the JSON tree held by `box.root`. */
function slots(box) {
  const out = [];
  const walk = (holder, key, depth) => {
    out.push([holder, key]);
    const v = holder[key];
    if (depth < 12 && v && typeof v === "object") {
      for (const k of Object.keys(v)) walk(v, k, depth + 1);
    }
  };
  walk(box, "root", 0);
  return out;
}

function nest(depth, leaf, r) {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = r.chance(0.5) ? [v] : { data: v };
  return v;
}

function renamed(key, r) {
  const s = String(key);
  const options = [
    s.toUpperCase(),
    s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    s.replace(/_([a-z])/g, (_, c) => c.toUpperCase()),
    `${s}_`,
    ` ${s}`,
    s.slice(1),
    "__proto__",
    "constructor",
    s + "\u0000",
  ];
  return r.pick(options);
}

/** One mutation of a parsed JSON tree (in place on `box.root`); returns a label. */
function mutateTree(box, list, r) {
  const [holder, key] = r.pick(list);
  const isArray = Array.isArray(holder);
  const kind = r.int(10);
  switch (kind) {
    case 0:
      if (holder === box) holder[key] = null;
      else if (isArray) holder.splice(Number(key), 1);
      else delete holder[key];
      return "drop";
    case 1: {
      if (holder === box || isArray) {
        holder[key] = r.pick(WRONG);
        return "wrong-type";
      }
      const v = holder[key];
      delete holder[key];
      Object.defineProperty(holder, renamed(key, r), { value: v, enumerable: true, writable: true, configurable: true });
      return "rename";
    }
    case 2:
      holder[key] = null;
      return "null";
    case 3:
      holder[key] = r.pick(WRONG);
      return "wrong-type";
    case 4:
      holder[key] = r.pick(NUMBERS);
      return "number";
    case 5:
      holder[key] = r.pick(NAN_ISH);
      return "nan-ish";
    case 6:
      holder[key] = r.chance(0.5) ? HUGE : HUGE.slice(0, 5000) + "\ud800";
      return "huge-string";
    case 7:
      holder[key] = nest(r.pick([50, 500, 5000]), holder[key], r);
      return "deep";
    case 8: {
      const [h2, k2] = r.pick(list);
      if (h2 !== holder || k2 !== key) holder[key] = structuredCloneSafe(h2[k2]);
      return "swap";
    }
    default:
      if (holder[key] && typeof holder[key] === "object" && !Array.isArray(holder[key])) {
        holder[key] = Object.values(holder[key]);
        return "object-to-array";
      }
      holder[key] = r.chance(0.5) ? [holder[key]] : { value: holder[key] };
      return "wrap";
  }
}

function structuredCloneSafe(v) {
  try {
    return JSON.parse(JSON.stringify(v ?? null));
  } catch {
    return null;
  }
}

const NON_JSON = [
  "",
  " ",
  "<html><body>502 Bad Gateway</body></html>",
  "null",
  "[]",
  "true",
  "0",
  '"ok"',
  "\u0000\u0001\u0002",
  "\ufeff{}",
  "{",
  "}",
  "Internal Server Error",
  "{'code':200}",
  "{\"code\":200,\"data\":",
  "NaN",
  "undefined",
  "[".repeat(100_000) + "]".repeat(100_000),
  '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000),
];

/** A mutated body text from a real one. Returns `{ text, label }`. */
export function mutateText(text, r) {
  const choice = r.int(100);
  if (choice < 55) {
    let tree;
    try {
      tree = JSON.parse(text);
    } catch {
      return { text: text + "}", label: "garbage" };
    }
    const box = { root: tree };
    const labels = [];
    const n = 1 + r.int(3);
    for (let i = 0; i < n; i++) labels.push(mutateTree(box, slots(box), r));
    let out = JSON.stringify(box.root) ?? "null";
    return { text: out, label: labels.join("+") };
  }
  if (choice < 65) {
    // A number literal JSON.stringify cannot write, in place of a real number.
    const nums = [...text.matchAll(/(?<=[:\[,])-?\d+(\.\d+)?([eE][+-]?\d+)?/g)];
    if (nums.length) {
      const m = r.pick(nums);
      return { text: text.slice(0, m.index) + r.pick(RAW_NUMBERS) + text.slice(m.index + m[0].length), label: "raw-number" };
    }
    return { text: text.replace(/:/, ":1e999,\"x\":"), label: "raw-number" };
  }
  if (choice < 78) return { text: text.slice(0, r.int(text.length + 1)), label: "truncated" };
  if (choice < 84) {
    // Duplicate keys: the later one wins in JSON.parse.
    const m = text.match(/^\{"(\w+)":/);
    return { text: m ? text.replace(/^\{/, `{"${m[1]}":${JSON.stringify(r.pick(WRONG))},`) : text, label: "duplicate-key" };
  }
  if (choice < 92) return { text: r.pick(NON_JSON), label: "non-json" };
  if (choice < 96) return { text: "\ufeff" + text, label: "bom" };
  return { text: Buffer.from(text).toString("latin1") + "\ud83d", label: "encoding" };
}

/** A mutated JSON value (callback bodies): the parsed tree with 1 to 3 mutations. */
export function mutateValue(value, r) {
  const box = { root: structuredCloneSafe(value) };
  const labels = [];
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) labels.push(mutateTree(box, slots(box), r));
  return { value: box.root, label: labels.join("+") };
}

const STATUSES = [200, 200, 200, 201, 202, 204, 206, 301, 302, 304, 400, 401, 402, 403, 404, 405, 408, 409, 413, 422, 429, 430, 455, 500, 501, 502, 503, 504, 520, 599];
const ODD_STATUSES = [0, 100, 101, 199, 600, 999, 1000, 65535, -1, 2 ** 32 + 200];
const HEADER_VALUES = ["-1", "0", "1e309", "NaN", "abc", "Wed, 21 Oct 2015 07:28:00 GMT", "Thu, 01 Jan 2099 00:00:00 GMT", "99999999999999999999", "0.001", " 3 ", "", "1,2", "\u00ff\u00fe", "x".repeat(10_000)];

/**
 * A mutated answer from a real one: `{ status, headers, text, label, plain }` where `plain` asks for a
 * Response-like object (statuses the Response constructor refuses).
 */
export function mutateAnswer(answer, r) {
  const labels = [];
  let status = answer.status;
  let headers = { ...answer.headers };
  let text = answer.text;
  const what = r.int(100);
  if (what < 70 || what >= 90) {
    const m = mutateText(text, r);
    text = m.text;
    labels.push(m.label);
  }
  if (what >= 70 && what < 95) {
    if (r.chance(0.7)) status = r.pick(STATUSES);
    else status = r.pick(ODD_STATUSES);
    labels.push(`status-${status}`);
  }
  if (r.chance(0.2)) {
    const name = r.pick(["retry-after", "retry-after-ms", "x-request-id", "content-type", "content-length"]);
    headers[name] = r.pick(HEADER_VALUES);
    labels.push(`header-${name}`);
  }
  if (r.chance(0.05)) {
    headers = {};
    labels.push("no-headers");
  }
  const plain = !(status >= 200 && status <= 599) || status === 204 || status === 205 || status === 304 || r.chance(0.3);
  return { status, headers, text, label: labels.join(","), plain };
}

/** Failures of the transport itself, instead of an answer: what a dropped connection looks like. */
export const TRANSPORT = [
  "reject-typeerror",
  "reject-string",
  "reject-undefined",
  "throw-sync",
  "text-rejects",
  "text-hangs",
  "fetch-hangs",
  "text-not-string",
];
