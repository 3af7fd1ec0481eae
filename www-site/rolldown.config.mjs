// Bundles the site's service worker (sw.js) with the package's companion and the emulator's glue
// into one classic script: module service workers are not yet everywhere (Firefox 147+).
// Run by xtask/src/site.rs: SITE_PKG is the built package, SITE_SW_OUT the file to write.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = resolve(process.env.SITE_PKG ?? resolve(here, "..", "pkg"));

export default {
  input: resolve(here, "sw.js"),
  platform: "browser",
  resolve: { alias: { "tunesmith-pkg": pkg } },
  transform: {
    // The glue's default path for the wasm file is never taken (the worker hands it the bytes).
    define: { "import.meta.url": "self.location.href" },
  },
  plugins: [
    {
      // The companion's `import ... from "tunesmith"`: the package's API without the entry's
      // top-level await (a classic script has none); sw.js instantiates the client's wasm itself.
      name: "tunesmith-entry",
      resolveId: (source) => (source === "tunesmith" ? "\0tunesmith" : null),
      load: (id) => (id === "\0tunesmith" ? `export * from ${JSON.stringify(resolve(pkg, "api.js"))};` : null),
    },
    {
      // The companion loads its MCP route on a first `/mcp` request only; the site has none.
      name: "no-mcp",
      resolveId: (source) => (/(^|\/)mcp\/http\.js$/.test(source) ? "\0no-mcp" : null),
      load: (id) => (id === "\0no-mcp" ? "export function mountMcp() { throw new Error('the demo site serves no /mcp'); }" : null),
    },
  ],
  output: { file: process.env.SITE_SW_OUT ?? resolve(here, "..", "target", "site-sw.js"), format: "iife" },
};
