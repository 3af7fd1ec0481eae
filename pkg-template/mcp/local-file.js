// A local file as a `File` for `uploadFile`, read lazily from disk (Node): the stdio MCP server and
// the CLI upload what the user names on their own machine. Never loaded by the companion.
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import { mimeTypeOf } from "../media.js";

export async function readLocalFile(path) {
  const name = basename(path);
  const type = mimeTypeOf(`file:///${encodeURIComponent(name)}`) ?? "";
  const blob = await openAsBlob(path, { type });
  return new File([blob], name, { type });
}
