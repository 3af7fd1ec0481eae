// `cargo xtask bench --only companion`: what the companion server costs and saves.
//   1. service queries per completed task: a client on the companion's push stream against a client
//      polling through the companion (the emulator's request log, by tag);
//   2. delay from the emulator's stage change (createTime + k x stage delay) to `onProgress`, p50/p95;
//   3. the companion's memory with 1,000 connected pages, during a 100 MB upload, and with 48
//      maximal JSON bodies (Base64 uploads) sent at once, on a companion with the default limits;
//   4. forwarded record queries per second against the emulator directly (wrk, 64 connections, the
//      same run), as a ratio, with p99 latencies; and the CPU time each process spends on a query
//      (the ratio moves with what else the machine runs, the CPU time per query much less).
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// TUNESMITH_BENCH_STAGE_DELAY_MS, TUNESMITH_BENCH_EMULATOR_PID (for its CPU time; optional);
// TUNESMITH_BENCH_SMOKE=1 for one small run (bench/_lib.mjs).
// Prints one table; exits non-zero only when something broke.
import { execFile } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SMOKE, sized } from "../_lib.mjs";
import { GENERATE, KEY, MUSIC, PKG, emulatorRequests, pkg, session } from "../../tests/js/companion/harness.mjs";
import { multipartStream, spawnCompanion } from "../../tests/js/companion/process.mjs";

