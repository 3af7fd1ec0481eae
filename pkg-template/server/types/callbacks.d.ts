export type Context = import("./options.js").Context;
export type Binding = {
    user: string;
    task: string | null;
    ended?: boolean;
};
/** A new token of `user`: 32 bytes, URL-safe Base64 (43 characters). Nothing is stored yet. @param {Context} ctx @param {string} user */
export declare function newToken(ctx: Context, user: string): Promise<string>;
/** Whether `token` was made by this companion (this key) for `user`. @param {Context} ctx @param {string} token @param {string} user */
export declare function tokenIsOf(ctx: Context, token: string, user: string): Promise<boolean>;
/** Keeps a token whose create is about to be sent; its task is not known yet. @param {Context} ctx @param {string} token @param {string} user */
export declare function keepToken(ctx: Context, token: string, user: string): Promise<void>;
/** The create answered with `taskId`: the token answers for that task only. @param {Context} ctx @param {string} token @param {string} user @param {string} taskId */
export declare function bindTask(ctx: Context, token: string, user: string, taskId: string): Promise<void>;
/** The create was refused (or never answered): its token is dropped. @param {Context} ctx @param {string} token */
export declare function dropToken(ctx: Context, token: string): Promise<void>;
/** @param {Context} ctx @param {string} token @param {Request} request */
export declare function receiveCallback(ctx: Context, token: string, request: Request): Promise<import("./answers.js").Reply>;
