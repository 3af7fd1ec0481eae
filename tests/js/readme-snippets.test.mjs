// The READMEs' code cannot rot: every ```js block of README.md and pkg-template/README.md is
// preceded by `<!-- snippet: NAME -->` and equals the region `// README:NAME:start` … `:end` of a
// test file that runs; so does every ```sh block a snippet comment names (the CLI's quickstart).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { jsBlocks, regions, shellSnippets, testSources } from "./readme/markdown.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const READMES = ["README.md", "pkg-template/README.md"];
// The deep dives in docs/ hold snippets too (deploying, MCP): held to the same rule.
const DOCS = (await readdir(join(ROOT, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);

const sources = await testSources(ROOT);
const marked = regions(sources);

// Every test is registered after the file's top-level awaits: under --test-force-exit (as
// `cargo xtask test` runs it) tests registered after an await that follows a finished test never run.
test("the parsers find blocks and regions", () => {
  const md = "x\n<!-- snippet: a -->\n```js\n  one();\n  two();\n```\n\n```js\nthree();\n```\n";
  assert.deepEqual(jsBlocks(md).map((b) => [b.name, b.code]), [["a", "one();\ntwo();"], [null, "three();"]]);
  const src = "  // README:a:start\n  one();\n  two();\n  // README:a:end\n";
  assert.equal(regions([{ path: "t", text: src }]).get("a").code, "one();\ntwo();");
});


for (const readme of [...READMES, ...DOCS]) {
  test(`every js block of ${readme} is a marked region of a test`, async () => {
    const blocks = jsBlocks(await readFile(join(ROOT, readme), "utf8"));
    if (READMES.includes(readme)) assert.ok(blocks.length > 0, `${readme} has no js blocks`);
    for (const block of blocks) {
      assert.ok(block.name, `${readme}:${block.line}: a js block without <!-- snippet: NAME --> before it`);
      const region = marked.get(block.name);
      assert.ok(region, `${readme}:${block.line}: no region // README:${block.name}:start … :end in tests/`);
      assert.equal(block.code, region.code, `${readme}:${block.line}: snippet ${block.name} differs from ${region.path}`);
    }
  });
}

test("every named sh block of README.md is a marked region of a test", async () => {
  const blocks = shellSnippets(await readFile(join(ROOT, "README.md"), "utf8"));
  assert.ok(blocks.some((b) => b.name === "cli-quickstart"), "the CLI's quickstart is a named sh block");
  for (const block of blocks) {
    const region = marked.get(block.name);
    assert.ok(region, `README.md:${block.line}: no region // README:${block.name}:start … :end in tests/`);
    assert.equal(block.code, region.code, `README.md:${block.line}: snippet ${block.name} differs from ${region.path}`);
  }
});
