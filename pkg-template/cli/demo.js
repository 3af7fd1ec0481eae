// `tunesmith demo`: the demo as a static site (site/ in this package) served on a local port.
// The service runs in the page's own service worker (the emulator's wasm build and the companion,
// which holds the key): this is a plain static file server, with no route of its own.
import { createServer } from "node:http";
import { once } from "node:events";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SITE = fileURLToPath(new URL("../site/", import.meta.url));
const DEFAULT_PORT = 8792;
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wav": "audio/wav",
};

const USAGE = `usage: tunesmith demo [--port N] [--host H]

Serves the demo (this package's site/ folder) on http://127.0.0.1:${DEFAULT_PORT}/ until Ctrl-C and prints its URL.
The whole service runs in the browser, in the page's service worker: the emulator and the companion,
which keeps the key off the page. Tasks, uploads and credits stay in the browser (IndexedDB); after
the first visit the page works offline. Any static file server can serve site/ the same way.

  --port N   the port (default ${DEFAULT_PORT}; 0: any free one)
  --host H   the address to listen on (default 127.0.0.1; a service worker needs localhost or https)
`;

class UsageError extends Error {}

function readFlags(args) {
  const flags = { port: DEFAULT_PORT, host: "127.0.0.1" };
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`${name} takes a value`);
      return v;
    };
    if (name === "--help" || name === "-h") flags.help = true;
    else if (name === "--port") {
      const v = value();
      const port = Number(v);
      if (!/^\d+$/.test(v) || port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535; got ${JSON.stringify(v)}`);
      flags.port = port;
    } else if (name === "--host") flags.host = value();
    else throw new UsageError(`unknown option ${JSON.stringify(name)}: \`tunesmith demo --help\` lists them`);
  }
  return flags;
}

/** A file of the site, or null (never a path outside it). */
async function fileOf(pathname) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = normalize(join(SITE, path));
  if (file !== SITE.replace(/[\\/]$/, "") && !file.startsWith(SITE.endsWith(sep) ? SITE : SITE + sep)) return null;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return fileOf(`${path.replace(/\/$/, "")}/index.html`);
    return { file, size: info.size };
  } catch {
    return null;
  }
}

/** @param {string[]} args @returns {Promise<number>} the exit code */
export async function runDemo(args) {
  let flags;
  try {
    flags = readFlags(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`tunesmith demo: ${e.message}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!(await fileOf("/sw.js"))) {
    process.stderr.write(`tunesmith demo: this package has no site (${SITE}); it is written by \`cargo xtask build\`\n`);
    return 1;
  }
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return res.writeHead(405, { allow: "GET, HEAD" }).end();
    const found = await fileOf(new URL(req.url ?? "/", "http://x").pathname);
    if (!found) return res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    res.writeHead(200, {
      "content-type": TYPES[extname(found.file)] ?? "application/octet-stream",
      "content-length": found.size,
      // The worker caches the site itself; a fresh copy each time lets it see a new version.
      "cache-control": "no-cache",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(found.file).pipe(res);
  });
  server.listen(flags.port, flags.host);
  try {
    await once(server, "listening");
  } catch (e) {
    process.stderr.write(`tunesmith demo: cannot listen on ${flags.host}:${flags.port}: ${e.message}\n`);
    return 1;
  }
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  const host = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  process.stdout.write(`tunesmith demo: open http://${host}:${port}/ (the service runs in the page; Ctrl-C to stop)\n`);
  await new Promise((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, resolve);
  });
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections?.();
  return 0;
}
