/// <reference lib="esnext.disposable" />
// The Node entry exports exactly what the browser entry does.
export * from "./index.js";
