export type Context = import("./options.js").Context;
export type Item = {
    id: number;
    taskId: string | null;
    family: string;
    data: string;
};
/**
 * Numbers `event`, keeps it in the user's backlog and tells every instance's pages of that user.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} event
 */
export declare function publish(ctx: Context, user: string, event: Record<string, unknown>): Promise<number>;
/**
 * `GET /events[?task=ID]`: the user's events (of one task of theirs, with `task`) as they come.
 * @param {Context} ctx @param {string} user @param {URL} url @param {Request} request
 * @returns {Promise<import("./answers.js").Reply>}
 */
export declare function eventStream(ctx: Context, user: string, url: URL, request: Request): Promise<import("./answers.js").Reply>;
