// What a request may name besides task ids: tracks (and the stems of a separation), personas and
// custom voices. Each id a user's own records and answers show is written down as theirs (a
// callback's, once the service's record of its task names them too: anyone holding a callback URL
// can write one); a request naming one that is not theirs, or one never seen, is refused like
// another user's task.
import { refuse } from "./answers.js";
import { NAMED_REFERENCE_FIELDS, REFERENCE_FIELDS as FIELDS } from "./routes.js";

/** @typedef {import("./options.js").Context} Context */

/** Request fields that name a track or stem (`audioId`) or a persona or voice (`personaId`): protocol's list. */
export const REFERENCE_FIELDS = Object.freeze([...FIELDS]);

/** Where the service's records and callbacks name a track, stem, persona or voice (`id`, `personaId`, `voiceId`). */
const NAMED_ID = new RegExp(`"(?:${NAMED_REFERENCE_FIELDS.join("|")})"\\s*:\\s*"([^"\\\\]{1,200})"`, "g");

/** Lately written references are not written again for this long (a record is read often). */
const REWRITE_MS = 60_000;
const MAX_REMEMBERED = 10_000;
/** Records remembered whole (a few KB each) to notice one read again unchanged. */
const MAX_RECORDS = 1000;

/** The ids `text` (a record, an answer or a callback) names as a track, stem, persona or voice. @param {string} text */
export const namedIds = (text) => [...new Set(Array.from(text.matchAll(NAMED_ID), (m) => m[1]))];

/**
 * Writes down as `user`'s every id `text` (a record, an answer or a callback of theirs) names. The
 * first owner stays the owner: a record that repeats an id of another user's claims nothing. A
 * record read again unchanged (`query` names it) is not read through again.
 * @param {Context} ctx @param {string} user @param {string} text @param {string | null} [query]
 */
export async function recordReferences(ctx, user, text, query = null) {
  const now = Date.now();
  const key = query === null ? null : `${user} ${query}`;
  if (key !== null) {
    const last = ctx.lastRecords.get(key);
    if (last && last.text === text && now - last.at < REWRITE_MS) return;
  }
  /** @type {Promise<unknown>[]} */
  const writes = [];
  for (const [, id] of text.matchAll(NAMED_ID)) {
    const seen = `${user} ${id}`;
    if (now - (ctx.recorded.get(seen) ?? -Infinity) < Math.min(REWRITE_MS, ctx.retentionMs / 2)) continue;
    if (ctx.recorded.size >= MAX_REMEMBERED) ctx.recorded.clear();
    ctx.recorded.set(seen, now);
    writes.push(ctx.store.setIfAbsent(`ref:${id}`, user, ctx.retentionMs));
  }
  await Promise.all(writes);
  if (key !== null) {
    if (ctx.lastRecords.size >= MAX_RECORDS) ctx.lastRecords.clear();
    ctx.lastRecords.set(key, { text, at: now });
  }
}

/**
 * The 404 for the first reference in `fields` that is not `user`'s (the same answer whether it is
 * another user's or unknown: a guess learns nothing), or null.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} fields
 */
export async function foreignReference(ctx, user, fields) {
  for (const name of REFERENCE_FIELDS) {
    const id = fields[name];
    if (id === undefined || id === null || id === "") continue;
    if (typeof id !== "string" || (await ctx.store.get(`ref:${id}`)) !== user) {
      return refuse(404, "not_found", `no track, persona or voice of yours has this ${name}`, { field: name });
    }
  }
  return null;
}