const { MAX_BASE64_JSON_BYTES } = await import(pathToFileURL(join(PKG, "server", "options.js")).href);
const STAGE_DELAY_MS = Number(process.env.TUNESMITH_BENCH_STAGE_DELAY_MS ?? 1500);
const TASKS = sized(20, 2);
const PAGES = sized(1000, 20);
const MB = 1024 * 1024;
const UPLOAD_MB = sized(100, 4);
const WRK_SECONDS = sized(5, 1);
const rows = [];
const row = (figure, value, goal = "", met = null) => {
  rows.push({ figure, value, goal, result: met === null ? "" : met ? "met" : "missed" });
  console.log(`  ${figure}: ${value}`);
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const companion = await spawnCompanion({
  COMPANION_LIMITS: JSON.stringify({
    requestsPerWindow: 1e9,
    tasksInFlight: 1e6,
    uploadBytes: 200 * MB,
    // One user (wrk's) on 64 connections: the per-user and total caps are measured elsewhere.
    requestsInFlight: 1e6,
    totalRequestsInFlight: 1e6,
    eventStreams: 1e6,
  }),
});
try {
  // ---- 1 and 2: push against polling ----------------------------------------------------------------
  const run = async (mode) => {
    const tag = `bench-${mode}-${Date.now()}`;
    const delays = [];
    await Promise.all(
      Array.from({ length: TASKS }, async (_, i) => {
        const headers = { ...session(`bench${i}`), "x-emulator-tag": tag };
        const client =
          mode === "push"
            ? new pkg.Client({ companionUrl: companion.url, headers })
            : new pkg.Client({ baseUrl: `${companion.url}/music`, uploadUrl: `${companion.url}/upload`, headers });
        const seen = [];
        const task = await client.generate(
          { ...GENERATE, callBackUrl: "https://example.invalid/cb" },
          { wait: { onProgress: (t) => seen.push({ stage: t.stage, at: Date.now() }) } },
        );
        if (task.state !== "succeeded") throw new Error(`${mode}: task ${task.taskId} ended ${task.state}`);
        const created = Date.parse(task.createTime);
        const k = { text: 1, first: 2, complete: 3 };
        for (const s of seen) if (k[s.stage]) delays.push(s.at - (created + k[s.stage] * STAGE_DELAY_MS));
      }),
    );
    const queries = (await emulatorRequests(tag)).filter((r) => r.path.includes("record-info")).length;
    return { perTask: queries / TASKS, delays };
  };
  console.log(`${TASKS} tasks each way, stages ${STAGE_DELAY_MS} ms apart`);
  const push = await run("push");
  const poll = await run("poll");
  row("service queries per completed task, push", push.perTask.toFixed(2), "<= 1", push.perTask <= 1);
  row("service queries per completed task, polling through the companion", poll.perTask.toFixed(2), ">= 4", poll.perTask >= 4);
  const p50 = pct(push.delays, 50);
  const p95 = pct(push.delays, 95);
  row("stage change -> onProgress with push, p50", `${p50} ms`);
  row("stage change -> onProgress with push, p95", `${p95} ms`, "<= 100 ms", p95 <= 100);
  row("stage change -> onProgress polling, p50 / p95", `${pct(poll.delays, 50)} / ${pct(poll.delays, 95)} ms`);

  // ---- 3: memory --------------------------------------------------------------------------------------
  const idle = await companion.rssMb();
  const pages = [];
  for (let i = 0; i < PAGES; i++) {
    const abort = new AbortController();
    const response = await fetch(`${companion.url}/events`, { headers: session(`page${i}`), signal: abort.signal });
    const reader = response.body.getReader();
    await reader.read(); // the first comment: the stream is open
    pages.push({ abort, reader });
  }
  await new Promise((r) => setTimeout(r, 500));
  const withPages = await companion.rssMb();
  row(`companion RSS idle / with ${PAGES} connected pages`, `${idle.toFixed(1)} / ${withPages.toFixed(1)} MB (${(((withPages - idle) * 1024) / PAGES).toFixed(1)} KB a page)`);
  for (const p of pages) p.abort.abort();
  await new Promise((r) => setTimeout(r, 500));
  const before = await companion.rssMb();
  let peak = before;
  const sampler = setInterval(async () => (peak = Math.max(peak, await companion.rssMb().catch(() => 0))), 50);
  const { body, contentType, length } = multipartStream(UPLOAD_MB * MB);
  const upload = await fetch(`${companion.url}/upload/api/file-stream-upload`, {
    method: "POST",
    headers: { ...session("uploader"), "content-type": contentType, "content-length": String(length) },
    body,
    duplex: "half",
  });
  const answer = await upload.json();
  clearInterval(sampler);
  if (upload.status !== 200) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(answer)}`);
  row(`companion RSS before / peak during a ${UPLOAD_MB} MB upload`, `${before.toFixed(1)} / ${peak.toFixed(1)} MB`, "flat (< +40 MB)", peak - before < 40);

  // ---- 4: throughput ----------------------------------------------------------------------------------
  const created = await (
    await fetch(`${companion.url}/music/api/v1/generate`, {
      method: "POST",
      headers: { ...session("wrk"), "content-type": "application/json" },
      body: JSON.stringify(GENERATE),
    })
  ).json();
  const taskId = created.data.taskId;
  // CPU time a process has run, all its threads, in ns (/proc/<pid>/task/*/schedstat; null where
  // there is none).
  const cpuNs = async (pid) => {
    const tasks = pid ? await readdir(`/proc/${pid}/task`).catch(() => null) : null;
    if (tasks === null) return null;
    const times = await Promise.all(tasks.map((t) => readFile(`/proc/${pid}/task/${t}/schedstat`, "utf8").catch(() => "0")));
    return times.reduce((sum, text) => sum + Number(text.split(" ")[0]), 0);
  };
  const emulatorPid = Number(process.env.TUNESMITH_BENCH_EMULATOR_PID) || null;
  const wrk = async (url, header) => {
    const [c0, e0] = await Promise.all([cpuNs(companion.child.pid), cpuNs(emulatorPid)]);
    const { stdout } = await promisify(execFile)("wrk", ["-t2", "-c64", `-d${WRK_SECONDS}s`, "--latency", "-H", header, url]);
    const [c1, e1] = await Promise.all([cpuNs(companion.child.pid), cpuNs(emulatorPid)]);
    const rps = Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
    if (!rps || /Non-2xx/.test(stdout)) throw new Error(`wrk on ${url}:\n${stdout}`);
    const timeouts = Number(stdout.match(/timeout (\d+)/)?.[1] ?? 0);
    const p50 = stdout.match(/^\s+50%\s+(\S+)/m)?.[1];
    const p99 = stdout.match(/^\s+99%\s+(\S+)/m)?.[1];
    const requests = Number(stdout.match(/(\d+) requests in/)?.[1]);
    const perQuery = (a, b) => (a === null || b === null || !requests ? null : (b - a) / 1000 / requests);
    return { rps, timeouts, p50, p99, companionUs: perQuery(c0, c1), emulatorUs: perQuery(e0, e1) };
  };
  const path = `/api/v1/generate/record-info?taskId=${taskId}`;
  // A first pass warms both (the companion's code, its pool's connections); the second counts.
  await wrk(`${companion.url}/music${path}`, `x-session: wrk-session`);
  const direct = await wrk(`${MUSIC}${path}`, `Authorization: Bearer ${KEY}`);
  const forwarded = await wrk(`${companion.url}/music${path}`, `x-session: wrk-session`);
  row(
    `record queries/s: emulator directly / through the companion (wrk -t2 -c64 -d${WRK_SECONDS}s)`,
    `${direct.rps.toFixed(0)} / ${forwarded.rps.toFixed(0)} (timeouts ${direct.timeouts} / ${forwarded.timeouts})`,
  );
  row("record query latency p50 / p99: emulator directly", `${direct.p50} / ${direct.p99}`);
  row("record query latency p50 / p99: through the companion", `${forwarded.p50} / ${forwarded.p99}`);
  const ratio = forwarded.rps / direct.rps;
  row("forwarded / direct", `${ratio.toFixed(2)}x`, ">= 0.5x", ratio >= 0.5);
  const us = (v) => (v === null ? "?" : v.toFixed(0));
  row(
    "CPU time per record query (µs): emulator directly / through the companion: companion + emulator",
    `${us(direct.emulatorUs)} / ${us(forwarded.companionUs)} + ${us(forwarded.emulatorUs)}`,
  );
} finally {
  await companion.kill();
}

// ---- 3b: 48 maximal JSON bodies at once, default limits ----------------------------------------------
{
  const BODIES = sized(48, 4);
  const plain = await spawnCompanion();
  try {
    const idle = await plain.rssMb();
    let peak = idle;
    const sampler = setInterval(async () => (peak = Math.max(peak, await plain.rssMb().catch(() => 0))), 25);
    // The largest body the companion reads and forwards: a Base64 upload of a file of nearly 10 MiB
    // (the service's limit), some 13.3 MiB of JSON.
    const body = `{"uploadPath":"bench","fileName":"big.bin","base64Data":"${"A".repeat(13981000)}AA=="}`;
    if (body.length > MAX_BASE64_JSON_BYTES) throw new Error("the body is past the companion's own cap");
    const statuses = {};
    await Promise.all(
      Array.from({ length: BODIES }, async (_, i) => {
        const r = await fetch(`${plain.url}/upload/api/file-base64-upload`, {
          method: "POST",
          headers: { ...session(`body${i}`), "content-type": "application/json" },
          body,
        }).catch(() => null);
        await r?.text();
        statuses[r?.status ?? "error"] = (statuses[r?.status ?? "error"] ?? 0) + 1;
      }),
    );
    clearInterval(sampler);
    const grew = peak - idle;
    row(
      `companion RSS idle / peak with ${BODIES} maximal JSON bodies sent at once (Base64 uploads of 10 MiB files, default limits)`,
      `${idle.toFixed(1)} / ${peak.toFixed(1)} MB (+${grew.toFixed(0)} MB; answers ${JSON.stringify(statuses)})`,
      "<= +256 MB",
      grew <= 256,
    );
  } finally {
    await plain.kill();
  }
}

console.log("\n| figure | value | goal | result |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.goal} | ${r.result} |`);
if (SMOKE) console.log("(smoke run: sizes too small for the figures to mean anything)");
process.exit(0);
