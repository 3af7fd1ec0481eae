//! What a server in front of the service (the companion, `tunesmith/server`) asks the package before
//! it forwards a page's request: whether the request passes the rules the client checks, so that a
//! bad request is refused before it costs credits. (Which operation a route is comes from the
//! generated `pkg-template/server/routes.js`: a table in JS costs the wasm nothing.)

use crate::errors::Error;
use crate::js::is_plain_object;
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;

/// Throws the `ValidationError` the client would throw for `request` (a plain object of JSON data:
/// the body of a POST, the query of a GET) of `operation`. Internal to `tunesmith/server`.
#[wasm_bindgen(js_name = validateRequest, skip_typescript)]
pub fn validate_request(operation: &str, request: JsValue) -> Result<(), JsValue> {
    check(operation, &request).map_err(Error::into_js)
}

fn check(operation: &str, request: &JsValue) -> Result<(), Error> {
    let Some(op) = Op::ALL
        .into_iter()
        .find(|op| op.endpoint().name == operation)
    else {
        return Err(Error::invalid(
            "operation",
            "type",
            "no operation has this name",
        ));
    };
    if !is_plain_object(request) {
        return Err(Error::invalid(
            "request",
            "type",
            "the request must be a JSON object",
        ));
    }
    // The very checks of the client's own calls.
    crate::check_request(op, request)
}
