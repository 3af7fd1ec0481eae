// The companion server under hostile users, input and services, restarts and kill -9, for
// `cargo xtask chaos --only companion` (which runs it with a secret key and scans everything it
// prints). Each part reports figures and goals:
//   hostile: malformed paths, methods, headers and bodies, unknown users, forged callbacks,
//   oversized and trickling requests on every route; the companion must stay up, answer a query
//   after each burst, never answer 5xx of its own, never accept a forged callback, and never put the
//   key in an answer or a log line.
//   references: repeated query fields, another user's tracks, personas and stems, ids never seen,
//   the account's balance: none reaches the service.
//   callbacks: errors forged after a task's end, tokens of refused creates, the tokens in logs.
//   streams: how many streams one user holds, ids across a restart, tasks forgotten by it, and the
//   memory of pages that never read.
//   limits: concurrent creates against tasksInFlight (Redis), maximal bodies at once (memory).
//   headers: crafted Host headers, bad request targets, a hostile service's headers and echoes.
//   kill: pages waiting on two instances over one Redis (TUNESMITH_TEST_REDIS_URL); one instance is
//   killed with SIGKILL mid-task and restarted: every page must still get its final stage, no page a
//   stage twice, and pages on the other instance lose nothing.
// Over 400 lines on purpose: the three parts share one set of companions, their restarts and the
// report of figures against goals.
import { connect } from "node:net";
import { atLeast, env, goal, report, requireEmulator, scaled, sleep } from "./_lib.mjs";
import {
  GENERATE, MUSIC, create, cutOff, finishedSong, freePort, pkg, pollRecord, raw, recordFromService, session,
} from "../js/companion/harness.mjs";
import { spawnCompanion } from "../js/companion/process.mjs";
import { hostileService } from "../js/companion/upstreams.mjs";

const NAME = "companion";
requireEmulator(NAME);
const REDIS = process.env.TUNESMITH_TEST_REDIS_URL;
const started = Date.now();
let seed = Number(process.env.CHAOS_SEED ?? 42);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = (xs) => xs[Math.floor(random() * xs.length)];

const figures = {};
const goals = {};
const seen = []; // every answer and log line, for the key scan
const limits = JSON.stringify({ requestsPerWindow: 1e9, tasksInFlight: 1e6 });

