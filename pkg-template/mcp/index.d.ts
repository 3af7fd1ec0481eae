// Types of `tunesmith/mcp`: the MCP server of the package's operations.
import type { McpServer } from "@modelcontextprotocol/server";
import type { Client } from "tunesmith";

export interface McpOptions {
  /** The Client each tool call uses, or a function of the call returning one. */
  client: Client | ((ctx: unknown) => Client | Promise<Client>);
  /** Operations offered as tools. Default: all. */
  allow?: string[];
  /**
   * Offer `uploadFile` with a local `path` (stdio only), and only while there is a root: it reads
   * a regular file inside `roots` or the client's roots (after symlinks), never a dot-file, at
   * most `maxFileBytes`. Default false.
   */
  localFiles?: boolean;
  /** Folders `uploadFile` may read from (each must exist). Default: none. */
  roots?: string[];
  /** Also take the roots the MCP client lists (`roots/list`, followed on list_changed). Default true. */
  clientRoots?: boolean;
  /** The largest local file `uploadFile` reads. Default 100 MB. */
  maxFileBytes?: number;
  /** Called when the client's roots cannot be read. */
  onRootsError?: (error: unknown) => void;
  /** The callback URL of every create: tool calls may then set none (one that does is refused). */
  callbackUrl?: string;
  /** Strings (the API key) blanked out of every answer, plain, URL-encoded and Base64. */
  secrets?: string[];
  /** Wait of a call that sets no `waitSeconds`. Default 50. */
  defaultWaitSeconds?: number;
  /** Longest `waitSeconds` a caller may ask for. Default 600. */
  maxWaitSeconds?: number;
  /** What a call may take beyond its wait (the create before, the read after). Default 15000. */
  graceMs?: number;
  /** Bytes of audio and images inlined per call at most. Default 16 MiB. */
  maxInlineBytes?: number;
  /** The fetch that downloads what is inlined. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

export const DEFAULT_WAIT_SECONDS: number;
export const MAX_WAIT_SECONDS: number;
export const DEFAULT_GRACE_MS: number;
export const MAX_LOCAL_FILE_BYTES: number;
/** The callback URL of the stdio server when it is given none: one that goes nowhere (it waits). */
export const NOWHERE: string;
/** An `McpServer` with one tool per operation. */
export function createMcpServer(options: McpOptions): McpServer;
/**
 * Serves the tools over stdio until stdin closes: local files on (within `roots` and the client's
 * roots), the callback URL pinned (`callbackUrl` or `NOWHERE`), TUNESMITH_API_KEY blanked out.
 */
export function serveMcpStdio(options: Omit<McpOptions, "localFiles">): Promise<{ close(): Promise<void> }>;
