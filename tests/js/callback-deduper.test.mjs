// CallbackDeduper (api.js) over the module's callback keys: a repeat is not new, raw bodies and
// their JSON text count as their parsed event, `forget`, the LRU bound, and typed errors for bad
// options, bad events and a method called on another value. Real deliveries of the emulator go
// through it in callback-receiver.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";

const { CallbackDeduper, parseCallback, TunesmithError, ValidationError } = await import(
  process.env.TUNESMITH_PKG + "/node.js"
);

/** A music callback body as the service sends it, for task `id` at `stage`. */
const body = (id, stage) => ({
  code: 200,
  msg: stage === "complete" ? "All generated successfully." : "Text generation completed.",
  data: { callbackType: stage, task_id: id, data: [] },
});

test("a repeated delivery is not new; its raw body and JSON text count as the parsed event", () => {
  const seen = new CallbackDeduper();
  assert.equal(seen.isNew(parseCallback(body("t1", "text"))), true);
  assert.equal(seen.isNew(parseCallback(body("t1", "text"))), false, "the same stage again");
  assert.equal(seen.isNew(body("t1", "text")), false, "the raw body of that stage");
  assert.equal(seen.isNew(JSON.stringify(body("t1", "text"))), false, "its JSON text");
  assert.equal(seen.isNew(Buffer.from(JSON.stringify(body("t1", "text")))), false, "its bytes");
  assert.equal(seen.isNew(body("t1", "complete")), true, "another stage of the task");
  assert.equal(seen.isNew(body("t2", "text")), true, "the stage of another task");
  assert.equal(seen.size, 3);
});

test("forget makes a stage new again; free forgets every stage", () => {
  const seen = new CallbackDeduper();
  assert.equal(seen.isNew(body("f1", "text")), true);
  assert.equal(seen.forget(body("f1", "text")), true);
  assert.equal(seen.forget(body("f1", "text")), false, "nothing left to forget");
  assert.equal(seen.size, 0);
  assert.equal(seen.isNew(body("f1", "text")), true);
  assert.equal(seen.isNew(body("f2", "text")), true);
  seen.free();
  assert.equal(seen.size, 0);
  assert.equal(seen.isNew(body("f1", "text")), true, "usable again after free");
});

test("maxEntries bounds it: the least recently seen key goes first, and a repeat counts as use", () => {
  const seen = new CallbackDeduper({ maxEntries: 2 });
  assert.equal(seen.isNew(body("a", "text")), true);
  assert.equal(seen.isNew(body("b", "text")), true);
  assert.equal(seen.isNew(body("a", "text")), false, "a repeat moves `a` to the back");
  assert.equal(seen.isNew(body("c", "text")), true, "`b`, the oldest, goes");
  assert.equal(seen.size, 2);
  assert.equal(seen.isNew(body("a", "text")), false, "`a` was kept");
  assert.equal(seen.isNew(body("b", "text")), true, "`b` was forgotten");
  const big = new CallbackDeduper({ maxEntries: 10_000_000 });
  for (let i = 0; i < 100; i++) big.isNew(body(`t${i}`, "text"));
  assert.equal(big.size, 100);
});

test("bad options are ValidationErrors naming the field; absent ones take the default", () => {
  for (const maxEntries of [0, -1, 1.5, 10_000_001, "10", NaN, Infinity, {}, true]) {
    assert.throws(
      () => new CallbackDeduper({ maxEntries }),
      (e) => e instanceof ValidationError && e.field === "maxEntries" && e.rule === "range",
      String(maxEntries),
    );
  }
  const hostile = [
    { get maxEntries() { throw new Error("getter boom"); } },
    new Proxy({}, { get() { throw new Error("trap boom"); } }),
    (() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })(),
  ];
  for (const options of hostile) {
    assert.throws(() => new CallbackDeduper(options), (e) => e instanceof ValidationError && e.field === "options");
  }
  for (const options of [undefined, null, {}, { maxEntries: undefined }, { maxEntries: null }, 5, "x"]) {
    assert.equal(new CallbackDeduper(options).size, 0, String(options));
  }
});

test("an event that is no callback is a ValidationError, and nothing is remembered", () => {
  const seen = new CallbackDeduper();
  for (const event of [{ hello: "world" }, "{not json", undefined, null, 42, [1, 2]]) {
    assert.throws(() => seen.isNew(event), ValidationError, String(event));
    assert.throws(() => seen.forget(event), ValidationError, String(event));
  }
  assert.equal(seen.size, 0);
});

test("a method called on another value is a typed error, not a TypeError", () => {
  const { isNew, forget } = CallbackDeduper.prototype;
  const size = Object.getOwnPropertyDescriptor(CallbackDeduper.prototype, "size").get;
  for (const self of [undefined, null, {}, 5, new Proxy({}, {})]) {
    for (const call of [() => isNew.call(self, body("x", "text")), () => forget.call(self, body("x", "text")), () => size.call(self)]) {
      assert.throws(call, (e) => e instanceof TunesmithError && e.kind === "configuration" && /CallbackDeduper/.test(e.message));
    }
  }
});
