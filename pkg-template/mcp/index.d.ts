// Types of `tunesmith/mcp`: the MCP server of the package's operations.
import type { McpServer } from "@modelcontextprotocol/server";
import type { Client } from "tunesmith";

export interface McpOptions {
  /** The Client each tool call uses, or a function of the call returning one. */
  client: Client | ((ctx: unknown) => Client | Promise<Client>);
  /** Operations offered as tools. Default: all. */
  allow?: string[];
  /** Offer `uploadFile` with a local `path` (stdio only). Default false. */
  localFiles?: boolean;
  /** Callback URL set on creates that name none. */
  callbackUrl?: string;
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
/** An `McpServer` with one tool per operation. */
export function createMcpServer(options: McpOptions): McpServer;
/** Serves the tools over stdio until stdin closes. */
export function serveMcpStdio(options: Omit<McpOptions, "localFiles">): Promise<{ close(): Promise<void> }>;
