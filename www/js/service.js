// The service as the page sees it: the client built from the settings, per-call options, and the
// operations' own descriptions read from the music host's `/openapi.json`.
import { Client } from "../pkg/full.js"; // the build callbacks.js needs (see there)
import { state, set } from "./store.js";

export const DEV_KEY = "ts-dev-key";

/**
 * A client for these settings; throws the package's error (a `ValidationError` naming the field,
 * or a configuration error) when they are refused, and changes nothing then.
 */
export function makeClient(settings) {
  if (typeof settings.companionUrl === "string") return new Client({ companionUrl: settings.companionUrl });
  // dangerouslyAllowBrowser: this page is a demo against a local emulator (see the warning in
  // Settings). A real app points baseUrl at its proxy or passes an apiKey function instead.
  return new Client({
    apiKey: settings.apiKey || undefined,
    baseUrl: settings.baseUrl,
    uploadUrl: settings.uploadUrl,
    dangerouslyAllowBrowser: true,
  });
}

/** Per-call options: the simulated service answer of Settings applies to one request. */
export function callOptions(extra = {}) {
  const code = state.emulateCode;
  if (!code) return extra;
  set("emulateCode", "");
  return { ...extra, maxRetries: 0, headers: { "X-Emulate-Code": code } };
}

export function isLocal(url = state.settings?.baseUrl) {
  try {
    return /^(127\.|localhost|\[::1\])/.test(new URL(url).host);
  } catch {
    return false;
  }
}

/**
 * Brisk polling against the local emulator; the service's own recommendation elsewhere. Through a
 * companion the stages are pushed: its waiters read `maxIntervalMs` as how long a quiet stream may
 * stay quiet, so a polling interval there would drop and reopen the stream between two stages.
 */
export function pollSchedule() {
  if (state.settings?.companionUrl) return {};
  return isLocal() ? { minIntervalMs: 400, maxIntervalMs: 1200 } : {};
}

/** The music host's OpenAPI document, or null when it serves none (the real service). */
export async function loadDescription(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(3000) });
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/** The upload host named in the document's `servers` (path-level for the upload operations). */
export function uploadHost(doc) {
  const servers = [doc?.servers ?? [], ...Object.values(doc?.paths ?? {}).map((p) => p?.servers ?? [])].flat();
  const url = servers.find((s) => /upload/i.test(String(s?.description ?? "")))?.url;
  return url ? String(url).replace(/\/$/, "") : null;
}

/** Whether the document lists a path (the emulator's admin routes, say). */
export const hasPath = (doc, path) => Boolean(doc?.paths?.[path]);

/**
 * One operation as the document describes it: `{ name, summary, codes, codeTable, credits, fields,
 * customOnly, nonCustomOnly }` (the last two: the names of fields of one `customMode` only), each
 * field `{ name, required, type, enum, minimum, maximum, multipleOf, maxLength, description }`
 * in the document's order. Null when the document does not have it.
 */
export function describeOperation(doc, name) {
  for (const item of Object.values(doc?.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (op?.operationId !== name) continue;
      const content = op.requestBody?.content ?? {};
      const schema = content["application/json"]?.schema ?? Object.values(content)[0]?.schema ?? {};
      const required = new Set(schema.required ?? []);
      const params = (op.parameters ?? []).map((p) => [p.name, { ...p.schema, required: p.required }]);
      const props = Object.entries(schema.properties ?? {}).map(([n, s]) => [n, { ...s, required: required.has(n) }]);
      return {
        name,
        summary: op.summary ?? "",
        codes: answerCodes(op),
        codeTable: op["x-code-table"] ?? null,
        credits: op["x-credits"] ?? null,
        fields: [...params, ...props].map(([fieldName, s]) => ({ name: fieldName, ...s })),
        // Fields of one mode only (generate): the other mode's are refused by name.
        customOnly: op["x-customModeOnly"] ?? [],
        nonCustomOnly: op["x-nonCustomModeOnly"] ?? [],
      };
    }
  }
  return null;
}

/**
 * The credits one call of `name` with `request` costs, or null when the document does not say. A
 * vocal separation's `x-credits` is its two-stem price; the document's description names the types
 * that cost more ("Costs: ... (split_stem and split_stem_advanced separations 10)").
 */
export function priceOf(doc, name, request = {}) {
  const base = describeOperation(doc, name)?.credits ?? null;
  if (name !== "separateVocals" || !request.type) return base;
  const dearer = /\(([^()]*?) separations (\d+)\)/.exec(doc?.info?.description ?? "");
  if (!dearer) return base;
  return dearer[1].split(/,\s*|\s+and\s+/).includes(request.type) ? Number(dearer[2]) : base;
}

/** "free", "1 credit", "10 credits". */
export const creditsText = (n) => (n === 0 ? "free" : `${n} ${n === 1 ? "credit" : "credits"}`);

/** The answer codes an operation documents ("Codes: 200 success; 429 insufficient credits; ..."). */
function answerCodes(op) {
  const text = Object.values(op.responses ?? {}).map((r) => r?.description ?? "").join(" ");
  const list = /Codes: (.+)$/.exec(text)?.[1] ?? "";
  return list.split(/;\s*/).map((entry) => /^(\d+) (.+)$/.exec(entry.trim())).filter(Boolean)
    .map(([, code, meaning]) => ({ code: Number(code), meaning }));
}