// ---- hostile ------------------------------------------------------------------------------------------
const companion = await spawnCompanion({ COMPANION_LIMITS: limits });
const base = companion.url;
const { port } = new URL(base);
const ROUTE_PATHS = [
  "/music/api/v1/generate", "/music/api/v1/generate/record-info", "/music/api/v1/generate/credit",
  "/music/api/v1/suno/cover/generate", "/music/api/v1/wav/generate", "/music/api/v1/lyrics",
  "/upload/api/file-stream-upload", "/upload/api/file-base64-upload", "/upload/api/file-url-upload",
  "/events", "/callbacks/" + "A".repeat(43), "/callbacks/x",
];
const MANGLE = [
  (p) => p, (p) => p + "/..", (p) => p.replace("/api", "/%2e%2e/api"), (p) => p + "%00", (p) => p.replace(/\//g, "//"),
  (p) => p + "?" + "q=".repeat(20000), (p) => p + "/é/\u202e", (p) => p.toUpperCase(), (p) => "/_emulator/stats" + p,
];
const BODIES = [
  undefined, "", "{", "[]", "null", "1e999", '{"prompt":' + "[".repeat(5000) + "]".repeat(5000) + "}",
  JSON.stringify({ ...GENERATE, model: 7 }), JSON.stringify({ ...GENERATE, prompt: "x".repeat(200000) }),
  JSON.stringify({ taskId: "../../etc/passwd" }), "\u0000\u0001\u0002", JSON.stringify({ code: 200, data: { task_id: "x", callbackType: "complete" } }),
];
const USERS = [undefined, "alice", "mallory", "banned", "x".repeat(5000)];
const METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"];
const statuses = {};
let sent = 0;
let fiveHundreds = 0;
let forgedAccepted = 0;
let anonymousAccepted = 0;
let failedProbes = 0;
let peakRss = await companion.rssMb();

async function alive() {
  const t0 = Date.now();
  const probe = () => fetch(`${base}/music/api/v1/generate/credit`, { headers: session("probe"), signal: AbortSignal.timeout(5000) });
  // One retry: a pooled connection that the companion closed after refusing an oversized body
  // fails on the client's side, before the companion sees the request.
  const r = await probe().catch(() => sleep(100).then(probe)).catch(() => null);
  if (!r || r.status !== 200) (failedProbes++, console.error("probe", r?.status, await r?.clone().text().catch(() => "")));
  await r?.text();
  return Date.now() - t0;
}

const bursts = scaled(20, 2);
const perBurst = 50;
for (let b = 0; b < bursts; b++) {
  await Promise.all(
    Array.from({ length: perBurst }, async () => {
      const path = pick(MANGLE)(pick(ROUTE_PATHS));
      const method = pick(METHODS);
      const user = pick(USERS);
      const body = method === "GET" || method === "OPTIONS" ? undefined : pick(BODIES);
      const headers = { ...(user ? { "x-session": `${user}-session` } : {}), ...(random() < 0.2 ? { origin: "https://evil.example" } : {}) };
      if (body !== undefined) headers["content-type"] = random() < 0.8 ? "application/json" : "multipart/form-data; boundary=x";
      sent++;
      const r = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(20000) }).catch(() => null);
      if (!r) return void (statuses.error = (statuses.error ?? 0) + 1);
      const text = await r.text().catch(() => "");
      seen.push(text, JSON.stringify([...r.headers]));
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status >= 500 && r.status !== 502) fiveHundreds++;
      if (path.includes("/callbacks/") && r.status === 200) forgedAccepted++;
      if (!user && r.status === 200 && !path.includes("/callbacks/")) anonymousAccepted++;
    }),
  );
  // An oversized JSON body and an oversized upload: refused, not read whole.
  for (const [path, size] of [["/music/api/v1/generate", 17 * 2 ** 20], ["/upload/api/file-base64-upload", 17 * 2 ** 20]]) {
    sent++;
    const r = await fetch(base + path, { method: "POST", headers: { ...session("big"), "content-type": "application/json" }, body: "x".repeat(size) }).catch(() => null);
    statuses[r?.status ?? "error"] = (statuses[r?.status ?? "error"] ?? 0) + 1;
    await r?.text();
  }
  await alive();
  peakRss = Math.max(peakRss, await companion.rssMb());
}

// Trickling clients: a header byte a second on many sockets, while a page still gets answers.
const trickle = scaled(200, 10);
const sockets = [];
for (let i = 0; i < trickle; i++) {
  const s = connect(Number(port), "127.0.0.1");
  s.on("error", () => {});
  s.write(`POST /ts/music/api/v1/generate HTTP/1.1\r\nHost: ${new URL(base).host}\r\n`);
  sockets.push(s);
}
const timers = sockets.map((s) => setInterval(() => s.write("x"), 1000));
await sleep(Math.max(2000, scaled(10000, 2000)));
const worstMs = Math.max(await alive(), await alive());
timers.forEach(clearInterval);
sockets.forEach((s) => s.destroy());
const crashed = companion.child.exitCode !== null || companion.child.signalCode !== null;
peakRss = Math.max(peakRss, crashed ? 0 : await companion.rssMb());
await companion.kill();
seen.push(companion.output.join(""));

Object.assign(figures, { hostileRequests: sent, statuses, trickling: trickle, peakRssMb: Number(peakRss.toFixed(1)) });
goals.crashes = goal(crashed ? 1 : 0, 0);
goals.failedProbes = goal(failedProbes, 0);
goals.companionErrors5xx = goal(fiveHundreds, 0);
goals.forgedCallbacksAccepted = goal(forgedAccepted, 0);
goals.anonymousAccepted = goal(anonymousAccepted, 0);
goals.queryMsWhileTrickling = goal(worstMs, 2000);
goals.peakRssMb = goal(Number(peakRss.toFixed(1)), 256);

