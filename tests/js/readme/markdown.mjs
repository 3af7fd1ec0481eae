// The READMEs' code blocks and the marked regions of test files they must equal: shared by the
// snippet checks (readme-snippets.test.mjs, types-snippets.test.mjs) and the tests that run a
// README block as it is shown.
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";

/** Removes the indentation common to all non-empty lines, and surrounding blank lines. */
export function dedent(text) {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines.at(-1).trim()) lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

/** The ```js blocks of a Markdown text, with the snippet name of the comment just before each. */
export function jsBlocks(markdown) {
  const blocks = [];
  const re = /(?:<!--\s*snippet:\s*([\w-]+)\s*-->\s*\n)?```(?:js|javascript)\n([\s\S]*?)\n```/g;
  for (const m of markdown.matchAll(re)) {
    const line = markdown.slice(0, m.index).split("\n").length;
    blocks.push({ name: m[1] ?? null, code: dedent(m[2]), line });
  }
  return blocks;
}

/** The ```sh blocks of a Markdown text that a `<!-- snippet: NAME -->` comment names. */
export function shellSnippets(markdown) {
  const blocks = [];
  const re = /<!--\s*snippet:\s*([\w-]+)\s*-->\s*\n```(?:sh|bash|shell)\n([\s\S]*?)\n```/g;
  for (const m of markdown.matchAll(re)) {
    const line = markdown.slice(0, m.index).split("\n").length;
    blocks.push({ name: m[1], code: dedent(m[2]), line });
  }
  return blocks;
}

/** Every `// README:NAME:start` … `// README:NAME:end` region of the given sources. */
export function regions(sources) {
  const found = new Map();
  for (const { path, text } of sources) {
    const re = /^[ \t]*\/\/ README:([\w-]+):start[^\n]*\n([\s\S]*?)^[ \t]*\/\/ README:\1:end/gm;
    for (const m of text.matchAll(re)) {
      if (found.has(m[1])) throw new Error(`region ${m[1]} is marked twice (${found.get(m[1]).path} and ${path})`);
      found.set(m[1], { path, code: dedent(m[2]) });
    }
  }
  return found;
}

/** Every file under `root`/tests that may hold a region, as the snippet checks read them: its path
 * (relative to `root`) and text. */
export async function testSources(root) {
  const out = [];
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) await walk(path);
      } else if (/\.(mjs|js|ts|rs)$/.test(entry.name)) {
        out.push({ path: relative(root, path), text: await readFile(path, "utf8") });
      }
    }
  };
  await walk(join(root, "tests"));
  return out;
}
