// The tools of `tunesmith/mcp`, one per operation of the generated table (operations.generated.js):
// each turns its arguments into one call of the package's `Client` and the record it resolves with
// into MCP content. Validation, retries, waiting and the words of errors are the Client's.
import { McpServer, fromJsonSchema } from "@modelcontextprotocol/server";
import { OPERATIONS } from "../operations.generated.js";
import { follow, stepsOf } from "../follow.js";
import { FAMILIES_WITH_AUDIO } from "../media.js";
import { errorResult, scrubber, toolResult } from "./present.js";

/** The wait of a call when the caller sets none: under the minute after which hosts cut calls. */
export const DEFAULT_WAIT_SECONDS = 50;
/** The longest wait a caller may ask for (a waiter's own default deadline). */
export const MAX_WAIT_SECONDS = 600;
/** What a call may take beyond its wait: the create before it and the read after it. */
export const DEFAULT_GRACE_MS = 15_000;
/** Part of the wait kept for reading the task's record when the task has not ended. */
const READ_RESERVE_MS = 3_000;

// The Client checks every request (its ValidationError names the field and the rule), before
// anything is charged; a second check by the SDK would answer first, in other words, and only
// for the rules a JSON Schema can say. The schemas are advertised, not enforced, here.
const ADVERTISE_ONLY = { getValidator: () => (input) => ({ valid: true, data: input, errorMessage: undefined }) };

/**
 * Each operation's output schema, made once per process: the SDK compiles a schema given without a
 * validator at once, with one validator of its own that keeps every schema object it is given, so a
 * schema made anew for each server (the companion makes one per `/mcp` request) would be compiled
 * again and kept for good, some 0.8 MB a request.
 */
const outputSchemas = new Map();
const outputSchema = (op) => {
  let schema = outputSchemas.get(op);
  if (!schema) outputSchemas.set(op, (schema = fromJsonSchema(portable(op.finalOutput ?? op.output))));
  return schema;
};

/** Whether the tool of `op` waits for a task: creates, and the status queries of a family. */
const waits = (op) => op.family !== null && (op.creates || op.query === op.name);

/**
 * `schema` with every list of types (`type: ["string", "integer"]`, an epoch) as an `anyOf` of one
 * type each: the form every JSON Schema dialect and strict validator (Ajv's `strictTypes`) reads.
 */
export function portable(schema) {
  if (Array.isArray(schema)) return schema.map(portable);
  if (!schema || typeof schema !== "object") return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === "properties" ? Object.fromEntries(Object.entries(v).map(([p, x]) => [p, portable(x)])) : portable(v);
  if (Array.isArray(out.type) && out.anyOf === undefined) {
    out.anyOf = out.type.map((type) => ({ type }));
    delete out.type;
  }
  return out;
}

/** What the roots of local files are, for the words of `uploadFile`. */
const rootsText = (local) =>
  `a regular file inside these roots (after symlinks): ${local.roots.join(", ") || "none"}; ` +
  `no file or folder whose name starts with a dot; at most ${Math.round(local.maxBytes / 1e6)} MB`;

function inputSchema(op, o) {
  const s = structuredClone(op.input);
  if (op.callback && o.callbackUrl) {
    // Pinned by whoever started the server: an agent never chooses where results are posted.
    delete s.properties[op.callback];
    s.required = s.required.filter((f) => f !== op.callback);
  } else if (op.callback) {
    // The server supplies it (the companion's own): results come by waiting.
    s.required = s.required.filter((f) => f !== op.callback);
    s.properties[op.callback].description += ". Optional here: the server sets one when it is left out.";
  }
  if (op.call === "file") {
    s.properties.path = { type: "string", description: `Path of the local file to upload: ${rootsText(o.localFiles)}` };
    s.required = ["path", ...s.required];
  }
  if (waits(op)) {
    s.properties.waitSeconds = {
      type: "number",
      minimum: 0,
      maximum: o.maxWaitSeconds,
      default: o.defaultWaitSeconds,
      description:
        `How long this call may wait for the task to end, in seconds (0: answer at once with its current record). ` +
        `The call returns within this plus ${o.graceMs / 1000} s; a task still running is answered with its current record.`,
    };
  }
  if (FAMILIES_WITH_AUDIO.has(op.family)) {
    s.properties.inlineAudio = {
      type: "boolean",
      default: false,
      description: `true: the audio files themselves in the answer (at most ${Math.round(o.maxInlineBytes / 1e6)} MB in all), besides their links`,
    };
  }
  return s;
}

