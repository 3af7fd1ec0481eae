// The two READMEs (the repository's and the package's, shipped to npm) tell a newcomer the same
// things about installing, and those things are true: the tarball's path is what `npm pack` writes,
// CommonJS is supported the same way in both, and the dependencies they name are the package's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const READMES = ["README.md", "pkg-template/README.md"];
const read = (path) => readFile(join(ROOT, path), "utf8");
const version = /^version = "([^"]+)"/m.exec(await read("Cargo.toml"))[1];
const manifest = JSON.parse(await read("pkg-template/package.json"));

for (const readme of READMES) {
  test(`${readme}: the tarball first, at the path npm pack writes, and no bare folder install`, async () => {
    const text = await read(readme);
    const sh = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
    const packed = `${manifest.name}-${version}.tgz`;
    assert.ok(sh.includes("npm pack"), `${readme}: packs the package`);
    assert.ok(sh.includes(`pkg/${packed}`), `${readme}: names pkg/${packed}, the file npm pack writes in pkg/`);
    const installs = [...sh.matchAll(/npm install ([^\n#&|;]+)/g)].map((m) => m[1].trim());
    assert.ok(installs.length > 0, `${readme}: an install line`);
    for (const target of installs) {
      // A folder install is a symlink, whose .wasm Vite's dev server refuses to serve (403).
      assert.ok(target.endsWith(".tgz") || target.includes("--install-links"), `${readme}: npm install ${target}`);
    }
  });

  test(`${readme}: CommonJS is said to work, as it does (Node 20.19+ and 22.12+)`, async () => {
    const text = await read(readme);
    assert.ok(!/ES modules only/i.test(text), `${readme} says "ES modules only"`);
    assert.ok(text.includes('require("tunesmith")') && text.includes("20.19+") && text.includes("22.12+"), `${readme}: require on 20.19+ and 22.12+`);
  });

  test(`${readme}: the dependencies named are the package's`, async () => {
    const text = await read(readme);
    const line = /\*\*Dependencies\*\*:([\s\S]*?)\n\n/.exec(text)?.[1];
    assert.ok(line, `${readme}: a **Dependencies**: paragraph`);
    const named = new Set([...line.matchAll(/`(@?[a-z0-9][\w./-]*)`/g)].map((m) => m[1]).filter((n) => !n.startsWith("tunesmith")));
    assert.deepEqual([...named].sort(), Object.keys(manifest.dependencies ?? {}).sort());
  });
}

test("both READMEs say the same about the dependencies", async () => {
  const [a, b] = await Promise.all(READMES.map(read));
  const para = (t) => /\*\*Dependencies\*\*:[\s\S]*?\n\n/.exec(t)?.[0].replace(/\s+/g, " ");
  assert.equal(para(a), para(b));
});
