//! `pkg-template/methods.generated.js`: the names of the client's methods that `api.js` defines
//! over the module's one exported entry (`__call`), from the endpoint table. A name list in JS
//! costs the page a few hundred bytes; one wasm export and one glue function per operation cost
//! more than a kilobyte.

use super::header;
use tunesmith_protocol::Op;

/// Whether `op`'s method takes `(request, options)` and goes through `__call`; the uploads take a
/// file, a URL or Base64 data first and are the module's own exports.
fn through_call(op: Op) -> bool {
    !matches!(op, Op::UploadStream | Op::UploadFromUrl | Op::UploadBase64)
}

pub fn methods() -> String {
    let mut out = header("//");
    out.push_str(
        "// The client's methods that take a request object and options: api.js defines each as a call\n\
         // of the module's one entry, `__call`, with the operation's name. The uploads, the waiters and\n\
         // `watchTask` are the module's own exports.\n\
         export const OPERATION_METHODS = [\n",
    );
    for op in Op::ALL.into_iter().filter(|op| through_call(*op)) {
        out.push_str(&format!("  \"{}\",\n", op.endpoint().name));
    }
    out.push_str("];\n");
    out
}