function description(op, o) {
  let text = `${op.summary}.`;
  if (op.call === "file") {
    text += ` Reads only ${rootsText(o.localFiles)}.`;
  }
  if (op.creates) {
    text +=
      ` Starts a ${op.family.replace("_", " ")} task (charged), then waits up to \`waitSeconds\` (default ${o.defaultWaitSeconds}) for it to end:` +
      ` the answer is the final record, or the current one while it runs (then call \`${op.query}\` with its \`${op.queryField}\` and \`waitSeconds\`).`;
  } else if (waits(op)) {
    text += ` With \`waitSeconds\`, waits up to that long for the task to end.`;
  }
  return text;
}

/**
 * Registers the tools on `server`. `o.client(ctx)` gives the `Client` of a call (one per process
 * over stdio, one per caller through the companion).
 */
export function registerTools(server, o) {
  const scrub = scrubber(o.secrets);
  for (const op of OPERATIONS) {
    if (o.allow && !o.allow.has(op.name)) continue;
    if (op.call === "file" && !o.localFiles) continue;
    const tool = server.registerTool(
      op.name,
      {
        title: op.summary,
        description: description(op, o),
        inputSchema: fromJsonSchema(portable(inputSchema(op, o)), ADVERTISE_ONLY),
        outputSchema: outputSchema(op),
        annotations: {
          readOnlyHint: !op.creates && op.call === "request" && op.query === op.name,
          destructiveHint: false,
          idempotentHint: !op.creates,
          openWorldHint: true,
        },
      },
      async (args, ctx) => scrub(await run(op, args ?? {}, ctx, o)),
    );
    if (op.call === "file") {
      // Offered only while there are roots (or the client's are being read); their words follow them.
      const refresh = () => {
        tool.update({
          description: description(op, o),
          paramsSchema: fromJsonSchema(portable(inputSchema(op, o)), ADVERTISE_ONLY),
          enabled: o.localFiles.roots.length > 0 || o.localFiles.pending !== null,
        });
      };
      o.localFiles.onRootsChanged = refresh;
      if (o.localFiles.roots.length === 0) tool.disable();
    }
  }
}

/**
 * MCP progress for the caller's progress token, if it sent one: each value only when it rises.
 * `flush()` resolves once every notification is out, so none trails the call's result.
 */
function progressOf(ctx) {
  const token = ctx.mcpReq._meta?.progressToken;
  let sent = 0;
  let queue = Promise.resolve();
  const report = (progress, total, message) => {
    if (token === undefined || progress <= sent) return;
    sent = progress;
    const params = { progressToken: token, progress, total, message };
    queue = queue.then(() => ctx.mcpReq.notify({ method: "notifications/progress", params })).catch(() => {});
  };
  report.flush = () => queue;
  return report;
}

/**
 * Progress of a task: 1 when created (or queried), then 1 + the rank of each step the follower
 * reports (follow.js: a music task's stages, the others' states), up to the number of steps.
 */
function reporter(progress, op, taskId) {
  const steps = stepsOf(op.family);
  const report = (step, what) => progress(step, steps.length, `${op.name} ${taskId}: ${what}`);
  report.rank = (rank) => report(1 + rank, steps[rank]);
  report.done = () => report(steps.length, "done");
  return report;
}

