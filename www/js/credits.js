// The status strip: whether the music host answers, and the key's remaining credits. On the
// emulator, a message about missing credits offers to top them up (its admin route sets them,
// through the demo's companion when the page holds no key).
import { $ } from "./dom.js";
import { alertPlace, offerAction, showError } from "./messages.js";
import { hasPath, isLocal } from "./service.js";
import { state } from "./store.js";

/** What the top-up button sets: the emulator's usual starting credits. */
const TOP_UP = 10000;

/** Where a refused connection is explained: under Settings, where it is mended. */
const connectionAlerts = () => alertPlace($("#settings"));

/** The one refresh put off by a rate limit, if any. */
let putOff;

/**
 * Reads the key's credits into the status strip. A rate limit says nothing about the connection
 * (a quick clicker's creates each refresh the figure): the strip stays as it was, no alert is
 * shown, and one refresh is made again once the wait the answer asked for has passed.
 */
export async function refreshCredits() {
  const pill = $("#conn");
  clearTimeout(putOff);
  try {
    const { credits } = await state.client.getCredits({}, { maxRetries: 0, timeoutMs: 5000 });
    $("#credits").textContent = credits.toLocaleString("en");
    pill.dataset.state = "ok";
    $("#conn-text").textContent = state.service && isLocal() ? "Local emulator" : "Connected";
    connectionAlerts().replaceChildren();
  } catch (error) {
    if (error.kind === "rate_limited") {
      putOff = setTimeout(refreshCredits, Math.min(Math.max(error.retryAfterMs ?? 1000, 250), 60_000));
      return;
    }
    pill.dataset.state = "error";
    const refused = state.settings?.companionUrl ? "Session refused" : "Key refused";
    $("#conn-text").textContent = error.kind === "unauthorized" ? refused : "Not connected";
    if (error.kind !== "network") showError(error, { inline: connectionAlerts() });
  }
}

/**
 * Sets the key's credits with the emulator's admin route. It wants the key: a page without one (the
 * demo through its companion) asks the demo's companion, which holds it.
 */
async function topUp() {
  const { demoUrl, baseUrl, apiKey } = state.settings;
  const res = demoUrl
    ? await fetch(`${demoUrl}/credits`, { method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body: JSON.stringify({ credits: TOP_UP }) })
    : await fetch(`${baseUrl}/_emulator/credits`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ credits: TOP_UP }),
    });
  if (!res.ok) throw new Error(`The emulator refused the top-up (HTTP ${res.status})`);
  await refreshCredits();
}

/** A top-up needs the emulator's admin route, and the key: the page's own, or the companion's. */
const canTopUp = () => hasPath(state.service, "/_emulator/credits") && Boolean(state.settings?.demoUrl || state.settings?.apiKey);

export function initCredits() {
  // Credits and tasks are kept in the emulator's data folder: a restart does not bring them back.
  offerAction((e) => e?.kind === "insufficient_credits" && canTopUp(),
    `Top up to ${TOP_UP.toLocaleString("en")} credits (emulator)`, topUp);
  offerAction((e) => ["unauthorized", "network", "configuration"].includes(e?.kind), "Open Settings", () => {
    $("#settings").open = true;
    [...$("#settings-form").elements].find((input) => input.name && !input.disabled)?.focus();
  });
}
