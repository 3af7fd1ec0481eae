// `tunesmith mcp [--root DIR ...] [--no-client-roots]`: the stdio MCP server as a host spawns it.
// The key comes from TUNESMITH_API_KEY only; local files only from inside the roots the user
// gives (flags, TUNESMITH_MCP_ROOTS) or the host lists; the callback URL from
// TUNESMITH_CALLBACK_URL only. Everything it says goes to stderr: stdout is the protocol's.
import { delimiter } from "node:path";
import { LocalFileError, resolveRoots } from "./local-file.js";

export const USAGE =
  "usage: tunesmith mcp [--root DIR ...] [--no-client-roots]\n" +
  "  --root DIR          a folder whose files uploadFile may read (repeatable; also TUNESMITH_MCP_ROOTS,\n" +
  `                      folders separated by "${delimiter}"); with none, only the MCP client's roots count\n` +
  "  --no-client-roots   ignore the roots the MCP client lists\n" +
  "Environment: TUNESMITH_API_KEY (the key), TUNESMITH_BASE_URL, TUNESMITH_UPLOAD_URL, TUNESMITH_CALLBACK_URL,\n" +
  "TUNESMITH_MCP_ROOTS.\n";

/** The options of `tunesmith mcp`'s arguments and environment; throws a usage `Error` (`usage: true`). */
export function readMcpArguments(args, env = process.env) {
  const usage = (message) => Object.assign(new Error(`tunesmith mcp: ${message}\n${USAGE}`), { usage: true });
  const roots = (env.TUNESMITH_MCP_ROOTS ?? "").split(delimiter).filter(Boolean);
  let clientRoots = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--root") {
      const dir = args[++i];
      if (!dir || dir.startsWith("--")) throw usage("--root takes a folder");
      roots.push(dir);
    } else if (arg.startsWith("--root=")) {
      roots.push(arg.slice("--root=".length));
    } else if (arg === "--no-client-roots") {
      clientRoots = false;
    } else {
      throw usage(`unknown argument ${arg}`);
    }
  }
  try {
    resolveRoots(roots);
  } catch (e) {
    if (e instanceof LocalFileError) throw usage(e.message);
    throw e;
  }
  return { roots, clientRoots };
}

/** Runs the server; resolves with an exit code for a usage error, or null once serving. */
export async function runMcp(args, { env = process.env, stderr = process.stderr } = {}) {
  if (args.includes("--help") || args.includes("-h")) {
    stderr.write(USAGE);
    return 0;
  }
  let options;
  try {
    options = readMcpArguments(args, env);
  } catch (e) {
    if (!e.usage) throw e;
    stderr.write(`${e.message}`);
    return 2;
  }
  if (!env.TUNESMITH_API_KEY) {
    stderr.write("tunesmith mcp: TUNESMITH_API_KEY is not set: every tool call will be refused (unauthorized) until the server is started with it\n");
  }
  stderr.write(
    options.roots.length
      ? `tunesmith mcp: uploadFile reads only inside ${resolveRoots(options.roots).join(", ")}${options.clientRoots ? " and the client's roots" : ""}\n`
      : options.clientRoots
        ? "tunesmith mcp: no --root: uploadFile is offered only once the client lists roots\n"
        : "tunesmith mcp: no --root: uploadFile is not offered\n",
  );
  const { Client } = await import("tunesmith");
  const { serveMcpStdio } = await import("./index.js");
  const client = new Client({
    apiKey: env.TUNESMITH_API_KEY || undefined,
    baseUrl: env.TUNESMITH_BASE_URL || undefined,
    uploadUrl: env.TUNESMITH_UPLOAD_URL || undefined,
  });
  await serveMcpStdio({
    client,
    callbackUrl: env.TUNESMITH_CALLBACK_URL || undefined,
    roots: options.roots,
    clientRoots: options.clientRoots,
    secrets: [env.TUNESMITH_API_KEY].filter(Boolean),
    onRootsError: (e) => stderr.write(`tunesmith mcp: the client's roots could not be read: ${e?.message ?? e}\n`),
  });
  return null;
}
