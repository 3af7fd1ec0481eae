//! `pkg-template/server/routes.js`: the routes the companion server (`tunesmith/server`) may
//! forward, from the endpoint table. A table in JS costs the wasm module nothing.

use super::header;
use tunesmith_protocol::endpoints::{Host, Method, TASK_ID_FIELDS};
use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

pub fn server_routes() -> String {
    let mut out = header("//");
    out.push_str(
        "// Every operation of the service: its host, method and path (`{svc}`: the service segment), whether\n\
         // it creates (and charges for) a task, the task family it creates or queries, the field that\n\
         // takes its callback URL, and the fields that name a task of the caller.\n\
         export const ROUTES = [\n",
    );
    for op in Op::ALL {
        let e = op.endpoint();
        let method = match e.method {
            Method::Get => "GET",
            Method::Post => "POST",
        };
        let host = match e.host {
            Host::Music => "music",
            Host::Upload => "upload",
        };
        let family = op
            .creates()
            .or(op.queries())
            .map_or("null".to_owned(), |f| format!("\"{}\"", f.as_str()));
        let callback = e
            .callback_field()
            .map_or("null".to_owned(), |f| format!("\"{f}\""));
        let task_ids: Vec<String> = e
            .fields
            .iter()
            .filter(|f| TASK_ID_FIELDS.contains(&f.name))
            .map(|f| format!("\"{}\"", f.name))
            .collect();
        out.push_str(&format!(
            "  {{ operation: \"{}\", host: \"{host}\", method: \"{method}\", path: \"{}\", creates: {}, family: {family}, callback: {callback}, taskIds: [{}] }},\n",
            e.name, e.path, e.creates_task(), task_ids.join(", ")
        ));
    }
    out.push_str("];\n\n// The waiter of each task family.\nexport const WAITERS = {\n");
    for kind in TaskFamily::ALL {
        out.push_str(&format!(
            "  {}: \"{}\",\n",
            kind.as_str(),
            kind.waiter_name()
        ));
    }
    out.push_str("};\n");
    out
}
