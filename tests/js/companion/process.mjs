// Starting and stopping `serve.mjs` from a test or benchmark, and reading its memory.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const SERVE = fileURLToPath(new URL("./serve.mjs", import.meta.url));

/** Starts a companion process; resolves with `{ url, child, output, rssMb(), kill(signal) }`. */
export async function spawnCompanion(env = {}) {
  const child = spawn(process.execPath, [SERVE], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const output = [];
  child.stderr.on("data", (d) => output.push(String(d)));
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
      output.push(String(d));
      const m = text.match(/ready (\S+)/);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`the companion exited (${code}): ${output.join("")}`)));
  });
  return {
    url,
    child,
    output,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
    },
    async kill(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
  };
}

/** A multipart body of `bytes` zero bytes, made chunk by chunk (never held whole). */
export function multipartStream(bytes, boundary = "companion-upload-boundary") {
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="uploadPath"\r\n\r\ncompanion\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(256 * 1024);
  let left = bytes;
  let stage = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (stage === 0) {
        stage = 1;
        return controller.enqueue(head);
      }
      if (left > 0) {
        const n = Math.min(left, chunk.byteLength);
        left -= n;
        return controller.enqueue(n === chunk.byteLength ? chunk : chunk.subarray(0, n));
      }
      controller.enqueue(tail);
      controller.close();
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, length: head.byteLength + bytes + tail.byteLength };
}