// ---- references: every id a request names is the caller's ------------------------------------------
{
  const c = await spawnCompanion({ COMPANION_LIMITS: limits });
  const victims = scaled(4, 1);
  let forwarded = 0;
  let attempts = 0;
  const tag = `chaos-refs-${Date.now()}`;
  const attack = async (path, body, method = "POST") => {
    attempts++;
    const r = await fetch(c.url + path, {
      method,
      headers: { ...session("mallory"), "content-type": "application/json", "x-emulator-tag": tag },
      body: method === "POST" ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    seen.push(text);
    return r.status;
  };
  const own = await create(c, "mallory");
  for (let v = 0; v < victims; v++) {
    const song = await finishedSong(c, `victim${v}`);
    const persona = await (
      await fetch(`${c.url}/music/api/v1/generate/generate-persona`, {
        method: "POST",
        headers: { ...session(`victim${v}`), "content-type": "application/json" },
        body: JSON.stringify({ taskId: song.taskId, audioId: song.audioId, name: "Theirs", description: "warm" }),
      })
    ).json();
    const custom = { customMode: true, instrumental: false, model: "V5", style: "folk", title: "Borrowed", prompt: "la" };
    await attack(`/music/api/v1/generate/record-info?taskId=${song.taskId}&taskId=${own}`, null, "GET");
    await attack(`/music/api/v1/generate/record-info?taskId=${own}&taskId=${song.taskId}`, null, "GET");
    await attack("/music/api/v1/generate/extend", { defaultParamFlag: false, audioId: song.audioId, model: "V4_5" });
    await attack("/music/api/v1/wav/generate", { audioId: song.audioId });
    await attack("/music/api/v1/generate/get-timestamped-lyrics", { audioId: song.audioId });
    await attack("/music/api/v1/generate", { ...custom, personaId: persona.data.personaId });
    await attack("/music/api/v1/generate", { ...custom, personaId: `voice_${v}0123456789abcdef` });
    await attack("/music/api/v1/wav/generate", { audioId: `never-seen-${v}-0123456789abcdef` });
  }
  forwarded = (await (await fetch(`${MUSIC}/_emulator/requests?tag=${tag}`)).json()).requests.length;
  // The package's default allow (serve.mjs allows every operation unless told otherwise).
  const { DEFAULT_ALLOW } = await import(new URL("server/options.js", `file://${env.pkg}/`).href);
  const plain = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_OPTIONS: JSON.stringify({ allow: DEFAULT_ALLOW }) });
  const credit = await fetch(`${plain.url}/music/api/v1/generate/credit`, { headers: session("mallory") });
  seen.push(await credit.text());
  await Promise.all([plain.kill(), c.kill()]);
  seen.push(c.output.join(""), plain.output.join(""));
  Object.assign(figures, { referenceAttacks: attempts });
  goals.foreignOrUnseenReferencesForwarded = goal(forwarded, 0);
  goals.balanceShownByDefault = goal(credit.status === 200 ? 1 : 0, 0);
}

