export type CallbackEvent = {
    family: string;
    taskId: string;
    stage?: string | null;
    state: string;
    raw?: unknown;
    [field: string]: unknown;
};
/**
 * A callback body as the package types it: its family, task, stage and state.
 * @typedef {{ family: string, taskId: string, stage?: string | null, state: string, raw?: unknown, [field: string]: unknown }} CallbackEvent
 */
/**
 * Throws the client's own `ValidationError` (with `field` and `rule`) when `fields` break a rule of
 * `operation`.
 * @type {(operation: string, fields: Record<string, unknown>) => void}
 */
export declare const validateRequest: (operation: string, fields: Record<string, unknown>) => void;
/**
 * The typed event of a callback body; throws when it is not one of the service's.
 * @type {(body: Uint8Array) => CallbackEvent}
 */
export declare const parseCallback: (body: Uint8Array) => CallbackEvent;
