// The command line of `tunesmith`, read against the generated operation table: which operation,
// its request (every `--name value` is a request field, typed by the operation's schema; the
// Client refuses a field it does not know, with the closest known name), and the CLI's own flags.
import { OPERATIONS } from "../operations.generated.js";

/** Flags of the CLI itself; every other `--name` is a field of the request. */
export const CLI_FLAGS = {
  wait: "boolean",
  timeout: "string",
  out: "string",
  download: "boolean",
  json: "boolean",
  help: "boolean",
  request: "string",
};

/** Shorter names of the commands people type most. */
export const ALIASES = { upload: "uploadFile", status: "getTask", credits: "getCredits" };

export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
}

export const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

/** The operation a command names (`generate`, `add-instrumental`, `addInstrumental`, an alias). */
export function findOperation(command) {
  const name = ALIASES[command] ?? camel(command);
  return OPERATIONS.find((op) => op.name === name) ?? null;
}

/** What a positional argument is, per kind of operation. */
function positionalField(op) {
  if (op.call === "file") return "path";
  if (op.call === "url" || op.call === "base64") return op.firstArgument;
  if (op.family && op.query === op.name) return op.queryField;
  return null;
}

function typed(op, field, text) {
  const type = op.input.properties[field]?.type;
  if ((type === "number" || type === "integer") && text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  // Anything else goes as written: the Client's check names the field and the rule it breaks.
  return text;
}

/** `{ request, flags, path }` of an operation's arguments. */
export function readArguments(op, argv) {
  const request = {};
  const flags = {};
  let path;
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = camel(arg.slice(2, eq < 0 ? undefined : eq));
    let value = eq < 0 ? undefined : arg.slice(eq + 1);
    let negated = false;
    if (value === undefined && name.startsWith("no") && /^no[A-Z]/.test(name)) {
      negated = true;
      name = name[2].toLowerCase() + name.slice(3);
    }
    if (/^(apiKey|key|token)$/i.test(name)) {
      throw new UsageError("the key is read from TUNESMITH_API_KEY only, never from arguments (they show in `ps` and shell history)");
    }
    const cli = CLI_FLAGS[name];
    const type = cli ?? op.input.properties[name]?.type;
    if (type === "boolean") {
      const v = negated ? false : value === undefined ? true : value === "true" ? true : value === "false" ? false : value;
      if (cli) flags[name] = v;
      else request[name] = v;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${kebab(name)} needs a value`);
      value = argv[++i];
    }
    if (cli) flags[name] = value;
    else if (type === "array") (request[name] ??= []).push(value);
    else request[name] = typed(op, name, value);
  }
  if (flags.request !== undefined) {
    let parsed;
    try {
      parsed = JSON.parse(flags.request);
    } catch {
      throw new UsageError("--request must be a JSON object");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError("--request must be a JSON object");
    Object.assign(request, parsed, { ...request });
  }
  const slot = positionalField(op);
  if (positional.length > (slot ? 1 : 0)) {
    throw new UsageError(`${kebab(op.name)} takes ${slot ? `one ${slot}` : "no argument"} besides its --options; got: ${positional.join(" ")}`);
  }
  if (slot && positional.length === 1) {
    if (slot === "path") path = positional[0];
    else request[slot] = positional[0];
  }
  if (op.call === "file" && path === undefined) throw new UsageError(`${kebab(op.name)} takes the path of the file to upload`);
  if (flags.timeout !== undefined && !(Number(flags.timeout) > 0)) throw new UsageError("--timeout takes a number of seconds");
  return { request, flags, path };
}
