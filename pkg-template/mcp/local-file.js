// A local file as a `File` for `uploadFile`, read from disk (Node): the stdio MCP server uploads
// what an agent names, but only inside the roots the user gave it (`checkLocalPath`); the CLI
// uploads what the user names on their own machine (`readLocalFile`). Never loaded by the companion.
import { constants, openAsBlob, realpathSync, statSync } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { mimeTypeOf } from "../media.js";

/** The largest local file the MCP server uploads by default: the service's recommended 100 MB. */
export const MAX_LOCAL_FILE_BYTES = 100 * 1000 * 1000;

/** A path the MCP server will not read: `field` is always `path`, `rule` says which check refused it. */
export class LocalFileError extends Error {
  constructor(rule, message) {
    super(message);
    this.name = "LocalFileError";
    this.kind = "validation";
    this.field = "path";
    this.rule = rule;
  }
}

/** The file at a path the user named (the CLI's `upload`), read lazily; no root applies. */
export async function readLocalFile(path) {
  const name = basename(path);
  const type = mimeTypeOf(`file:///${encodeURIComponent(name)}`) ?? "";
  const blob = await openAsBlob(path, { type });
  return new File([blob], name, { type });
}

/**
 * The roots of local files, each resolved with `realpath`: folder paths, or `file://` URIs (an MCP
 * client's `roots/list`). Throws a `LocalFileError` (rule `root`) naming a root that is not an
 * existing folder; `skipMissing` drops such roots instead (a client's roots may name anything).
 */
export function resolveRoots(list, { skipMissing = false } = {}) {
  const out = [];
  for (const given of list) {
    let path = given;
    try {
      if (typeof given === "string" && /^file:/i.test(given)) path = fileURLToPath(given);
      if (typeof path !== "string" || path === "") throw new Error("not a folder path");
      const real = realpathSync(resolve(path));
      if (!statSync(real).isDirectory()) throw new Error("not a folder");
      if (!out.includes(real)) out.push(real);
    } catch (e) {
      if (skipMissing) continue;
      throw new LocalFileError("root", `root ${given}: ${e.code === "ENOENT" ? "no such folder" : e.message}`);
    }
  }
  return out;
}

/** Whether `path` (absolute, resolved) is `root` or lies below it. */
function inside(root, path) {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** Whether a path below `root` has a part that starts with a dot (`.env`, `.ssh/id_ed25519`). */
const dotted = (root, path) => relative(root, path).split(sep).some((part) => part.startsWith("."));

/**
 * The one check between an agent's `path` and the disk: resolves with `{ path, size }`, the file's
 * real path and size, only when
 * - `roots` (from `resolveRoots`) is not empty,
 * - the path lies inside a root both as written (`..` resolved; a relative path is taken from the
 *   first root) and after `realpath` has followed every symlink,
 * - no part of it below the root starts with a dot, as written or as resolved,
 * - it is a regular file (not a folder, fifo, socket or device) of at most `maxBytes`.
 * Otherwise throws a `LocalFileError` whose `rule` is `roots`, `inside_roots`, `dot_file`,
 * `not_found`, `regular_file` or `max_bytes`. A path outside every root is refused before the
 * disk is touched, so the answer says nothing of what exists there.
 */
export async function checkLocalPath(path, roots, { maxBytes = MAX_LOCAL_FILE_BYTES } = {}) {
  if (!roots?.length) throw new LocalFileError("roots", "path: no local roots are set, so no local file may be read");
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new LocalFileError("type", "path: must be a non-empty path of a file inside the roots");
  }
  const written = resolve(roots[0], path);
  const root = roots.find((r) => inside(r, written));
  if (!root) throw new LocalFileError("inside_roots", `path: ${path} is not inside the roots (${roots.join(", ")})`);
  if (dotted(root, written)) throw new LocalFileError("dot_file", `path: ${path}: files and folders whose name starts with a dot are not read`);
  let real;
  try {
    real = await realpath(written);
  } catch (e) {
    throw new LocalFileError("not_found", `path: ${path}: ${e.code === "ENOENT" ? "no such file" : "cannot be read"}`);
  }
  const realRoot = roots.find((r) => inside(r, real));
  if (!realRoot) throw new LocalFileError("inside_roots", `path: ${path} leads outside the roots (through a symlink)`);
  if (dotted(realRoot, real)) throw new LocalFileError("dot_file", `path: ${path}: files and folders whose name starts with a dot are not read`);
  const s = await stat(real);
  if (!s.isFile()) throw new LocalFileError("regular_file", `path: ${path} is not a regular file`);
  if (s.size > maxBytes) throw new LocalFileError("max_bytes", `path: ${path} is ${s.size} bytes, past the ${maxBytes} bytes a local upload may take`);
  return { path: real, size: s.size };
}

/**
 * The file at `path` as a `File`, once `checkLocalPath` allows it. Read through one descriptor opened
 * without following a symlink and without blocking (a fifo swapped in after the check neither
 * hangs nor passes), whose own `fstat` must still show a regular file within `maxBytes`.
 */
export async function readRootedFile(path, roots, { maxBytes = MAX_LOCAL_FILE_BYTES } = {}) {
  const checked = await checkLocalPath(path, roots, { maxBytes });
  const handle = await open(checked.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => {
    throw new LocalFileError("regular_file", `path: ${path} could not be opened as a regular file`);
  });
  try {
    const s = await handle.stat();
    if (!s.isFile() || s.size > maxBytes) throw new LocalFileError("regular_file", `path: ${path} changed while it was read`);
    const bytes = await handle.readFile();
    if (bytes.byteLength > maxBytes) throw new LocalFileError("max_bytes", `path: ${path} grew past ${maxBytes} bytes`);
    const name = basename(checked.path);
    const type = mimeTypeOf(`file:///${encodeURIComponent(name)}`) ?? "";
    return new File([bytes], name, { type });
  } finally {
    await handle.close();
  }
}
