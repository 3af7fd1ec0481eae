// Entry for Node, Deno and Bun: the full .wasm (with `parseCallback`), read from disk and compiled synchronously. No
// top-level await, so `require("tunesmith")` loads this module too (Node 20.19+ and 22.12+).
import { readFileSync } from "node:fs";
import { initSync, useFetch } from "./tunesmith.js";
// The companion's transport to the service (it depends on nothing else of server/).
import { isNode, upstream } from "./server/upstream.js";

initSync({ module: readFileSync(new URL("./tunesmith_full_bg.wasm", import.meta.url)) });

// In Node, a Client given no `fetch` sends through a keep-alive pool of undici's (`server/upstream.js`,
// the companion's transport), not the global `fetch`: a sequential call costs about a third less
// (`cargo xtask bench --only calls`), most of it the global fetch's Request, Response and stream
// objects, and the cost of an AbortSignal in it. Redirects are not followed (the service's API
// does not redirect; a 3xx is an ApiError), and a body that is not text (a multipart upload's
// FormData) goes through the global `fetch`. Deno and Bun keep their own `fetch`.
if (isNode()) {
  /** @type {ReturnType<typeof upstream> | null} */
  let pool = null;
  useFetch((url, init) => {
    if (init.body != null && typeof init.body !== "string") return globalThis.fetch(url, init);
    pool ??= upstream(undefined, null);
    // The caller's `User-Agent` (any case) is kept, as the global fetch keeps it.
    // (`init.headers` is the package's own object, made for this attempt.)
    const headers = init.headers;
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "user-agent")) headers["user-agent"] = "tunesmith";
    return pool.send(url, init).then((a) => ({ status: a.status, headers: { get: a.header }, text: a.text }));
  });
}

export * from "./api.js";
