//! The module's panic hook stops the module (and rejects every pending Promise) for a panic of the
//! library only: a test's own failed assertion fails that test, and the tests after it still run
//! against a working module.

use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

/// The runner sees the assertion's message (its hook still reports it) and the module goes on.
#[wasm_bindgen_test]
#[should_panic(expected = "a test's own assertion")]
fn a_failed_assertion_in_a_test_fails_that_test_only() {
    // Any entry point installs the module's hook first.
    let refused = tunesmith::parse_callback(JsValue::NULL);
    assert!(refused.is_err(), "null is no callback");
    panic!("a test's own assertion");
}

/// Runs after the test above (the runner keeps the order of declaration): the module still works.
#[wasm_bindgen_test]
fn the_module_still_answers_after_a_test_failed() {
    let body =
        r#"{"code":200,"msg":"ok","data":{"callbackType":"complete","task_id":"t1","data":[]}}"#;
    let parsed = tunesmith::parse_callback(JsValue::from_str(body));
    assert!(parsed.is_ok(), "{parsed:?}");
}
