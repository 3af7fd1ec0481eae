// The package's Client has a method for every operation the package declares (operations.generated.js),
// and each reaches its own operation in the module: the operations that take a request are defined in
// JavaScript over the module's one entry, so a name list out of step with the module would show here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PKG = process.env.TUNESMITH_PKG ?? join(ROOT, "pkg");
const pkg = await import(pathToFileURL(join(PKG, "node.js")).href);
const { OPERATIONS } = await import(pathToFileURL(join(PKG, "operations.generated.js")).href);

/** Nothing may reach the network: each call here is refused by validation first. */
const noNetwork = () => Promise.reject(new Error("a request was sent"));
const client = () => new pkg.Client({ apiKey: "k", baseUrl: "http://127.0.0.1:9", uploadUrl: "http://127.0.0.1:9", fetch: noNetwork, maxRetries: 0 });

test("every declared operation is a method of Client, refused by its own rules before the network", async () => {
  const c = client();
  assert.ok(OPERATIONS.length >= 37, String(OPERATIONS.length));
  for (const { name, call } of OPERATIONS) {
    assert.equal(typeof pkg.Client.prototype[name], "function", name);
    // The uploads take their file, URL or data first; the others a request object.
    const error = await c[name](5).then(
      () => assert.fail(`${name} resolved`),
      (e) => e,
    );
    assert.ok(error instanceof pkg.ValidationError, `${name}: ${error}`);
    if (call === "request" || call === "none") {
      assert.equal(error.field, "request", `${name}: ${error.message}`);
      assert.ok(error.message.startsWith(name), `${name}: ${error.message}`);
    }
  }
});

test("the module's one entry refuses a name that is no operation", async () => {
  const c = client();
  for (const name of ["noSuchOperation", 5, undefined, { toString: () => "getCredits" }]) {
    const error = await c.__call(name, {}).then(
      () => assert.fail(`${String(name)} resolved`),
      (e) => e,
    );
    assert.ok(error instanceof pkg.ValidationError && error.field === "operation", `${String(name)}: ${error}`);
  }
});

test("every waiter the types declare is a method of Client, reaching the module's entry", async () => {
  // The waiters' names as TypeScript users see them, not the list api.js defines them from.
  const { readFile } = await import("node:fs/promises");
  const types = await readFile(join(PKG, "tunesmith.d.ts"), "utf8");
  const waiters = [...new Set(types.match(/\bwaitFor[A-Za-z]+(?=\()/g))];
  assert.equal(waiters.length, 10, waiters.join(", "));
  const c = client();
  for (const name of waiters) {
    assert.equal(typeof pkg.Client.prototype[name], "function", name);
    // Refused by the waiter's own check, before the network.
    const error = await c[name](5).then(
      () => assert.fail(`${name} resolved`),
      (e) => e,
    );
    assert.ok(error instanceof pkg.ValidationError && error.field === "taskId", `${name}: ${error}`);
  }
});
