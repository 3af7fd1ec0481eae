// One follower for every wait that reports progress: the page's push waiter (push.js), the CLI and
// the MCP server. It decides which records of a task are news by the rules of the client's own
// waiters, generated from protocol/ into server/routes.js: a record is reported when its rank
// rises (a music task by stage, the other families by state), never at the same rank twice, after
// each music stage it passed since the last report; the final one comes from the waiter, once.
// Page-safe: no Node module, no dependency.
import { FINAL_STATES, MUSIC_STAGE_RANK, MUSIC_STAGE_STATUS, MUSIC_STAGES, STATE_RANK } from "./server/routes.js";

/** Whether a record is of a task that has ended (well or not). */
export const isFinal = (record) => FINAL_STATES.includes(record?.state);

/** How far a record is on the way to the end: 0 (pending) up to `stepsOf(family).length - 1`. */
export function rankOf(family, record) {
  if (family !== "music") return STATE_RANK[record?.state] ?? 0;
  return isFinal(record) ? MUSIC_STAGE_RANK[MUSIC_STAGES.at(-1)] : (MUSIC_STAGE_RANK[record?.stage] ?? 0);
}

/** The name of each rank of a family, in order: a music task's stages, the others' states. */
export function stepsOf(family) {
  if (family === "music") return MUSIC_STAGES;
  const names = [];
  // The first state of each rank: of the two that end a task, the one reported (a failure rejects).
  for (const [state, rank] of Object.entries(STATE_RANK)) names[rank] ??= state;
  return names;
}

/** Whether a record is of a task that ended in failure (which the waiters reject with). */
export const hasFailed = (record) => isFinal(record) && record.state !== stepsOf("").at(-1);

/**
 * A function to hand every record of one task: it calls `onProgress(record, rank)` with those that
 * are news, and first, for a music task, with a copy of the record at each stage passed since the
 * last report (none before the first report).
 */
export function progressOf(family, onProgress) {
  let reached = -1;
  return (record) => {
    const rank = rankOf(family, record);
    if (rank <= reached) return;
    if (family === "music" && reached >= 0) {
      for (const stage of MUSIC_STAGES.slice(reached + 1, rank)) {
        onProgress({ ...record, stage, state: "running", status: MUSIC_STAGE_STATUS[stage] }, MUSIC_STAGE_RANK[stage]);
      }
    }
    reached = rank;
    onProgress(record, rank);
  };
}

/**
 * Follows a task to its end, reporting each step once to `onProgress(record, rank)`, and resolves
 * with what `wait` resolves with. `read()`: the task's record now (or null), reported unless it is
 * final; `events(record)`: records pushed from then on (an async iterable, given the one read),
 * followed until one is final or they end; `wait(onProgress)`: the family's waiter, whose reports
 * go through the same follower and which resolves with the final record (or rejects with the
 * task's failure). Without `wait`, the record read is the result.
 */
export async function follow({ family, read, events, wait, onProgress }) {
  const news = progressOf(family, (record, rank) => onProgress?.(record, rank));
  const record = read ? await read() : null;
  if (!isFinal(record)) {
    if (record) news(record);
    if (events) {
      for await (const pushed of events(record)) {
        if (isFinal(pushed)) break;
        news(pushed);
      }
    }
  }
  if (wait) return wait(news);
  if (record) news(record);
  return record;
}
