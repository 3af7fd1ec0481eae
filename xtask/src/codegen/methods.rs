//! `pkg-template/methods.generated.js`: the names of the client's methods that `api.js` defines
//! over the module's one exported entry (`__call`): the operations, from the endpoint table, then
//! the waiters, from the task families. A name list in JS costs the page a few hundred bytes; one
//! wasm export and one glue function per operation cost more than a kilobyte, and the ten
//! waiters' exports and glue methods 198 B gzipped of the module and its glue (2026-11-26).

use super::HEADER;
use tunesmith_protocol::{Op, TaskFamily};

pub fn methods() -> String {
    let mut out = HEADER.to_owned();
    out.push_str(
        "// The client's methods, one per operation and one per waiter: api.js defines each as a call of\n\
         // the module's one entry, `__call`, with the method's name. `watchTask` is the module's own\n\
         // export.\n\
         export const METHODS = [\n",
    );
    let operations = Op::ALL.into_iter().map(|op| op.endpoint().name);
    let waiters = TaskFamily::ALL.into_iter().map(TaskFamily::waiter_name);
    for name in operations.chain(waiters) {
        out.push_str(&format!("  \"{name}\",\n"));
    }
    out.push_str("];\n");
    out
}