// ---- callbacks: tokens die with their task, claim nothing else, and stay out of logs ------------------
{
  const c = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_OPTIONS: JSON.stringify({ forwardHeaders: ["x-emulator-tag", "x-emulate-code"] }) });
  const tasks = scaled(10, 2);
  let forgedAccepted = 0;
  let redeliveriesAnswered = 0;
  const tokens = [];
  await Promise.all(
    Array.from({ length: tasks }, async (_, i) => {
      const user = `cb${i}`;
      const taskId = await create(c, user);
      await pollRecord(c, user, `/music/api/v1/generate/record-info?taskId=${taskId}`, (r) => r.body?.data?.status === "SUCCESS");
      const { callBackUrl } = JSON.parse((await recordFromService(taskId)).param);
      tokens.push(callBackUrl.slice(callBackUrl.lastIndexOf("/") + 1));
      await sleep(300); // the final callback's delivery
      const post = (body) => fetch(callBackUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const forged = await post({ code: 500, msg: "failed", data: { callbackType: "error", task_id: taskId, data: null } });
      if (forged.status === 200) forgedAccepted++;
      const again = await post({ code: 200, msg: "ok", data: { callbackType: "complete", task_id: taskId, data: [] } });
      if (again.status === 200) redeliveriesAnswered++;
    }),
  );
  // Refused creates: their tokens must be dead; a callback on one (the token read from the service's
  // record is not there: a refused create has none, so a fresh token of the same shape stands in).
  let refused = 0;
  for (let i = 0; i < tasks; i++) {
    const r = await fetch(`${c.url}/music/api/v1/generate`, {
      method: "POST",
      headers: { ...session("refused"), "content-type": "application/json", "x-emulate-code": "455" },
      body: JSON.stringify(GENERATE),
    });
    if ((await r.json()).code === 455) refused++;
  }
  // A body cut off halfway on every token: the failure is logged, the token must not be.
  for (const token of tokens) {
    await cutOff(c.url, `POST /ts/callbacks/${token} HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nContent-Length: 999\r\n\r\n{"code":`);
  }
  await sleep(500);
  await c.kill();
  const log = c.output.join("");
  seen.push(log);
  Object.assign(figures, { finishedTasksProbed: tasks, refusedCreates: refused });
  goals.forgedErrorsAfterTheEndAccepted = goal(forgedAccepted, 0);
  goals.lateRedeliveriesAnswered200 = atLeast(redeliveriesAnswered, tasks);
  goals.tokensInLogLines = goal(tokens.filter((t) => log.includes(t)).length, 0);
}

// ---- streams: a cap per user, ids that only grow, a forgotten task, pages that never read -------------
{
  const heartbeatMs = 500;
  let c = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_OPTIONS: JSON.stringify({ heartbeatMs }) });
  const port = new URL(c.url).port;
  const opened = [];
  for (let i = 0; i < 50; i++) {
    const abort = new AbortController();
    const r = await fetch(`${c.url}/events`, { headers: session("hoarder"), signal: abort.signal });
    if (r.status === 200) opened.push(abort);
    else await r.text();
  }
  figures.streamsOneUserCouldOpen = opened.length;
  goals.streamsPerUser = goal(opened.length, 10);
  opened.forEach((a) => a.abort());

  // A full backlog, then pages that never read it: their memory, and whether they are let go.
  const user = "backlog";
  const tasks = scaled(40, 4);
  for (let i = 0; i < tasks; i++) await create(c, user);
  await sleep(1500);
  const idle = await c.rssMb();
  const sockets = [];
  const pages = scaled(200, 20);
  for (let i = 0; i < pages; i++) {
    const s = connect(Number(port), "127.0.0.1");
    s.on("error", () => {});
    s.write(`GET /ts/events HTTP/1.1\r\nHost: ${new URL(c.url).host}\r\nX-Session: reader${i % 10}-session\r\n\r\n`);
    s.pause(); // never reads
    sockets.push(s);
  }
  // Ten users with twenty pages each: ten of each user's are let in, each offered the backlog.
  await sleep(heartbeatMs * 4);
  const withPages = await c.rssMb();
  figures.pagesThatNeverRead = pages;
  goals.rssWithPagesThatNeverReadMb = goal(Number((withPages - idle).toFixed(1)), 64);
  sockets.forEach((s) => s.destroy());

  // Ids across a restart of a memory store, and a task the restart made it forget.
  const stream = async (lastEventId) => {
    const abort = new AbortController();
    const r = await fetch(`${c.url}/events`, { headers: { ...session("restarted"), "last-event-id": String(lastEventId) }, signal: abort.signal });
    const ids = [];
    const timer = setTimeout(() => abort.abort(), 5000);
    (async () => {
      try {
        for await (const chunk of r.body.pipeThrough(new TextDecoderStream())) {
          for (const m of chunk.matchAll(/^id: (\d+)/gm)) ids.push(Number(m[1]));
          if (ids.length >= 3) abort.abort();
        }
      } catch {}
    })();
    return { ids, done: new Promise((res) => abort.signal.addEventListener("abort", () => (clearTimeout(timer), res(ids)))) };
  };
  const before = await stream(0);
  const forgotten = await create(c, "restarted");
  const idsBefore = await before.done;
  await c.kill();
  seen.push(c.output.join(""));
  c = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_PORT: port });
  const after = await stream(idsBefore.at(-1) ?? 0);
  await create(c, "restarted");
  const idsAfter = await after.done;
  const answer = await fetch(`${c.url}/music/api/v1/generate/record-info?taskId=${forgotten}`, { headers: session("restarted") });
  seen.push(await answer.text());
  await c.kill();
  seen.push(c.output.join(""));
  figures.idsBeforeAfterRestart = `${idsBefore.join(",")} then ${idsAfter.join(",")}`;
  goals.eventsMissedAfterRestart = goal(3 - idsAfter.length, 0);
  goals.forgottenTaskAnswered410 = goal(answer.status === 410 ? 1 : 0, 1, (v, t) => v === t);
}

