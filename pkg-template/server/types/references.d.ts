export type Context = import("./options.js").Context;
/** @typedef {import("./options.js").Context} Context */
/** Request fields that name a track or stem (`audioId`) or a persona or voice (`personaId`): protocol's list. */
export declare const REFERENCE_FIELDS: readonly string[];
/** The ids `text` (a record, an answer or a callback) names as a track, stem, persona or voice. @param {string} text */
export declare const namedIds: (text: string) => string[];
/**
 * Writes down as `user`'s every id `text` (a record, an answer or a callback of theirs) names. The
 * first owner stays the owner: a record that repeats an id of another user's claims nothing. A
 * record read again unchanged (`query` names it) is not read through again.
 * @param {Context} ctx @param {string} user @param {string} text @param {string | null} [query]
 */
export declare function recordReferences(ctx: Context, user: string, text: string, query?: string | null): Promise<void>;
/**
 * The 404 for the first reference in `fields` that is not `user`'s (the same answer whether it is
 * another user's or unknown: a guess learns nothing), or null.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} fields
 */
export declare function foreignReference(ctx: Context, user: string, fields: Record<string, unknown>): Promise<import("./answers.js").Reply | null>;
