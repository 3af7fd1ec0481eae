#!/usr/bin/env node
// `tunesmith`: every operation of the service as a subcommand, generated from the operation table,
// over the package's Client (which validates, retries, waits and words the errors). The key comes
// from TUNESMITH_API_KEY only; TUNESMITH_BASE_URL and TUNESMITH_UPLOAD_URL point at other hosts.
import { lstat, mkdir, stat } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { OPERATIONS } from "../operations.generated.js";
import { follow, hasFailed, isFinal } from "../follow.js";
import { filesOf, extensionOf } from "../media.js";
import { ALIASES, UsageError, findOperation, kebab, readArguments } from "./args.js";
import { createOutput } from "./output.js";
import { checkAudio } from "./audio.js";

/** Exit codes, by the kind of the error (documented in the README and `tunesmith help`). */
export const EXIT = Object.freeze({
  ok: 0,
  other: 1,
  usage: 2,
  validation: 3,
  unauthorized: 4,
  insufficientCredits: 5,
  rateLimited: 6,
  network: 7,
  taskFailed: 8,
  interrupted: 130,
});

const BY_KIND = {
  validation: EXIT.validation,
  unauthorized: EXIT.unauthorized,
  insufficient_credits: EXIT.insufficientCredits,
  rate_limited: EXIT.rateLimited,
  maintenance: EXIT.rateLimited,
  network: EXIT.network,
  timeout: EXIT.network,
  task_failed: EXIT.taskFailed,
  aborted: EXIT.interrupted,
};

export const exitCodeOf = (error) => (error instanceof UsageError ? EXIT.usage : BY_KIND[error?.kind] ?? EXIT.other);

const DEFAULT_OUT = "{title}-{index}.{ext}";
/** The service demands a callback URL on creates; the CLI waits instead, so one that goes nowhere. */
const NOWHERE = "https://callback.invalid/tunesmith-cli";

function help() {
  const lines = [
    "usage: tunesmith <operation> [argument] [--field value ...] [--wait] [--timeout S] [--out TEMPLATE] [--download] [--force] [--json]",
    "       tunesmith upload <file> | status <taskId> [--wait] [--download] | credits | schema <operation> | help <operation> | mcp | demo",
    "",
    "Every --field is a field of the operation's request (`tunesmith schema <operation>` lists them); booleans take",
    "--flag, --no-flag or --flag=false. --wait follows a started task to its end; --out saves its files by template",
    `({title} {index} {ext} {id} {taskId}; default ${DEFAULT_OUT}); --download saves them with the default; an existing`,
    "file is kept (the command fails) unless --force. An audio URL that is not audio is refused before the task is paid",
    "for, unless --skip-audio-check.",
    "",
    "Environment: TUNESMITH_API_KEY (the key: never an argument), TUNESMITH_BASE_URL, TUNESMITH_UPLOAD_URL,",
    "TUNESMITH_CALLBACK_URL (set on creates; default: a URL that goes nowhere, the CLI waits instead).",
    "",
    "Exit codes: 0 ok, 1 other error, 2 usage, 3 validation (nothing sent), 4 key refused, 5 not enough credits,",
    "6 rate limited or maintenance, 7 network or timeout, 8 task failed, 130 interrupted (the task goes on).",
    "",
    "operations:",
    ...OPERATIONS.map((op) => `  ${kebab(op.name).padEnd(26)}${op.summary}`),
    "",
    `aliases: ${Object.entries(ALIASES).map(([a, o]) => `${a} = ${kebab(o)}`).join(", ")}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** `tunesmith <operation> --help` and `tunesmith help <operation>`: its fields, as options. */
function operationHelp(op) {
  const fields = Object.entries(op.input.properties).map(([f, s]) => {
    // The CLI fills in the callback URL of a create itself: required of the request, not of the user.
    const mark =
      op.creates && f === op.callback
        ? "(default: TUNESMITH_CALLBACK_URL, else a URL that goes nowhere) "
        : op.input.required.includes(f)
          ? "(required) "
          : "";
    return `  --${kebab(f).padEnd(24)}${mark}${s.description ?? ""}`;
  });
  return `${kebab(op.name)}: ${op.summary}\n${fields.join("\n")}\n`;
}

async function makeClient(out) {
  const { Client } = await import("tunesmith");
  const onUpload = (name) => (loaded, total) => out.upload(name, loaded, total);
  return {
    Client,
    client: (uploadName) =>
      new Client({
        apiKey: process.env.TUNESMITH_API_KEY || undefined,
        baseUrl: process.env.TUNESMITH_BASE_URL || undefined,
        uploadUrl: process.env.TUNESMITH_UPLOAD_URL || undefined,
        ...(uploadName ? { fetch: countingFetch(onUpload(uploadName)) } : {}),
      }),
  };
}

/** How long a rate limit or maintenance asks to wait, in words: "30 s", "2 min". */
function waitInWords(ms) {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.ceil(s / 60)} min`;
}

/**
 * Node's fetch sends a FormData upload whole, with no progress; this one streams the same
 * multipart body and counts its bytes as they are read, for the terminal's progress bar.
 */
function countingFetch(onBytes) {
  return async (input, init = {}) => {
    if (!(init.body instanceof FormData)) return fetch(input, init);
    const file = [...init.body.values()].find((v) => v instanceof Blob);
    const total = file?.size ?? 0;
    const encoded = new Request("http://localhost/", { method: "POST", body: init.body });
    const headers = new Headers(init.headers);
    headers.set("content-type", encoded.headers.get("content-type"));
    let loaded = 0;
    const counted = encoded.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          loaded += chunk.byteLength;
          onBytes(Math.min(loaded, total), total);
          controller.enqueue(chunk);
        },
      }),
    );
    return fetch(input, { ...init, headers, body: counted, duplex: "half" });
  };
}

