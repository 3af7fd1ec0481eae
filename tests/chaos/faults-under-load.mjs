// Chaos: faults under load, against the live emulator.
//
// 1. Waiters: 1,000 music tasks are created, and a `waitForTask` (short schedule) starts on each at
//    once, all in flight together, while 30% of the queries are injected faults: a 500, a 455
//    (maintenance), a 430 (rate limited), a delay beyond the client's timeoutMs, or a dropped
//    connection (before the request is sent, or after the service answered). Faults are armed
//    through `POST /_emulator/faults` on tags of this run, and a `fetch` option picks, per query,
//    whether to carry one of those tags (`X-Emulator-Tag`) or to drop the connection. Goal: every
//    waiter completes.
// 2. Creates: each intended create carries its own tag, armed with one fault: a 500, a 455 or 430
//    (nothing created: the client may retry), a delay beyond the timeout, a connection dropped after
//    the service answered or before anything was sent, or several of these in a row. Then
//    `/_emulator/stats?tag=` counts the tasks created per intended create. Goal: 0 duplicates.
// Env: TUNESMITH_TEST_MUSIC_URL, TUNESMITH_TEST_UPLOAD_URL, TUNESMITH_TEST_API_KEY, TUNESMITH_PKG,
// CHAOS_SCALE (1: 1,000 waiters and 300 creates).
import { Examples, atLeast, describe, env, goal, importPackage, pool, report, requireEmulator, rng, scaled, sleep, isMain } from "./_lib.mjs";

const NAME = "faults-under-load";
const TIMEOUT_MS = 1000;
const DELAY_MS = 1600;
const FAULT_RATE = 0.3;

