//! `pkg-template/server/routes.js`: the routes the companion server (`tunesmith/server`) may
//! forward, from the endpoint table. A table in JS costs the wasm module nothing.

use super::header;
use tunesmith_protocol::endpoints::{Host, Method};
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::Op;

pub fn server_routes() -> String {
    let mut out = header("//");
    out.push_str(
        "// Every operation of the service: its host, method and path (`{svc}`: the service segment), whether\n\
         // it creates (and charges for) a task, and the task family it creates or queries.\n\
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
        let family = TaskKind::created_by(op)
            .or_else(|| TaskKind::ALL.into_iter().find(|k| k.query() == op))
            .map_or("null".to_owned(), |k| format!("\"{}\"", k.as_str()));
        out.push_str(&format!(
            "  {{ operation: \"{}\", host: \"{host}\", method: \"{method}\", path: \"{}\", creates: {}, family: {family} }},\n",
            e.name, e.path, e.creates_task
        ));
    }
    out.push_str("];\n");
    out
}
