// Each user's uploads in a folder of their own. The service keeps one namespace for the whole
// account and overwrites a name that exists, so the companion puts every upload of a user under
// `u-<keyed hash of the user>/`, followed by the user's own `uploadPath`: one user's name never
// reaches another's file (nor an upload without a name another's `blob.wav`). The hash is keyed with
// the service key, so a folder's name says nothing of who owns it, and every instance agrees on it.
// A JSON upload's field is rewritten; a stream upload's multipart body is rewritten as it passes.
import { refuse } from "./answers.js";
import { validateRequest } from "./wasm.js";

/** @typedef {import("./options.js").Context} Context */
/** @typedef {import("./answers.js").Reply} Reply */

/** The longest `uploadPath` the service takes, the folder included. */
const MAX_PATH = 512;
/** An encoded `/`, `\`, `.`, NUL or `%`: a name a server decodes could climb out of the folder. */
const ENCODED = /%(?:2f|5c|2e|00|25)/i;
/** The fields that place a file, in any case (a service may read names without regard to case). */
const PLACING = new Set(["uploadpath", "filename"]);

/** Each companion's HMAC key, and the folder of each user it has seen lately. */
/** @type {WeakMap<Context, { key: Promise<CryptoKey>, folders: Map<string, string> }>} */
const keys = new WeakMap();
const MAX_FOLDERS = 10000;

/**
 * The folder of `user`'s uploads: `u-` and 22 characters (128 bits) of an HMAC-SHA-256 of the user
 * id, keyed with the service key.
 * @param {Context} ctx @param {string} user
 */
export async function uploadFolder(ctx, user) {
  let entry = keys.get(ctx);
  if (!entry) {
    const raw = new TextEncoder().encode(`tunesmith upload folders\u0000${ctx.apiKey}`);
    const key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    entry = { key, folders: new Map() };
    keys.set(ctx, entry);
  }
  const known = entry.folders.get(user);
  if (known) return known;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await entry.key, new TextEncoder().encode(user)));
  let text = "";
  for (const b of mac.subarray(0, 16)) text += String.fromCharCode(b);
  const folder = `u-${btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
  if (entry.folders.size >= MAX_FOLDERS) entry.folders.clear();
  entry.folders.set(user, folder);
  return folder;
}

/** @param {string} field @param {string} message @param {string} rule */
const invalid = (field, message, rule = "safe_path") => refuse(400, "validation", `\`${field}\` ${message}`, { field, rule });

/**
 * The refusal of a name that could leave its folder once a server decodes it, or null.
 * @param {string} field @param {unknown} value
 */
function encoded(field, value) {
  if (typeof value === "string" && ENCODED.test(value)) {
    return invalid(field, "must not hold a percent-encoded `/`, `\\`, `.`, NUL or `%`");
  }
  return null;
}

/**
 * `uploadPath` of `user`: their folder, then their own path (already checked: relative, no `..`).
 * @param {string} folder @param {unknown} path @returns {string | Reply}
 */
function placed(folder, path) {
  const own = typeof path === "string" ? path.replace(/^\/+|\/+$/g, "") : "";
  const full = own ? `${folder}/${own}` : folder;
  if (full.length > MAX_PATH) {
    return invalid("uploadPath", `must be at most ${MAX_PATH - folder.length - 1} characters through this companion`, "range");
  }
  return full;
}

/**
 * Puts a JSON upload (`uploadFromUrl`, `uploadBase64`) in `user`'s folder: its `uploadPath` is
 * rewritten in `fields`, which the operation's rules have passed. A refusal when a name could leave
 * the folder or a field placing the file is spelled another way.
 * @param {Context} ctx @param {string} user @param {Record<string, unknown>} fields
 * @returns {Promise<Reply | null>}
 */
