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
  force: "boolean",
  skipAudioCheck: "boolean",
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

/** Edit distance (insertions, deletions, substitutions), as the Client's own check of field names. */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) next.push(Math.min(row[j] + (a[i] === b[j] ? 0 : 1), row[j + 1] + 1, next[j] + 1));
    row = next;
  }
  return row[b.length];
}

/**
 * Refuses an option that is neither the CLI's nor a field of the operation, naming the closest known
 * one as the user would type it (the Client's own refusal comes only after its check of required
 * fields, and speaks of its JavaScript options). `--request` keys are checked against the fields.
 */
function unknownOption(op, typed, name, inRequest = false) {
  const spell = inRequest ? (k) => JSON.stringify(k) : (k) => `--${kebab(k)}`;
  const known = [...Object.keys(op.input.properties), ...(inRequest ? [] : Object.keys(CLI_FLAGS))];
  const wanted = kebab(name).toLowerCase();
  const [closest] = known.map((k) => [distance(kebab(k), wanted), k]).sort((a, b) => a[0] - b[0]);
  const near = closest && closest[0] <= 2 + Math.floor(wanted.length / 4) ? ` (did you mean ${spell(closest[1])}?)` : "";
  return new UsageError(`${typed} is not ${inRequest ? "a field" : "an option"} of ${kebab(op.name)}${near}; \`tunesmith ${kebab(op.name)} --help\` lists them`);
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
    if (!cli && !Object.hasOwn(op.input.properties, name)) throw unknownOption(op, arg.slice(0, eq < 0 ? undefined : eq), name);
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
    const unknown = Object.keys(parsed).find((key) => !Object.hasOwn(op.input.properties, key));
    if (unknown !== undefined) throw unknownOption(op, `${JSON.stringify(unknown)} in --request`, unknown, true);
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
