// Hostile JS values: what a careless or malicious caller can hand a library. Each is built fresh
// (a revoked Proxy cannot be reused) by `hostile(kind, base, r)`, around `base`, a valid value of
// the slot, so that only the hostility differs from a call that would work.

export class Hostile extends Error {}
const boom = () => {
  throw new Hostile("hostile: thrown from inside a value");
};
const boomOdd = (r) => {
  const thrown = r.pick(["a string", undefined, null, 42, Symbol("thrown"), { message: "not an Error" }]);
  return () => {
    throw thrown;
  };
};

const MB = "m".repeat(1 << 20);
let big;
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "set", "defineProperty", "deleteProperty", "isExtensible", "preventExtensions"];

function copy(base) {
  if (base && typeof base === "object" && !Array.isArray(base)) return { ...base };
  return base;
}

function objectBase(base) {
  return base && typeof base === "object" ? base : { value: base };
}

/** Every hostile kind, with a weight (huge strings are costly: rare). */
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
  "null-prototype": 2,
  "sparse-array": 2,
  exotic: 4,
  primitive: 4,
  "inherited-fields": 2,
  "deep-nesting": 2,
};
const WEIGHTED = Object.entries(KINDS).flatMap(([k, w]) => Array(w).fill(k));
export const pickKind = (r) => r.pick(WEIGHTED);

/** A fresh hostile value of `kind` around `base`. `reenter` calls back into the package. */
export function hostile(kind, base, r, reenter = () => {}) {
  switch (kind) {
    case "getter-one": {
      const o = copy(objectBase(base));
      const keys = Object.keys(o);
      const key = keys.length && r.chance(0.8) ? r.pick(keys) : r.pick(["taskId", "data", "code", "callBackUrl", "then", "toJSON", "constructor"]);
      Object.defineProperty(o, key, { get: boom, enumerable: true, configurable: true });
      return o;
    }
    case "getter-all": {
      const o = {};
      for (const key of Object.keys(objectBase(base))) Object.defineProperty(o, key, { get: boom, enumerable: true });
      return o;
    }
    case "getter-odd-throw": {
      const o = copy(objectBase(base));
      const key = r.pick(Object.keys(o).length ? Object.keys(o) : ["x"]);
      Object.defineProperty(o, key, { get: boomOdd(r), enumerable: true });
      return o;
    }
    case "getter-reentrant": {
      const o = copy(objectBase(base));
      const key = r.pick(Object.keys(o).length ? Object.keys(o) : ["x"]);
      const v = o[key];
      Object.defineProperty(o, key, {
        get() {
          reenter();
          return v;
        },
        enumerable: true,
      });
      return o;
    }
    case "getter-changing": {
      const o = copy(objectBase(base));
      const key = r.pick(Object.keys(o).length ? Object.keys(o) : ["x"]);
      const v = o[key];
      let n = 0;
      Object.defineProperty(o, key, {
        get: () => (n++ === 0 ? v : r.pick([undefined, null, 5, {}, Symbol("late")])),
        enumerable: true,
      });
      return o;
    }
    case "proxy-trap": {
      const trap = r.pick(TRAPS);
      return new Proxy(copy(objectBase(base)), { [trap]: r.chance(0.7) ? boom : boomOdd(r) });
    }
    case "proxy-all-traps":
      return new Proxy(copy(objectBase(base)), Object.fromEntries(TRAPS.map((t) => [t, boom])));
    case "revoked-proxy": {
      const { proxy, revoke } = Proxy.revocable(copy(objectBase(base)), {});
      revoke();
      return proxy;
    }
    case "revoked-function": {
      const { proxy, revoke } = Proxy.revocable(function () {}, {});
      revoke();
      return proxy;
    }
    case "cyclic": {
      const o = copy(objectBase(base));
      const key = r.chance(0.5) && Object.keys(o).length ? r.pick(Object.keys(o)) : "self";
      o[key] = r.chance(0.5) ? o : [o, [o]];
      return o;
    }
    case "symbol":
      return r.pick([Symbol("hostile"), Symbol.iterator, Symbol.for("x")]);
    case "bigint":
      return r.pick([0n, 1n, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 1000n]);
    case "function":
      return r.pick([() => base, async () => base, class {}, function* () {}, Math.max, Object.assign(() => 1, copy(objectBase(base)))]);
    case "throwing-function": {
      const fn = () => boom();
      fn.toString = boom;
      fn[Symbol.toPrimitive] = boom;
      return fn;
    }
    case "frozen":
      return Object.freeze(copy(base));
    case "frozen-hostile": {
      const o = copy(objectBase(base));
      const key = r.pick(Object.keys(o).length ? Object.keys(o) : ["x"]);
      Object.defineProperty(o, key, { get: boom, enumerable: true });
      return Object.freeze(o);
    }
    case "huge-string":
      if (r.chance(0.05)) return (big ??= MB.repeat(16));
      return MB;
    case "lone-surrogates":
      return r.pick(["\ud800", "a\udfffb", "\ud83d".repeat(10_000), "\u0000", "\u202e\u2066"]);
    case "to-primitive-throws": {
      const o = { [Symbol.toPrimitive]: boom, toString: boom, valueOf: boom };
      return r.chance(0.5) ? o : Object.assign(copy(objectBase(base)), o);
    }
    case "to-json-throws":
      return Object.assign(copy(objectBase(base)), { toJSON: boom });
    case "null-prototype":
      return Object.assign(Object.create(null), objectBase(base));
    case "sparse-array": {
      const a = [];
      a.length = r.pick([2 ** 32 - 1, 1e6, 5]);
      return a;
    }
    case "exotic":
      return r.pick([
        new Date(NaN),
        /re/g,
        new Map([["taskId", "x"]]),
        new Set([1]),
        Promise.reject(new Hostile("rejected promise")).catch(() => {}) && Promise.reject(new Hostile("hostile promise")),
        new WeakRef({}),
        new ArrayBuffer(8),
        new DataView(new ArrayBuffer(4)),
        new Error("an error"),
        globalThis,
        AbortSignal.abort(),
        new Proxy(AbortSignal.abort(), { get: boom }),
        Object.create(AbortSignal.prototype),
        new Uint8Array(0),
        new Float64Array([NaN]),
        new Blob([]),
        arguments0(),
      ]);
    case "primitive":
      return r.pick([null, undefined, NaN, -0, Infinity, -Infinity, 1e308, -1e308, 2 ** 53 + 1, "", " ", true, false, 0.1]);
    case "inherited-fields":
      return Object.create(copy(objectBase(base)));
    case "deep-nesting": {
      let v = copy(base);
      for (let i = 0; i < 100_000; i++) v = { data: v };
      return v;
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

function arguments0() {
  return (function () {
    return arguments;
  })(1, 2);
}