export async function placeJsonUpload(ctx, user, fields) {
  for (const name of Object.keys(fields)) {
    if (PLACING.has(name.toLowerCase()) && name !== "uploadPath" && name !== "fileName") {
      return invalid(name, "is not a field of an upload (`uploadPath` and `fileName` are)", "unknown");
    }
  }
  const bad = encoded("uploadPath", fields.uploadPath) ?? encoded("fileName", fields.fileName);
  if (bad) return bad;
  const path = placed(await uploadFolder(ctx, user), fields.uploadPath);
  if (typeof path !== "string") return path;
  fields.uploadPath = path;
  return null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Where `needle` starts in `hay` at or after `from`, or -1. @param {Uint8Array} hay @param {Uint8Array} needle @param {number} from */
function indexOf(hay, needle, from) {
  const first = needle[0];
  const last = hay.length - needle.length;
  outer: for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** @param {Uint8Array} a @param {Uint8Array} b @returns {Uint8Array} */
function concat(a, b) {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The longest part header block read (a part's headers are a line or two). */
const MAX_HEADERS = 16 * 1024;
/** The longest value of a field that places the file. */
const MAX_FIELD = 4 * 1024;

/**
 * A parameter of a `Content-Disposition` header (`name`, `filename`), unquoted; null when absent.
 * @param {string} header @param {string} param
 */
function dispositionParam(header, param) {
  const m = header.match(new RegExp(`;\\s*${param}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i"));
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2];
}

/**
 * A stream upload's multipart body with its file put in `user`'s folder, as it passes: each
 * `uploadPath` part is rewritten (or one added at the end), the file's own name and `fileName` are
 * checked, and the file's bytes go through as they come. `problem()` is the refusal when the body
 * was stopped for a name that could leave the folder (or a body that is not multipart).
 * @param {Context} ctx @param {string} user @param {ReadableStream<Uint8Array>} body @param {string} contentType
 * @returns {Promise<{ body: ReadableStream<Uint8Array>, problem: () => Reply | null } | { refusal: Reply }>}
 */
export async function placeStreamUpload(ctx, user, body, contentType) {
  const boundary = /^multipart\/form-data\s*;/i.test(contentType) ? dispositionParam(contentType, "boundary") : null;
  if (!boundary) return { refusal: invalid("file", "must be sent as multipart/form-data with a boundary", "type") };
  const folder = await uploadFolder(ctx, user);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const headerEnd = encoder.encode("\r\n\r\n");
  /** @type {Reply | null} */
  let problem = null;
  // The body is read as if it began with a line break: its first delimiter is then like the others.
  /** @type {Uint8Array} */
  let buffer = encoder.encode("\r\n");
  /** @type {"preamble" | "after" | "headers" | "file" | "field" | "end"} */
  let state = "preamble";
  /** @type {string | null} */
  let field = null; // "uploadpath" or "filename", while such a part's value is read
  /** @type {Uint8Array} */
  let value = new Uint8Array(0);
  let sawPath = false;
  let sawName = false;

  /** @param {Reply} reply */
  const stop = (reply) => {
    problem = reply;
    throw new Error("the upload was stopped");
  };
  /** @param {string} text @param {number} [n] */
  const checked = (text, n) => {
    try {
      validateRequest("uploadFile", { fileName: text });
    } catch {
      stop(invalid(n === undefined ? "file" : "fileName", "must be one file name without `/`, `\\`, `:`, control characters, `.` or `..`"));
    }
  };

  /** Handles what `buffer` holds; returns the bytes to send on. @param {boolean} last */
  const step = (last) => {
    /** @type {Uint8Array[]} */
    const out = [];
    for (;;) {
      if (state === "preamble" || state === "file" || state === "field") {
        const at = indexOf(buffer, delimiter, 0);
        // Without a delimiter, all but what could be the start of one is content.
        const upto = at === -1 ? Math.max(0, buffer.length - delimiter.length + 1) : at;
        const content = buffer.subarray(0, upto);
        if (state === "file") out.push(content);
        else if (state === "field") {
          value = concat(value, content.slice());
          if (value.length > MAX_FIELD) stop(invalid(field === "uploadpath" ? "uploadPath" : "fileName", `must be at most ${MAX_FIELD} bytes`, "range"));
        }
        if (at === -1) {
          buffer = buffer.slice(upto);
          return out;
        }
        if (state === "field") {
          const text = decoder.decode(value);
          if (field === "uploadpath") {
            const bad = encoded("uploadPath", text);
            if (bad) stop(bad);
            try {
              validateRequest("uploadFile", { uploadPath: text });
            } catch (e) {
              stop(invalid("uploadPath", /** @type {Error} */ (e).message.replace(/^`?uploadPath`?\s*/, "")));
            }
            const path = placed(folder, text);
            if (typeof path !== "string") stop(path);
            out.push(encoder.encode(/** @type {string} */ (path)));
          } else {
            const bad = encoded("fileName", text);
            if (bad) stop(bad);
            if (text !== "") checked(text, 1);
            out.push(value);
          }
          value = new Uint8Array(0);
          field = null;
        }
        // The delimiter goes on as it is; what follows it says whether another part comes.
        if (state !== "preamble") out.push(delimiter);
        else out.push(delimiter.subarray(2));
        buffer = buffer.slice(at + delimiter.length);
        state = "after";
      }
      if (state === "after") {
        if (buffer.length < 2) {
          if (last) stop(invalid("file", "is not a complete multipart/form-data body", "type"));
          return out;
        }
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          // The closing delimiter: a body that named no folder gets one, before it.
          if (!sawPath) {
            const added = `\r\nContent-Disposition: form-data; name="uploadPath"\r\n\r\n${folder}\r\n--${boundary}`;
            out.push(encoder.encode(added));
          }
          out.push(buffer);
          buffer = new Uint8Array(0);
          state = "end";
          return out;
        }
        state = "headers";
      }
      if (state === "headers") {
        const at = indexOf(buffer, headerEnd, 0);
        if (at === -1) {
          if (buffer.length > MAX_HEADERS || last) stop(invalid("file", "is not a readable multipart/form-data body", "type"));
          return out;
        }
        const headers = decoder.decode(buffer.subarray(0, at));
        const disposition = headers.split("\r\n").find((l) => /^content-disposition\s*:/i.test(l)) ?? "";
        const spelled = dispositionParam(disposition, "name") ?? "";
        const name = spelled.toLowerCase();
        if (PLACING.has(name) && spelled !== "uploadPath" && spelled !== "fileName") {
          stop(invalid(spelled, "is not a field of an upload (`uploadPath` and `fileName` are)", "unknown"));
        }
        if (/;\s*filename\*/i.test(disposition)) stop(invalid("file", "must name its file with `filename=`, not `filename*=`", "type"));
        const original = dispositionParam(disposition, "filename");
        if (original) {
          const bad = encoded("file", original);
          if (bad) stop(bad);
          checked(original);
        }
        if (PLACING.has(name)) {
          if (name === "uploadpath" ? sawPath : sawName) {
            stop(invalid(name === "uploadpath" ? "uploadPath" : "fileName", "is given more than once", "repeated"));
          }
          if (name === "uploadpath") sawPath = true;
          else sawName = true;
          field = name;
          state = "field";
        } else state = "file";
        out.push(buffer.subarray(0, at + headerEnd.length).slice());
        buffer = buffer.slice(at + headerEnd.length);
        continue;
      }
      if (state === "end") {
        out.push(buffer);
        buffer = new Uint8Array(0);
        return out;
      }
    }
  };

  const rewritten = body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        buffer = concat(buffer, chunk);
        for (const piece of step(false)) if (piece.length > 0) controller.enqueue(piece);
      },
      flush(controller) {
        for (const piece of step(true)) if (piece.length > 0) controller.enqueue(piece);
        if (state !== "end") stop(invalid("file", "is not a complete multipart/form-data body", "type"));
      },
    }),
  );
  return { body: rewritten, problem: () => problem };
}