const shellQuote = (s) => (/^[\w@%+=:,./{}-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * A title or an id as one file name: no separator, no control or bidi character, and no name made
 * only of dots (a title `..` in `{title}/{index}.{ext}` would write one folder up).
 */
function safeName(v) {
  const name = String(v ?? "").replace(/[\/\\:*?"<>|\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, "_").trim().slice(0, 80);
  return /^\.+$/.test(name) ? "_" : name || "untitled";
}

function fill(template, file, index, record) {
  const safe = safeName;
  const ext = extensionOf(file.url) || (file.mimeType?.split("/")[1] ?? "bin");
  return template.replace(/\{(title|index|ext|id|taskId)\}/g, (_, k) =>
    k === "title" ? safe(file.title) : k === "index" ? String(index + 1) : k === "ext" ? safe(ext) : k === "id" ? safe(file.id) : safe(record?.taskId),
  );
}

class FileExistsError extends Error {
  constructor(path) {
    super(`${path} exists: not overwritten (--force replaces it)`);
    this.name = "FileExistsError";
    this.kind = "file_exists";
  }
}

/** Saves the files by template; an existing file (or two files to one path) fails it before any download, unless `force`. */
async function save(files, template, record, out, signal, force) {
  const paths = files.map((file, i) => fill(template, file, i, record));
  if (!force) {
    for (const [i, path] of paths.entries()) {
      const there = await lstat(path).then(() => true, (e) => e.code !== "ENOENT");
      if (there || paths.indexOf(path) !== i) throw new FileExistsError(path);
    }
  }
  for (const [i, file] of files.entries()) {
    const path = paths[i];
    const response = await fetch(file.url, { signal });
    if (!response.ok || !response.body) throw Object.assign(new Error(`downloading ${file.url}: HTTP ${response.status}`), { kind: "network" });
    if (dirname(path) !== ".") await mkdir(dirname(path), { recursive: true });
    // "wx": a file made meanwhile is not overwritten either.
    await pipeline(Readable.fromWeb(response.body), createWriteStream(path, { flags: force ? "w" : "wx" }), { signal }).catch((e) => {
      throw e?.code === "EEXIST" ? new FileExistsError(path) : e;
    });
    out.saved(path, file.url);
  }
}

async function main(argv) {
  const json = argv.includes("--json") || !process.stdout.isTTY;
  const out = createOutput({ json });
  const [command, ...rest] = argv;
  if (command === "help" && rest[0] !== undefined) {
    const op = findOperation(rest[0]);
    if (!op) throw new UsageError(`unknown command ${rest[0]}: \`tunesmith help\` lists the operations`);
    process.stdout.write(operationHelp(op));
    return EXIT.ok;
  }
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(help());
    return EXIT.ok;
  }
  if (command === "--version") {
    const { default: meta } = await import("../package.json", { with: { type: "json" } });
    process.stdout.write(`${meta.version}\n`);
    return EXIT.ok;
  }
  if (command === "mcp") {
    // Its flags (--root ...), environment and words are the MCP server's own: mcp/cli.js.
    const { runMcp } = await import("../mcp/cli.js");
    return runMcp(rest);
  }
  if (command === "emulator") {
    // The emulator's wasm build on two ports, with the native binary's flags: cli/emulator.js.
    const { runEmulator } = await import("./emulator.js");
    return runEmulator(rest);
  }
  if (command === "demo") {
    // The demo as a static site (site/), served on a local port: cli/demo.js.
    const { runDemo } = await import("./demo.js");
    return runDemo(rest);
  }
  if (command === "schema") {
    const op = rest[0] && findOperation(rest[0]);
    if (!op) throw new UsageError(`schema takes an operation: ${OPERATIONS.map((o) => kebab(o.name)).join(", ")}`);
    const { name, summary, input, output, finalOutput } = op;
    process.stdout.write(`${JSON.stringify({ name, summary, input, output: finalOutput ?? output }, null, 2)}\n`);
    return EXIT.ok;
  }
  const op = findOperation(command);
  if (!op) throw new UsageError(`unknown command ${command}: \`tunesmith help\` lists the operations`);
  if (rest.includes("--help")) {
    process.stdout.write(operationHelp(op));
    return EXIT.ok;
  }
  const { request, flags, path } = readArguments(op, rest);
  const waiting = flags.wait === true;
  const template = flags.out ?? (flags.download ? DEFAULT_OUT : null);
  let file = null;
  if (op.call === "file") {
    const { readLocalFile } = await import("../mcp/local-file.js");
    // Node's own words for a missing file ("Unable to open file as blob") name neither the file nor
    // the cause, and a folder opens and then fails mid-upload: the argument is what is wrong.
    const why = await stat(path).then(
      (s) => (s.isFile() ? null : "not a file"),
      (e) => (e.code === "ENOENT" ? "no such file" : e.message),
    );
    if (why) throw new UsageError(`cannot read ${path}: ${why}`);
    file = await readLocalFile(path);
  }
  const { client: clientFor } = await makeClient(out);
  const client = clientFor(file?.name);

  // Ctrl-C stops waiting (or the request in flight), never the task: the resume command follows.
  const stop = new AbortController();
  let taskId = null;
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    stop.abort();
  });
  const signal = stop.signal;
  const resumeCommand = () => {
    const query = op.creates || op.family ? op.query : op.name;
    let cmd = `tunesmith ${kebab(query)} ${shellQuote(taskId)} --wait`;
    if (template) cmd += ` --out ${shellQuote(template)}`;
    return cmd;
  };

  try {
    if (op.creates && op.callback && request[op.callback] === undefined) {
      request[op.callback] = process.env.TUNESMITH_CALLBACK_URL || NOWHERE;
    }
    if (op.creates && flags.skipAudioCheck !== true) await checkAudio(op, request, signal);
    let record;
    if (op.call === "file") {
      record = await client.uploadFile(file, { ...request, signal, onProgress: ({ loaded, total }) => out.upload(file.name, loaded, total) });
    } else if (op.call === "url" || op.call === "base64") {
      const { [op.firstArgument]: first, ...options } = request;
      record = await client[op.name](first, { ...options, signal });
    } else if (op.call === "none") {
      record = await client[op.name]({}, { signal });
    } else {
      record = await client[op.name](request, { signal });
    }
    const family = op.family ?? op.name;
    if (op.family && !op.creates && hasFailed(record)) {
      // A task that has failed fails every command that reads it, as a wait for it does (exit 8, the
      // client's words for why): its waiter reads it once more and rejects with them.
      record = await client[op.waiter](request[op.queryField], { signal });
    }
    if (op.creates) {
      taskId = record.taskId;
      out.created(op.name, taskId);
    } else if (op.family) {
      taskId = request[op.queryField];
    }
    if (op.family && (waiting || (template && !op.creates))) {
      // A status read is shown first; a task that has ended is not waited for.
      const read = record;
      const timeoutMs = flags.timeout !== undefined ? Number(flags.timeout) * 1000 : undefined;
      record = await follow({
        family: op.family,
        read: op.creates ? undefined : () => read,
        wait: op.creates || !isFinal(read) ? (onProgress) => client[op.waiter](taskId, { signal, timeoutMs, onProgress }) : undefined,
        onProgress: (r, rank) => out.progress(op.name, op.family, r, rank),
      });
    }
    const files = filesOf(family, record);
    out.result(op.name, record, files);
    if (template && files.length) await save(files, template, record, out, signal, flags.force === true);
    return EXIT.ok;
  } catch (e) {
    if (interrupted) {
      if (taskId) out.interrupted(taskId, resumeCommand());
      else out.error(e, EXIT.interrupted, op.creates ? "interrupted before the service answered: the task may have been created" : null);
      return EXIT.interrupted;
    }
    const code = exitCodeOf(e);
    const retryAfterMs = code === EXIT.rateLimited && typeof e?.retryAfterMs === "number" ? e.retryAfterMs : null;
    const busy = e?.kind === "maintenance" ? "the service is down for maintenance" : "rate limited";
    // A wait that ran out of time leaves the task running, as Ctrl-C does: say how to resume.
    const hint =
      code === EXIT.unauthorized && !process.env.TUNESMITH_API_KEY
        ? "set TUNESMITH_API_KEY to your key"
        : e?.kind === "timeout" && taskId
          ? `task ${taskId} goes on; resume with: ${resumeCommand()}`
          : code === EXIT.rateLimited
            ? retryAfterMs !== null
              ? `${busy}: try again in ${waitInWords(retryAfterMs)}`
              : `${busy}: try again later`
            : e instanceof FileExistsError && taskId
              ? `save them with: tunesmith ${kebab(op.creates || op.family ? op.query : op.name)} ${shellQuote(taskId)} --out ${shellQuote(template)} --force`
              : null;
    out.error(e, code, hint, retryAfterMs);
    return code;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (e) => {
    const code = exitCodeOf(e);
    createOutput({ json: process.argv.includes("--json") || !process.stdout.isTTY }).error(e, code);
    process.exitCode = code;
  },
);
