// The package's own code that the companion runs: the client's request checks and its callback
// parser, from the one wasm module that the package's entry (imported first) loads.
import { parseCallback as parse } from "tunesmith";
// @ts-ignore: the wasm glue is generated at build, and declares no type for this export.
import { validateRequest as validate } from "../tunesmith.js";

/**
 * A callback body as the package types it: its family, task, stage and state.
 * @typedef {{ family: string, taskId: string, stage?: string | null, state: string, raw?: unknown, [field: string]: unknown }} CallbackEvent
 */

/**
 * Throws the client's own `ValidationError` (with `field` and `rule`) when `fields` break a rule of
 * `operation`.
 * @type {(operation: string, fields: Record<string, unknown>) => void}
 */
export const validateRequest = validate;

/**
 * The typed event of a callback body; throws when it is not one of the service's.
 * @type {(body: Uint8Array) => CallbackEvent}
 */
export const parseCallback = /** @type {any} */ (parse);
