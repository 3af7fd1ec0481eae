//! `pkg-template/methods.generated.js`: the names of the client's methods that `api.js` defines
//! over the module's one exported entry (`__call`), from the endpoint table. A name list in JS
//! costs the page a few hundred bytes; one wasm export and one glue function per operation cost
//! more than a kilobyte.

use super::HEADER;
use tunesmith_protocol::Op;

pub fn methods() -> String {
    let mut out = HEADER.to_owned();
    out.push_str(
        "// The client's methods, one per operation: api.js defines each as a call of the module's one\n\
         // entry, `__call`, with the operation's name. The waiters and `watchTask` are the module's\n\
         // own exports.\n\
         export const OPERATION_METHODS = [\n",
    );
    for op in Op::ALL {
        out.push_str(&format!("  \"{}\",\n", op.endpoint().name));
    }
    out.push_str("];\n");
    out
}
