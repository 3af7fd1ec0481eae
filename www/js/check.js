// Every refusal of a request at once. The package stops at the first broken field; the page asks
// it again with that field set aside, and so on, so that an empty form is marked whole, in the
// package's own words. The asking is a client whose `fetch` never sends: the package checks a
// request before it reaches the network, so a request that passes only meets that refusal.
import { Client } from "../pkg/full.js"; // the build callbacks.js needs (see there)

const NOT_SENT = new Error("the page's check sends nothing");
const checker = new Client({ companionUrl: "http://check.invalid", fetch: () => Promise.reject(NOT_SENT) });
/** More than any operation has fields: the loop always ends. */
const MAX_ROUNDS = 40;

/**
 * A value that passes a field's own rules, to set a refused field aside and look further. Windows
 * (`…Start…`, `…End…`) get 0 and 10 seconds: a window every operation takes.
 */
function standIn(described, name) {
  const f = described?.fields.find((x) => x.name === name);
  if (/url$/i.test(name)) return "https://example.com/stand-in.mp3";
  if (f?.enum) return f.enum[0];
  if (f?.type === "boolean") return false;
  if (f?.type === "number" || f?.type === "integer") {
    const wanted = /end/i.test(name) ? 10 : /start/i.test(name) ? 0 : 1;
    return Math.min(f.maximum ?? Infinity, Math.max(f.minimum ?? -Infinity, wanted));
  }
  if (f?.type === "array") return [];
  return "x";
}

/**
 * The `ValidationError`s of `request` for `method`, one per field, in the order the package finds
 * them; empty when the package takes the request. `described`: the operation from `/openapi.json`.
 */
export async function refusals(method, request, described) {
  const found = new Map();
  const probe = { ...request };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let error = null;
    try {
      await checker[method](probe, { maxRetries: 0 });
    } catch (e) {
      error = e;
    }
    if (error?.kind !== "validation" || !error.field) break;
    const field = error.field;
    const seen = found.get(field);
    if (!seen) found.set(field, { error, tries: 0 });
    const entry = found.get(field);
    // Set aside twice (a stand-in, then nothing, or the other way round) and still refused:
    // a rule that ties it to fields already refused. The others stay unchecked.
    if (entry.tries === 2) break;
    const required = error.rule === "required" || described?.fields.find((f) => f.name === field)?.required;
    const fill = entry.tries === 0 ? required : !required;
    entry.tries++;
    if (fill) probe[field] = standIn(described, field);
    else delete probe[field];
  }
  return [...found.values()].map((x) => x.error);
}

/**
 * Throws every refusal of `request` at once (an error with `all`, shown field by field by
 * `showError`), before anything is sent; resolves when the package takes the request.
 */
export async function checkRequest(method, request, described) {
  const all = await refusals(method, request, described);
  if (all.length) throw Object.assign(new Error(all.map((e) => e.message).join("; ")), { kind: "validation", all });
}
