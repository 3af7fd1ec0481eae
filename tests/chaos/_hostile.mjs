// Hostile JS values: what a careless or malicious caller can hand a library. Each is built fresh
// (a revoked Proxy cannot be reused) by `hostile(kind, base, r, reenter, variant)`, around `base`,
// a valid value of the slot, so that only the hostility differs from a call that would work. A kind
// has variants (its top-level forms); `variant` picks one, or `r` does when it is left out.

export class Hostile extends Error {}
const boom = () => {
  throw new Hostile("hostile: thrown from inside a value");
};
const boomOdd = (r) => {
  const thrown = r.pick(["a string", undefined, null, 42, Symbol("thrown"), { message: "not an Error" }, "x".repeat(1 << 20)]);
  return () => {
    throw thrown;
  };
};

const MB = "m".repeat(1 << 20);
let big;
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "set", "defineProperty", "deleteProperty", "isExtensible", "preventExtensions"];

// A fresh copy of the slot's valid value, so that a hostile kind (freezing it, defining getters on
// it) never changes the value other cases start from.
function copy(base) {
  if (Array.isArray(base)) return [...base];
  if (base && typeof base === "object") return { ...base };
  return base;
}

function objectBase(base) {
  return base && typeof base === "object" ? base : { value: base };
}

const keyOf = (o, r) => r.pick(Object.keys(o).length ? Object.keys(o) : ["x"]);

function arguments0() {
  return (function () {
    return arguments;
  })(1, 2);
}

/** Every kind: its variants, each `(base, r, reenter) => value`. */
const BUILDERS = {
  "getter-one": [
    (base, r) => {
      const o = copy(objectBase(base));
      const keys = Object.keys(o);
      const key = keys.length && r.chance(0.8) ? r.pick(keys) : r.pick(["taskId", "data", "code", "callBackUrl", "then", "toJSON", "constructor"]);
      Object.defineProperty(o, key, { get: boom, enumerable: true, configurable: true });
      return o;
    },
  ],
  "getter-all": [
    (base) => {
      const o = {};
      for (const key of Object.keys(objectBase(base))) Object.defineProperty(o, key, { get: boom, enumerable: true });
      return o;
    },
  ],
  "getter-odd-throw": [
    (base, r) => {
      const o = copy(objectBase(base));
      Object.defineProperty(o, keyOf(o, r), { get: boomOdd(r), enumerable: true });
      return o;
    },
  ],
  "getter-reentrant": [
    (base, r, reenter) => {
      const o = copy(objectBase(base));
      const key = keyOf(o, r);
      const v = o[key];
      Object.defineProperty(o, key, {
        get() {
          reenter();
          return v;
        },
        enumerable: true,
      });
      return o;
    },
  ],
  "getter-changing": [
    (base, r) => {
      const o = copy(objectBase(base));
      const key = keyOf(o, r);
      const v = o[key];
      let n = 0;
      Object.defineProperty(o, key, {
        get: () => (n++ === 0 ? v : r.pick([undefined, null, 5, {}, Symbol("late"), [, , "x"]])),
        enumerable: true,
      });
      return o;
    },
  ],
  "proxy-trap": TRAPS.map((trap) => (base, r) => new Proxy(copy(objectBase(base)), { [trap]: r.chance(0.7) ? boom : boomOdd(r) })),
  "proxy-all-traps": [(base) => new Proxy(copy(objectBase(base)), Object.fromEntries(TRAPS.map((t) => [t, boom])))],
  "revoked-proxy": [
    (base) => {
      const { proxy, revoke } = Proxy.revocable(copy(objectBase(base)), {});
      revoke();
      return proxy;
    },
    () => {
      const { proxy, revoke } = Proxy.revocable([], {});
      revoke();
      return proxy;
    },
  ],
  "revoked-function": [
    () => {
      const { proxy, revoke } = Proxy.revocable(function () {}, {});
      revoke();
      return proxy;
    },
  ],
  cyclic: [
    (base, r) => {
      const o = copy(objectBase(base));
      const key = r.chance(0.5) && Object.keys(o).length ? r.pick(Object.keys(o)) : "self";
      o[key] = o;
      return o;
    },
    (base, r) => {
      const o = copy(objectBase(base));
      o[keyOf(o, r)] = [o, [o]];
      return o;
    },
  ],
  symbol: [() => Symbol("hostile"), () => Symbol.iterator, () => Symbol.for("x")],
  bigint: [0n, 1n, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 1000n].map((n) => () => n),
  function: [
    (base) => () => base,
    (base) => async () => base,
    () => class {},
    () => function* () {},
    () => Math.max,
    // A function carrying the base's fields (`name` and `length` included, which plain assignment
    // cannot set on a function).
    (base) => {
      const f = () => 1;
      for (const [k, v] of Object.entries(objectBase(base))) Object.defineProperty(f, k, { value: v, enumerable: true, configurable: true });
      return f;
    },
  ],
  "throwing-function": [
    () => {
      const fn = () => boom();
      fn.toString = boom;
      fn[Symbol.toPrimitive] = boom;
      return fn;
    },
  ],
  frozen: [(base) => Object.freeze(copy(base))],
  "frozen-hostile": [
    (base, r) => {
      const o = copy(objectBase(base));
      Object.defineProperty(o, keyOf(o, r), { get: boom, enumerable: true });
      return Object.freeze(o);
    },
  ],
  "huge-string": [() => MB, () => (big ??= MB.repeat(16))],
  "lone-surrogates": ["\ud800", "a\udfffb", "\ud83d".repeat(10_000), "\u0000", "\u202e\u2066"].map((s) => () => s),
  "to-primitive-throws": [
    () => ({ [Symbol.toPrimitive]: boom, toString: boom, valueOf: boom }),
    (base) => Object.assign(copy(objectBase(base)), { [Symbol.toPrimitive]: boom, toString: boom, valueOf: boom }),
  ],
  "to-json-throws": [(base) => Object.assign(copy(objectBase(base)), { toJSON: boom })],
  // `toJSON` that answers what JSON has no form for: `JSON.stringify` then returns `undefined`.
  "to-json-odd": [undefined, () => 1, Symbol("json"), 10n, "x".repeat(1 << 20)].map((answer) => (base) =>
    Object.assign(copy(objectBase(base)), { toJSON: () => answer }),
  ),
  "null-prototype": [(base) => Object.assign(Object.create(null), objectBase(base))],
  // Arrays with holes: the slot's own value after two (`[ , , value]`), a million of them.
  "sparse-array": [
    () => [, , "x"],
    (base) => [, , base],
    (base) => Object.assign([base], { length: 5 }),
    () => Object.assign([], { length: 1e6 }),
  ],
  // The longest length an array can have (2^32 - 1), empty or with one item at the end: a reader
  // that trusts `length` allocates for four billion items.
  "huge-array": [
    () => Object.assign([], { length: 2 ** 32 - 1 }),
    (base) => {
      const a = [];
      a[2 ** 32 - 2] = base;
      return a;
    },
  ],
  // Arrays that run code when read: a Proxy whose traps throw, an index with a throwing getter, a
  // `length` that lies.
  "hostile-array": [
    (base) => new Proxy([base, base], { get: boom }),
    (base) =>
      new Proxy([base], {
        get: (t, k) => {
          if (k === "length") throw new Hostile("hostile: length");
          return t[k];
        },
      }),
    (base) => {
      const a = [base, base];
      Object.defineProperty(a, 1, { get: boom, enumerable: true });
      return a;
    },
    (base) => new Proxy([base], { get: (t, k) => (k === "length" ? 2 ** 32 - 1 : t[k]) }),
    (base) => new Proxy([base], { get: (t, k) => (k === "length" ? { valueOf: boom } : t[k]) }),
  ],
  exotic: [
    () => new Date(NaN),
    () => /re/g,
    () => new Map([["taskId", "x"]]),
    () => new Set([1]),
    () => Promise.reject(new Hostile("rejected promise")).catch(() => {}) && Promise.reject(new Hostile("hostile promise")),
    () => new WeakRef({}),
    () => new ArrayBuffer(8),
    () => new DataView(new ArrayBuffer(4)),
    () => new Error("an error"),
    () => globalThis,
    () => AbortSignal.abort(),
    () => new Proxy(AbortSignal.abort(), { get: boom }),
    () => Object.create(AbortSignal.prototype),
    () => Object.defineProperty(new AbortController().signal, "aborted", { get: boom }),
    () => ({ aborted: false, addEventListener: boom }),
    () => new Uint8Array(0),
    () => new Float64Array([NaN]),
    () => new Blob([]),
    () => new Proxy(new Blob(["x"]), { get: (t, k) => (k === "size" ? 1 : boom()) }),
    () => Object.defineProperty(new Blob(["x"]), "type", { get: boom }),
    arguments0,
  ],
  primitive: [null, undefined, NaN, -0, Infinity, -Infinity, 1e308, -1e308, 2 ** 53 + 1, "", " ", true, false, 0.1].map((v) => () => v),
  "inherited-fields": [(base) => Object.create(copy(objectBase(base)))],
  "deep-nesting": [
    (base) => {
      let v = copy(base);
      for (let i = 0; i < 100_000; i++) v = { data: v };
      return v;
    },
  ],
};

