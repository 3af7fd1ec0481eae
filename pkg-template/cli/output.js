// What the CLI shows: on a terminal, a progress line redrawn in place on stderr (stages, upload
// bytes) and a short summary on stdout; when piped (or with --json), one JSON object per line on
// stdout, each with an `event`.

const STAGES = { music: ["created", "text", "first", "complete"], other: ["created", "running", "succeeded"] };

const bytes = (n) =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1 << 10 ? `${(n / (1 << 10)).toFixed(0)} KB` : `${n} B`;

export function createOutput({ json, stdout = process.stdout, stderr = process.stderr }) {
  const live = !json && stderr.isTTY;
  let line = "";
  const draw = (text) => {
    if (live) {
      stderr.write(`\r\x1b[2K${text}`);
      line = text;
    } else if (!json) {
      stderr.write(`${text}\n`);
    }
  };
  const settle = () => {
    if (live && line) stderr.write("\n");
    line = "";
  };
  const emit = (event) => stdout.write(`${JSON.stringify(event)}\n`);
  const started = Date.now();
  let reached = [];
  return {
    json,
    upload(name, loaded, total) {
      if (json) return emit({ event: "upload", file: name, loaded, total });
      const width = 24;
      const done = total ? Math.round((loaded / total) * width) : width;
      draw(`uploading ${name}  [${"#".repeat(done)}${"-".repeat(width - done)}]  ${bytes(loaded)} / ${bytes(total)}`);
    },
    created(operation, taskId) {
      if (json) return emit({ event: "created", operation, taskId });
      reached = ["created"];
      draw(`${operation}  task ${taskId}  created`);
    },
    progress(operation, family, record) {
      if (json) return emit({ event: "progress", taskId: record?.taskId, state: record?.state, stage: record?.stage });
      const now = family === "music" ? record?.stage : record?.state;
      if (now && !reached.includes(now)) reached.push(now);
      const names = family === "music" ? STAGES.music : STAGES.other;
      const marks = names.map((s) => (reached.includes(s) ? `✔ ${s}` : `· ${s}`)).join("  ");
      draw(`${operation}  task ${record?.taskId ?? ""}  ${marks}  ${Math.round((Date.now() - started) / 1000)} s`);
    },
    result(operation, record, files) {
      settle();
      if (json) return emit({ event: "result", operation, record });
      if (files.length === 0) {
        stdout.write(`${JSON.stringify(record, null, 2)}\n`);
        return;
      }
      const head = record?.taskId ? `task ${record.taskId}: ${record.state ?? "done"}` : operation;
      stdout.write(`${head}\n`);
      for (const f of files) {
        const duration = f.duration !== undefined ? `  ${Number(f.duration).toFixed(1)} s` : "";
        stdout.write(`  ${f.title}${duration}  ${f.url}\n`);
      }
    },
    saved(path, url) {
      if (json) return emit({ event: "saved", path, url });
      stdout.write(`saved ${path}\n`);
    },
    interrupted(taskId, resume) {
      settle();
      if (json) return emit({ event: "interrupted", taskId, resume });
      stderr.write(`stopped waiting; task ${taskId} goes on. Resume with:\n  ${resume}\n`);
    },
    error(error, exitCode, hint) {
      settle();
      const body = {
        event: "error",
        name: error?.name ?? "Error",
        kind: error?.kind ?? null,
        field: error?.field ?? null,
        rule: error?.rule ?? null,
        code: error?.code ?? null,
        taskId: error?.taskId ?? null,
        message: error?.message ?? String(error),
        exitCode,
      };
      if (json) return emit(hint ? { ...body, hint } : body);
      const where = [body.kind, body.field ? `field ${body.field}` : null].filter(Boolean).join(", ");
      stderr.write(`error${where ? ` (${where})` : ""}: ${body.message}\n${hint ? `${hint}\n` : ""}`);
    },
  };
}
