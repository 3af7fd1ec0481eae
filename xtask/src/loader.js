// The glue's loader, in place of wasm-bindgen's (`xtask/src/glue.rs` says why). The package's
// entries are its only callers: `index.js` and `full.js` hand `__wbg_init` a URL, `node.js` and
// `workerd.js` hand `initSync` the module's bytes or a compiled `WebAssembly.Module`.

function initSync({ module }) {
    if (wasm === undefined) {
        if (!(module instanceof WebAssembly.Module)) module = new WebAssembly.Module(module);
        __wbg_finalize_init(new WebAssembly.Instance(module, __wbg_get_imports()), module);
    }
    return wasm;
}

let __wbg_init_promise;

// One load for every caller: two entries on one page share the module that loads first, and a
// module already there (`initSync`) is not fetched again.
async function __wbg_init({ module_or_path }) {
    if (wasm !== undefined) return wasm;
    return (__wbg_init_promise ??= __wbg_fetch(module_or_path).catch((e) => {
        __wbg_init_promise = undefined;
        throw e;
    }));
}

// Compiles while the bytes arrive when the server says `application/wasm`, as
// `instantiateStreaming` requires; from the whole body otherwise (a server that does not know the
// type, or a runtime without `instantiateStreaming`), without a warning.
async function __wbg_fetch(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`tunesmith could not load ${url}: HTTP ${response.status}`);
    const imports = __wbg_get_imports();
    const streaming = typeof WebAssembly.instantiateStreaming === "function";
    const { instance, module } = streaming && /^application\/wasm\b/.test(response.headers.get("Content-Type"))
        ? await WebAssembly.instantiateStreaming(response, imports)
        : await WebAssembly.instantiate(await response.arrayBuffer(), imports);
    return wasm ?? __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
