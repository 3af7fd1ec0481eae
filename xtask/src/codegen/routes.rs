//! `pkg-template/server/routes.js`: the routes the companion server (`tunesmith/server`) may
//! forward, from the endpoint table; and what the client's waiters decide, for the follower
//! (`follow.js`) of the page's push waiter, the CLI and the MCP server. A table in JS costs the
//! wasm module nothing.

use super::{http_method, quoted, HEADER};
use serde_json::json;
use tunesmith_protocol::endpoints::{
    Host, NAMED_REFERENCE_FIELDS, REFERENCE_FIELDS, TASK_ID_FIELDS,
};
use tunesmith_protocol::family::MUSIC_STAGES;
use tunesmith_protocol::schedule::{DEFAULT_MAX_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::Op;
use tunesmith_protocol::{Observed, Stage, TaskFamily, TaskState};

pub fn server_routes() -> String {
    let mut out = HEADER.to_owned();
    let names = Op::ALL.map(|op| format!("\"{}\"", op.endpoint().name));
    out.push_str(&format!(
        "/**\n \
         * An operation of the service, by the client's method name: what a companion's `allow` lists.\n \
         * @typedef {{{}}} OperationName\n \
         */\n\n",
        names.join(" | ")
    ));
    out.push_str(
        "// Every operation of the service: its host, method and path (`{svc}`: the service segment), whether\n\
         // it creates (and charges for) a task, the task family it creates or queries, the field that\n\
         // takes its callback URL, and the fields that name a task of the caller.\n\
         /** @type {{ operation: OperationName, host: \"music\" | \"upload\", method: \"GET\" | \"POST\", path: string, creates: boolean, family: string | null, callback: string | null, taskIds: string[] }[]} */\n\
         export const ROUTES = [\n",
    );
    for op in Op::ALL {
        let e = op.endpoint();
        let host = match e.host {
            Host::Music => "music",
            Host::Upload => "upload",
        };
        // JSON's `"name"` or `null`.
        let family = json!(op.creates().or(op.queries()).map(|f| f.as_str()));
        let callback = json!(e.callback_field());
        let task_ids = e.fields.iter().map(|f| f.name);
        let task_ids = quoted(task_ids.filter(|f| TASK_ID_FIELDS.contains(f)), ", ");
        out.push_str(&format!(
            "  {{ operation: \"{}\", host: \"{host}\", method: \"{}\", path: \"{}\", creates: {}, family: {family}, callback: {callback}, taskIds: [{task_ids}] }},\n",
            e.name, http_method(op), e.path, e.creates_task()
        ));
    }
    out.push_str("];\n\n// The waiter of each task family.\nexport const WAITERS = {\n");
    for (family, waiter) in TaskFamily::ALL.map(|f| (f.as_str(), f.waiter_name())) {
        out.push_str(&format!("  {family}: \"{waiter}\",\n"));
    }
    out.push_str("};\n");
    out.push_str(&format!(
        "\n// Request fields that name a track or stem, or a persona or custom voice, of the caller's; and\n\
         // where records and callbacks name one (references.js checks and records their owners).\n\
         export const REFERENCE_FIELDS = [{}];\n\
         export const NAMED_REFERENCE_FIELDS = [{}];\n",
        quoted(REFERENCE_FIELDS, ", "),
        quoted(NAMED_REFERENCE_FIELDS, ", "),
    ));
    out.push_str(&waiting());
    out
}

/// The waiters' rules that the push waiter applies to pushed events: how far a record is on the
/// way to the end (reported once, when this rises), a music task's stages in order (one passed
/// between two events is reported before the next), the states that end a task, the defaults.
fn waiting() -> String {
    let stage_rank = Stage::ALL.map(|stage| {
        let rank = TaskFamily::Music.rank(Observed {
            state: TaskState::Running,
            stage,
        });
        format!("{}: {rank}", stage.as_str())
    });
    let state_rank = TaskState::ALL.map(|state| {
        let rank = TaskFamily::Cover.rank(Observed {
            state,
            stage: Stage::Pending,
        });
        format!("{}: {rank}", state.as_str())
    });
    let finals = TaskState::ALL.into_iter().filter(|s| s.is_final());
    let stage_status =
        Stage::ALL.map(|stage| format!("{}: \"{}\"", stage.as_str(), stage.status()));
    format!(
        "\n// What the client's waiters decide, for the follower (follow.js) of the push waiter, the CLI\n\
         // and the MCP server: how far a record is on the way to the end (a record is reported when this\n\
         // rises: a music task by stage, the other families by state), a music task's status at each\n\
         // stage, a music task's stages in order (one passed between two events is reported before the\n\
         // next), the states that end a task, and the defaults of a wait.\n\
         export const MUSIC_STAGE_RANK = {{ {} }};\n\
         export const MUSIC_STAGE_STATUS = {{ {} }};\n\
         export const STATE_RANK = {{ {} }};\n\
         export const MUSIC_STAGES = [{}];\n\
         export const FINAL_STATES = [{}];\n\
         export const DEFAULT_WAIT_TIMEOUT_MS = {DEFAULT_WAIT_TIMEOUT_MS};\n\
         export const DEFAULT_MAX_INTERVAL_MS = {DEFAULT_MAX_INTERVAL_MS};\n",
        stage_rank.join(", "),
        stage_status.join(", "),
        state_rank.join(", "),
        quoted(MUSIC_STAGES.map(Stage::as_str), ", "),
        quoted(finals.map(TaskState::as_str), ", "),
    )
}