// ---- limits: atomic tasks in flight on Redis, maximal bodies at once ------------------------------------
if (REDIS) {
  const prefix = `chaos-atomic-${process.pid}-${Date.now()}:`;
  // Callbacks go to a closed port: no task of the burst can end (and free its slot) while the
  // burst is still arriving, however slowly a loaded machine sends it, so more than 3 created is
  // the race itself and not a task that ended in between. The companions listen on ports of their
  // own, which the burst is sent to.
  const [closed, xPort, yPort] = [await freePort(), await freePort(), await freePort()];
  const redisEnv = (port) => ({
    COMPANION_STORE: "redis", COMPANION_REDIS_URL: REDIS, COMPANION_REDIS_PREFIX: prefix,
    COMPANION_PORT: String(port), COMPANION_PUBLIC_URL: `http://127.0.0.1:${closed}/ts`,
  });
  const tight = JSON.stringify({ requestsPerWindow: 1e9, tasksInFlight: 3, requestsInFlight: 1000 });
  const [x, y] = await Promise.all([
    spawnCompanion({ ...redisEnv(xPort), COMPANION_LIMITS: tight }),
    spawnCompanion({ ...redisEnv(yPort), COMPANION_LIMITS: tight }),
  ]);
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      fetch(`http://127.0.0.1:${i % 2 ? xPort : yPort}/ts/music/api/v1/generate`, {
        method: "POST",
        headers: { ...session("greedy"), "content-type": "application/json" },
        body: JSON.stringify(GENERATE),
      }).then((r) => r.json()),
    ),
  );
  await Promise.all([x.kill(), y.kill()]);
  seen.push(x.output.join(""), y.output.join(""));
  const created = answers.filter((a) => a.code === 200).length;
  figures.concurrentCreatesUnderLimit3 = `${created} created of 50, over two instances`;
  goals.tasksInFlightOverLimit = goal(Math.max(0, created - 3), 0);
}
{
  const plain = await spawnCompanion();
  const idle = await plain.rssMb();
  let peak = idle;
  const sampler = setInterval(async () => (peak = Math.max(peak, await plain.rssMb().catch(() => 0))), 25);
  const body = `{"uploadPath":"chaos","base64Data":"${"A".repeat(13981000)}AA=="}`;
  const statuses = {};
  await Promise.all(
    Array.from({ length: 48 }, async (_, i) => {
      const r = await fetch(`${plain.url}/upload/api/file-base64-upload`, {
        method: "POST",
        headers: { ...session(`big${i}`), "content-type": "application/json" },
        body,
      }).catch(() => null);
      await r?.text();
      statuses[r?.status ?? "error"] = (statuses[r?.status ?? "error"] ?? 0) + 1;
    }),
  );
  clearInterval(sampler);
  await plain.kill();
  seen.push(plain.output.join(""));
  figures.maximalBodiesAtOnce = statuses;
  goals.rssGrowthWith48MaximalBodiesMb = goal(Number((peak - idle).toFixed(0)), 256);
}

