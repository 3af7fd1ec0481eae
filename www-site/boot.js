// The static site's start: the page's service (the emulator and the companion) runs in a service
// worker at the site's root (sw.js), so the page waits for that worker to control it, then starts
// the demo page as `cargo xtask demo` serves it (app.js, unchanged). The build points index.html
// at this file instead of app.js.
const failed = (message) => {
  const p = document.createElement("p");
  p.className = "alert";
  p.setAttribute("role", "alert");
  p.textContent = message;
  document.querySelector("main")?.prepend(p) ?? document.body.prepend(p);
};

async function boot() {
  if (!("serviceWorker" in navigator)) {
    failed("This demo runs its service in a service worker, which this browser (or this address: it needs https or localhost) does not offer.");
    return;
  }
  await navigator.serviceWorker.register("./sw.js", { scope: "./" });
  if (!navigator.serviceWorker.controller) {
    // The first visit: the worker claims this page once it is active.
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  await import("./app.js");
}

boot().catch((e) => failed(`The demo's service worker could not start: ${e?.message ?? e}`));