async function admin(path, body) {
  const res = await fetch(`${env.music}/_emulator/${path}`, body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Enough credits for `needed` more, without lowering what the key has. */
async function ensureCredits(client, needed) {
  const { credits } = await client.getCredits();
  if (credits >= needed + 100) return;
  const res = await fetch(`${env.music}/_emulator/credits`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.key}`, "content-type": "application/json" },
    body: JSON.stringify({ credits: credits + needed + 1000 }),
  });
  if (!res.ok) throw new Error(`credits: ${res.status}`);
}

const dropped = () => new TypeError("fetch failed", { cause: new Error("other side closed") });

/** The core, exported for tests/js/chaos.test.mjs: returns `{ figures, goals }`. */
export async function run({ waiters = scaled(1000, 10), creates = scaled(300, 12), seed = 1 } = {}) {
  requireEmulator(NAME);
  const { Client, TunesmithError } = await importPackage();
  const started = performance.now();
  const run = `chaos-${process.pid}-${Date.now()}`;
  const r = rng(seed);
  const plain = new Client({ apiKey: env.key, baseUrl: env.music });
  await ensureCredits(plain, waiters * 10 + creates * 10);
  const callBackUrl = `${env.music}/inbox/${run}`;
  const request = { customMode: false, instrumental: true, model: "V6", prompt: "chaos under load", callBackUrl };

  // ---- 1. Waiters under 30% faults ----
  const faultTags = {
    500: { code: 500 },
    455: { code: 455, retryAfterMs: 50 },
    430: { code: 430, retryAfterMs: 50 },
    delay: { delayMs: DELAY_MS },
  };
  for (const [name, spec] of Object.entries(faultTags)) {
    await admin("faults", { tag: `${run}-${name}`, times: 1_000_000, ops: ["getTask"], ...spec });
  }
  const injected = { 500: 0, 455: 0, 430: 0, delay: 0, "drop-before": 0, "drop-after": 0, none: 0 };
  const faulty = async (url, init) => {
    if (!r.chance(FAULT_RATE)) {
      injected.none++;
      return fetch(url, init);
    }
    const kind = r.pick(["500", "455", "430", "delay", "drop-before", "drop-after"]);
    injected[kind]++;
    if (kind === "drop-before") throw dropped();
    if (kind === "drop-after") {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      throw dropped();
    }
    return fetch(url, { ...init, headers: { ...init.headers, "X-Emulator-Tag": `${run}-${kind}` } });
  };
  const waiterClient = new Client({ apiKey: env.key, baseUrl: env.music, fetch: faulty, timeoutMs: TIMEOUT_MS });
  const w = { waiters, completed: 0, failed: 0, createFailures: 0, maxInFlight: 0, failures: {}, examples: new Examples() };
  let inFlight = 0;
  const waitStarted = performance.now();
  // One lane per waiter; every waiter starts when every task is created, so that all of them are
  // in flight together (the tasks created last are still running).
  let created = 0;
  let allCreated;
  const barrier = new Promise((r) => (allCreated = r));
  await pool(waiters, waiters, async () => {
    let taskId;
    try {
      ({ taskId } = await plain.generate(request));
    } catch (e) {
      w.createFailures++;
      w.examples.add("create", describe(e));
    } finally {
      if (++created === waiters) allCreated();
    }
    await barrier;
    if (!taskId) return;
    inFlight++;
    w.maxInFlight = Math.max(w.maxInFlight, inFlight);
    try {
      const task = await waiterClient.waitForTask(taskId, { minIntervalMs: 100, maxIntervalMs: 500, timeoutMs: 120_000 });
      if (task.state === "succeeded") w.completed++;
      else throw new Error(`ended ${task.state}`);
    } catch (e) {
      w.failed++;
      const k = e instanceof TunesmithError ? e.kind : "untyped";
      w.failures[k] = (w.failures[k] ?? 0) + 1;
      w.examples.add(k, describe(e));
    } finally {
      inFlight--;
    }
  });
  w.seconds = Math.round((performance.now() - waitStarted) / 100) / 10;
  const queries = Object.values(injected).reduce((a, b) => a + b, 0);
  w.queries = queries;
  w.injected = injected;
  w.faultShare = Math.round(((queries - injected.none) / Math.max(1, queries)) * 1000) / 1000;

  // ---- 2. Creates under 500s, timeouts and dropped connections ----
  const plans = {
    "500": [{ code: 500 }],
    "455-then-ok": [{ code: 455, retryAfterMs: 20 }],
    "430-twice": [{ code: 430, retryAfterMs: 20, times: 2 }],
    "455-then-500": [{ code: 455, retryAfterMs: 20 }, { code: 500 }],
    timeout: [{ delayMs: DELAY_MS }],
    "455-then-timeout": [{ code: 455, retryAfterMs: 20 }, { delayMs: DELAY_MS }],
    "drop-after-answer": [],
    "drop-before-send": [],
    "timeout-then-drop": [{ delayMs: DELAY_MS }],
  };
  const planNames = Object.keys(plans);
  const c = { creates, outcomes: {}, tasksCreated: 0, duplicates: 0, resolvedWithoutTask: 0, untyped: 0, byPlan: {}, examples: new Examples(2) };
  const tags = [];
  await pool(creates, 50, async (i) => {
    const plan = planNames[i % planNames.length];
    const tag = `${run}-create-${i}`;
    tags.push({ tag, plan });
    for (const spec of plans[plan]) await admin("faults", { tag, ops: ["generate", "generateLyrics"], ...spec });
    let drops = plan.startsWith("drop") || plan.endsWith("drop") ? 1 : 0;
    const fetchOption = async (url, init) => {
      if (drops > 0 && plan === "drop-before-send") {
        drops--;
        throw dropped();
      }
      const res = await fetch(url, init);
      if (drops > 0 && plan !== "drop-before-send") {
        drops--;
        await res.arrayBuffer().catch(() => {});
        throw dropped();
      }
      return res;
    };
    const client = new Client({ apiKey: env.key, baseUrl: env.music, headers: { "X-Emulator-Tag": tag }, fetch: fetchOption, timeoutMs: TIMEOUT_MS });
    const op = i % 2 ? "generateLyrics" : "generate";
    const req = op === "generate" ? request : { prompt: "chaos", callBackUrl };
    let outcome;
    try {
      const created = await client[op](req);
      outcome = typeof created?.taskId === "string" ? "created" : "resolved-without-taskId";
    } catch (e) {
      outcome = e instanceof TunesmithError ? e.kind : "untyped";
      if (!(e instanceof TunesmithError)) c.examples.add("untyped", describe(e));
    }
    c.outcomes[outcome] = (c.outcomes[outcome] ?? 0) + 1;
    tags.find((t) => t.tag === tag).outcome = outcome;
  });
  // Delayed requests finish (and may create their task) after the client gave up on them.
  await sleep(DELAY_MS + 500);
  for (const t of tags) {
    const { tasksCreated } = await admin(`stats?tag=${encodeURIComponent(t.tag)}`);
    c.tasksCreated += tasksCreated;
    const p = (c.byPlan[t.plan] ??= { creates: 0, tasks: 0, outcomes: {} });
    p.creates++;
    p.tasks += tasksCreated;
    p.outcomes[t.outcome] = (p.outcomes[t.outcome] ?? 0) + 1;
    if (tasksCreated > 1) {
      c.duplicates += tasksCreated - 1;
      c.examples.add("duplicate", `${t.plan}: ${tasksCreated} tasks`);
    }
    if (t.outcome === "created" && tasksCreated === 0) c.resolvedWithoutTask++;
    if (t.outcome === "untyped") c.untyped++;
  }

  const figures = { waiters: w, creates: c, seconds: Math.round((performance.now() - started) / 100) / 10 };
  const goals = {
    waitersCompleted: atLeast(w.completed, waiters),
    faultShare: atLeast(w.faultShare, Math.min(0.25, FAULT_RATE - 0.05)),
    duplicateTasks: goal(c.duplicates, 0),
    untypedCreateErrors: goal(c.untyped, 0),
  };
  return { figures: JSON.parse(JSON.stringify(figures)), goals };
}

if (isMain(import.meta.url)) {
  const { figures, goals } = await run();
  report(NAME, figures, goals);
  process.exit(process.exitCode ?? 0);
}
