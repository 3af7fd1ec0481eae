//! Credits an operation costs: the price list is the protocol's (`tunesmith_protocol::pricing`,
//! shown by `/openapi.json` and the README); this applies it to a request.

use serde_json::{Map, Value};
use tunesmith_protocol::pricing::price;
use tunesmith_protocol::Op;

pub fn cost(op: Op, param: &Map<String, Value>) -> i64 {
    price(op).credits(param.get("type").and_then(Value::as_str))
}
