//! What a server in front of the service (the companion, `tunesmith/server`) asks the package before
//! it forwards a page's request: whether the request passes the rules the client checks, so that a
//! bad request is refused before it costs credits. (Which operation a route is comes from the
//! generated `pkg-template/server/routes.js`: a table in JS costs the wasm nothing.)

use crate::errors::Error;
use crate::js::Arg;
use crate::settle;
use wasm_bindgen::prelude::*;

/// Throws the `ValidationError` the client would throw for `request` (a plain object of JSON data:
/// the body of a POST, the query of a GET) of `operation`. Internal to `tunesmith/server`.
// `operation` is a `JsValue`, not a `&str`: the glue would convert any other value to a string in
// JavaScript, running its `toString` outside the checked path.
#[wasm_bindgen(js_name = validateRequest, skip_typescript)]
pub fn validate_request(operation: JsValue, request: JsValue) -> Result<(), JsValue> {
    settle::entered()?;
    check(
        &Arg::new(operation, "operation"),
        &Arg::new(request, "request"),
    )
    .map_err(Error::into_js)
}

fn check(operation: &Arg, request: &Arg) -> Result<(), Error> {
    let op = crate::op_named(operation)?;
    if !request.is_plain_object() {
        return Err(request.invalid("type", "the request must be a JSON object"));
    }
    // The very checks of the client's own calls (each read under catch: the companion passes
    // parsed JSON, but the export takes any value).
    crate::check_request(op, request.value())
}