async function run(op, args, ctx, o) {
  const { waitSeconds = o.defaultWaitSeconds, inlineAudio = false, path, ...request } = args;
  if (waits(op) && !(typeof waitSeconds === "number" && waitSeconds >= 0 && waitSeconds <= o.maxWaitSeconds)) {
    return errorResult(null, `waitSeconds: must be a number of seconds from 0 to ${o.maxWaitSeconds}`);
  }
  if (op.callback && o.callbackUrl && request[op.callback] !== undefined) {
    const message = `${op.callback}: set by the server that runs these tools (TUNESMITH_CALLBACK_URL), never by a tool call; leave it out`;
    return errorResult({ name: "ValidationError", kind: "validation", field: op.callback, rule: "server_set", message });
  }
  const waitMs = waits(op) ? waitSeconds * 1000 : o.defaultWaitSeconds * 1000;
  const started = Date.now();
  // The bound of the whole call; the caller's cancellation stops it sooner.
  const bound = AbortSignal.timeout(waitMs + o.graceMs);
  const signal = AbortSignal.any([ctx.mcpReq.signal, bound]);
  const family = op.family ?? op.name;
  const progress = progressOf(ctx);
  try {
    const client = await o.client(ctx);
    if (op.creates && op.callback && request[op.callback] === undefined && o.callbackUrl) {
      request[op.callback] = o.callbackUrl;
    }
    let record;
    let running = false;
    if (op.creates || waits(op)) {
      let taskId;
      if (op.creates) {
        ({ taskId } = await client[op.name](request, { signal }));
      } else {
        taskId = request[op.queryField];
        if (waitSeconds === 0) record = await client[op.name](request, { signal });
      }
      const report = reporter(progress, op, taskId);
      report(1, op.creates ? "created" : "queried");
      // The read after a wait that ran out fits in the wait, but never takes most of a short one.
      const left = started + waitMs - Date.now() - Math.min(READ_RESERVE_MS, waitMs / 10);
      if (!record && left > 0) {
        try {
          record = await follow({
            family: op.family,
            wait: (onProgress) => client[op.waiter](taskId, { signal, timeoutMs: left, onProgress }),
            onProgress: (_, rank) => report.rank(rank),
          });
          report.done();
        } catch (e) {
          if (e?.kind !== "timeout") throw e;
        }
      }
      if (!record) {
        record = await client[op.query]({ [op.queryField]: taskId }, { signal });
        running = true;
      }
    } else {
      record = await callOnce(client, op, request, path, signal, progress, o);
    }
    await progress.flush();
    return await toolResult(family, record, {
      running,
      note: running ? `still running after ${Math.round((Date.now() - started) / 1000)} s: call ${op.query} with ${op.queryField} "${record?.taskId ?? ""}" and waitSeconds to keep waiting` : null,
      inlineAudio,
      maxInlineBytes: o.maxInlineBytes,
      fetch: o.fetch,
      signal,
    });
  } catch (e) {
    if (bound.aborted && !ctx.mcpReq.signal.aborted) {
      return errorResult(
        e,
        `no answer within the call's bound (${(waitMs + o.graceMs) / 1000} s)` +
          (op.creates ? ": the task may have been created; its id was not received" : ""),
      );
    }
    return errorResult(e);
  }
}

/** An operation that answers at once: a request, nothing, or an upload and its options. */
async function callOnce(client, op, request, path, signal, progress, o) {
  switch (op.call) {
    case "none":
      return client[op.name]({}, { signal });
    case "url":
    case "base64": {
      const { [op.firstArgument]: first, ...options } = request;
      return client[op.name](first, { ...options, signal });
    }
    case "file": {
      const file = await o.localFiles.read(path);
      const onProgress = ({ loaded, total }) => progress(loaded, total, `uploading ${file.name}`);
      return client[op.name](file, { ...request, onProgress, signal });
    }
    default:
      return client[op.name](request, { signal });
  }
}