/** Every hostile kind, with a weight for random runs (huge strings are costly: rare). */
export const KINDS = {
  "getter-one": 6,
  "getter-all": 4,
  "getter-odd-throw": 3,
  "getter-reentrant": 2,
  "getter-changing": 2,
  "proxy-trap": 8,
  "proxy-all-traps": 3,
  "revoked-proxy": 5,
  "revoked-function": 2,
  cyclic: 4,
  symbol: 3,
  bigint: 3,
  function: 3,
  "throwing-function": 2,
  frozen: 3,
  "frozen-hostile": 2,
  "huge-string": 1,
  "lone-surrogates": 2,
  "to-primitive-throws": 3,
  "to-json-throws": 2,
  "to-json-odd": 2,
  "null-prototype": 2,
  "sparse-array": 3,
  "huge-array": 2,
  "hostile-array": 3,
  exotic: 4,
  primitive: 4,
  "inherited-fields": 2,
  "deep-nesting": 2,
};
const WEIGHTED = Object.entries(KINDS).flatMap(([k, w]) => Array(w).fill(k));
export const pickKind = (r) => r.pick(WEIGHTED);

/** How many variants `kind` has. */
export const variants = (kind) => BUILDERS[kind].length;

/** A fresh hostile value of `kind` around `base`. `reenter` calls back into the package. */
export function hostile(kind, base, r, reenter = () => {}, variant = undefined) {
  const builders = BUILDERS[kind];
  if (!builders) throw new Error(`unknown kind ${kind}`);
  const build = variant === undefined ? r.pick(builders) : builders[variant % builders.length];
  return build(base, r, reenter);
}
