// The status strip: whether the music host answers, and the key's remaining credits. On the
// emulator, a toast about missing credits offers to top them up (its admin route sets them).
import { $ } from "./dom.js";
import { offerAction, showError } from "./messages.js";
import { hasPath, isLocal } from "./service.js";
import { state } from "./store.js";

/** What the top-up button sets: the emulator's usual starting credits. */
const TOP_UP = 10000;

export async function refreshCredits() {
  const pill = $("#conn");
  try {
    const { credits } = await state.client.getCredits({}, { maxRetries: 0, timeoutMs: 5000 });
    $("#credits").textContent = credits.toLocaleString("en");
    pill.dataset.state = "ok";
    $("#conn-text").textContent = state.service && isLocal() ? "Local emulator" : "Connected";
  } catch (error) {
    pill.dataset.state = "error";
    $("#conn-text").textContent = error.kind === "unauthorized" ? "Key refused" : "Not connected";
    if (error.kind !== "network") showError(error);
  }
}

async function topUp() {
  const res = await fetch(`${state.settings.baseUrl}/_emulator/credits`, {
    method: "POST",
    headers: { authorization: `Bearer ${state.settings.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ credits: TOP_UP }),
  });
  if (!res.ok) throw new Error(`The emulator refused the top-up (HTTP ${res.status})`);
  await refreshCredits();
}

export function initCredits() {
  // Credits and tasks are kept in the emulator's data folder: a restart does not bring them back.
  offerAction((e) => e?.kind === "insufficient_credits" && hasPath(state.service, "/_emulator/credits"),
    `Top up to ${TOP_UP.toLocaleString("en")} credits (emulator)`, topUp);
  offerAction((e) => ["unauthorized", "network", "configuration"].includes(e?.kind), "Open Settings", () => {
    $("#settings").open = true;
    $("#settings-form").elements.baseUrl.focus();
  });
}
