//! Credits an operation costs: its price is the protocol's `Op::price` (shown by
//! `/openapi.json` and the README); this applies it to a request.

use serde_json::{Map, Value};
use tunesmith_protocol::Op;

pub fn cost(op: Op, param: &Map<String, Value>) -> i64 {
    op.price()
        .credits(param.get("type").and_then(Value::as_str))
}
