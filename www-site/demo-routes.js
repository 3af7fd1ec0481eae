// The demo's own routes (`/demo/*`: a top-up of the emulator's credits, the callbacks the companion
// received), as both of their hosts serve them: `cargo xtask demo`'s companion in Node
// (xtask/src/demo-companion.mjs) and the static site's service worker (sw.js, bundled by rolldown).
// Web APIs only (Request, Response, JSON): each host adds its own answers and its emulator's fetch.

/** Largest top-up the demo asks for: the emulator's usual starting credits, ten times over. */
export const MAX_TOP_UP = 100_000;
/** How many callbacks the demo's routes list, the newest. */
export const KEEP_RECEIVED = 500;

/**
 * The credits a top-up's JSON body asks for, `{ credits }`; or `{ refused }`, the 400 answer's body
 * naming the field and its rule.
 */
export async function topUpCredits(request) {
  let credits;
  try {
    ({ credits } = await request.json());
  } catch {
    credits = undefined;
  }
  if (!Number.isSafeInteger(credits) || credits < 0 || credits > MAX_TOP_UP) {
    return { refused: { code: 400, msg: `\`credits\` must be a whole number from 0 to ${MAX_TOP_UP}`, field: "credits" } };
  }
  return { credits };
}

/**
 * A callback passed to `companion`, then remembered at the end of `received` (oldest first, the
 * newest KEEP_RECEIVED) with the companion's answer and what it did with it: pushed to the page,
 * a duplicate, refused. Resolves with the companion's answer.
 */
export async function receiveCallback(companion, request, received) {
  const text = await request.clone().text().catch(() => "");
  const response = await companion(request);
  const reply = await response.clone().json().catch(() => ({}));
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text, as it came.
  }
  const outcome = response.status !== 200 ? "refused" : /already/i.test(String(reply?.msg ?? "")) ? "duplicate" : "pushed";
  const seq = (received.at(-1)?.seq ?? 0) + 1;
  received.push({ seq, at: Date.now(), status: response.status, outcome, body });
  if (received.length > KEEP_RECEIVED) received.splice(0, received.length - KEEP_RECEIVED);
  return response;
}

/** The body of `GET /demo/callbacks?since=SEQ`: the callbacks of `received` after SEQ. */
export function receivedSince(request, received) {
  const since = Number(new URL(request.url).searchParams.get("since") ?? 0) || 0;
  return { items: received.filter((item) => item.seq > since) };
}