// ---- headers: Host, request targets, a hostile service -------------------------------------------------
{
  const c = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_ORIGINS: JSON.stringify(["https://app.example"]) });
  const host = new URL(c.url).host;
  let hostRerouted = 0;
  let originReflected = 0;
  let badTargets = 0;
  // A Host other than the companion's own (publicUrl's, allowedHosts) is refused before anything:
  // 421 host_refused, never a stream or another route's answer.
  for (const h of [`${host}/ts/music/api/v1/generate/credit?`, `${host}/ts/music/api/v1/generate/credit#`, "evil.example", "evil.example/ts/music/api/v1/generate/credit?"]) {
    const r = await raw(c.url, `GET /ts/events HTTP/1.1\r\nHost: ${h}\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`);
    if (r.status !== 421 || !r.body.includes("host_refused")) hostRerouted++;
    const o = await raw(c.url, `GET /ts/music/api/v1/generate/credit HTTP/1.1\r\nHost: ${h}\r\nOrigin: http://evil.example\r\nX-Session: alice-session\r\nConnection: close\r\n\r\n`);
    if (/access-control-allow-origin/.test(o.head)) originReflected++;
  }
  // (Methods Node's parser does not know, such as TRACK, are answered 400 by Node itself.)
  for (const line of ["GET http://evil.example/ts/events HTTP/1.1", "OPTIONS * HTTP/1.1", "TRACE /ts/events HTTP/1.1", "GET https://127.0.0.1/ts/music/api/v1/generate/credit HTTP/1.1"]) {
    const r = await raw(c.url, `${line}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    if (r.status !== 400 || !r.body.includes("bad_request")) badTargets++;
  }
  await c.kill();
  seen.push(c.output.join(""));
  goals.requestsReroutedByHost = goal(hostRerouted, 0);
  goals.foreignOriginsReflected = goal(originReflected, 0);
  goals.badTargetsNotAnswered400 = goal(badTargets, 0);

  const b64 = (x) => Buffer.from(x).toString("base64");
  const echoes = [env.key.toUpperCase(), b64(env.key), b64(`Bearer ${env.key}`), Buffer.from(env.key).toString("base64url"), encodeURIComponent(env.key)];
  const hostile = [
    { "retry-after": "5, 6" }, { "retry-after": "<b>" }, { "retry-after-ms": "-1" }, { "x-request-id": "<script>" },
    { "content-type": "text/html" }, { "content-type": "application/x-evil" },
  ];
  let i = 0;
  const service = await hostileService(({ headers }) => ({
    status: 200,
    headers: { "content-type": "application/json", ...hostile[i++ % hostile.length] },
    body: JSON.stringify({ code: 200, msg: `echo ${echoes.join(" ")} ${headers.authorization}`, data: 1 }),
  }));
  const d = await spawnCompanion({ COMPANION_LIMITS: limits, COMPANION_OPTIONS: JSON.stringify({ baseUrl: service.url }) });
  let badHeaders = 0;
  let keySpellings = 0;
  for (let k = 0; k < hostile.length * scaled(5, 1); k++) {
    const r = await fetch(`${d.url}/music/api/v1/generate/credit`, { headers: session("alice") });
    const text = await r.text();
    seen.push(text);
    const type = r.headers.get("content-type") ?? "";
    if (!/^(application\/json|text\/plain); charset=utf-8$/.test(type)) badHeaders++;
    for (const h of ["retry-after", "retry-after-ms", "x-request-id"]) if (r.headers.get(h) !== null) badHeaders++;
    keySpellings += [env.key, ...echoes].filter((e) => text.toLowerCase().includes(e.toLowerCase())).length;
  }
  await d.kill();
  await service.close();
  seen.push(d.output.join(""));
  goals.hostileHeadersPassedToPages = goal(badHeaders, 0);
  goals.keySpellingsInAnswers = goal(keySpellings, 0);
}

// ---- kill -9 ------------------------------------------------------------------------------------------
if (REDIS) {
  const prefix = `chaos-${process.pid}-${Date.now()}:`;
  const redisEnv = { COMPANION_LIMITS: limits, COMPANION_STORE: "redis", COMPANION_REDIS_URL: REDIS, COMPANION_REDIS_PREFIX: prefix };
  let a = await spawnCompanion(redisEnv);
  const aPort = new URL(a.url).port;
  const b = await spawnCompanion(redisEnv);
  const rounds = scaled(5, 1);
  const pagesPerInstance = 10;
  let missedFinal = 0;
  let reportedTwice = 0;
  let lostOnB = 0;
  let skippedOnA = 0;
  const stagesOnB = {};
  let pages = 0;
  for (let round = 0; round < rounds; round++) {
    // Tasks created first (a create cut by the kill is the caller's NetworkError, by design: it is
    // never retried), then followed while the instance dies.
    const created = await Promise.all(
      [a.url, b.url].flatMap((url, n) =>
        Array.from({ length: pagesPerInstance }, async (_, i) => {
          const client = new pkg.Client({ companionUrl: url, headers: session(`${"ab"[n]}${round}-${i}`) });
          return { client, who: "ab"[n], task: await client.generate(GENERATE) };
        }),
      ),
    );
    const run = (who) =>
      created.filter((c) => c.who === who).map(async ({ client, task: createdTask }) => {
        const stages = [];
        const task = await client
          .waitForTask(createdTask, { onProgress: (t) => stages.push(t.stage), timeoutMs: 60_000, minIntervalMs: 250 })
          .catch((e) => ({ error: e }));
        if (task.error) console.error("page", who, stages, task.error.name, task.error.message);
        return { who, stages, final: task.state === "succeeded" };
      });
    const waiting = [...run("a"), ...run("b")];
    await sleep(random() * 150);
    await a.kill("SIGKILL");
    seen.push(a.output.join(""));
    await sleep(200 + random() * 300);
    a = await spawnCompanion({ ...redisEnv, COMPANION_PORT: aPort });
    for (const page of await Promise.all(waiting)) {
      pages++;
      if (!page.final || page.stages.at(-1) !== "complete") missedFinal++;
      if (new Set(page.stages).size !== page.stages.length) reportedTwice++;
      // `pending` is reported too when a page sees the task before its first stage (as polling does).
      const full = JSON.stringify(page.stages.filter((s) => s !== "pending")) === JSON.stringify(["text", "first", "complete"]);
      if (!full && page.who === "b") lostOnB++;
      if (page.who === "b") stagesOnB[JSON.stringify(page.stages)] = (stagesOnB[JSON.stringify(page.stages)] ?? 0) + 1;
      if (!full && page.who === "a") skippedOnA++;
    }
  }
  await a.kill();
  await b.kill();
  seen.push(a.output.join(""), b.output.join(""));
  Object.assign(figures, { killRounds: rounds, pagesWaiting: pages, intermediateStagesSkippedOnKilledInstance: skippedOnA, stagesOnTheOtherInstance: stagesOnB });
  goals.pagesThatMissedTheFinalStage = goal(missedFinal, 0);
  goals.pagesWithAStageTwice = goal(reportedTwice, 0);
  goals.pagesOnTheOtherInstanceThatLostAStage = goal(lostOnB, 0);
  goals.killPages = atLeast(pages, 20);
} else {
  figures.kill = "skipped: no TUNESMITH_TEST_REDIS_URL";
}

goals.keyInAnswersOrLogs = goal(seen.filter((s) => s.includes(env.key)).length, 0);
figures.seconds = Number(((Date.now() - started) / 1000).toFixed(1));
for (const s of seen) if (s.includes(env.key)) console.error("key found in:", s.slice(0, 200).split(env.key).join("[KEY]"));
report(NAME, figures, goals);
