//! A client's settings: bad options are refused with a typed error, the key comes as a literal, a
//! function or (in a page) not at all, and a custom `fetch` is used.

use super::common::*;
use js_sys::Function;
use serde_json::json;
use tunesmith::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn bad_client_options_throw_typed_errors() {
    for (extra, field) in [
        (json!({ "baseUrl": "ftp://x" }), "baseUrl"),
        (json!({ "maxRetries": -1 }), "maxRetries"),
        (json!({ "maxRetries": 2.5 }), "maxRetries"),
        (json!({ "timeoutMs": 0 }), "timeoutMs"),
        (json!({ "apiKey": 42 }), "apiKey"),
        (json!({ "headers": { "X-A": 1 } }), "headers"),
    ] {
        let opts = options("opts", extra);
        let e = match Client::new(Some(wasm_bindgen::JsCast::unchecked_into(opts))) {
            Ok(_) => panic!("{field}: accepted"),
            Err(e) => e,
        };
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field);
    }
}

#[wasm_bindgen_test]
async fn a_custom_fetch_and_an_api_key_function_are_used() {
    let t = tag("custom-fetch");
    let counter = js(json!({ "calls": 0, "keys": 0 }));
    let fetch = Function::new_with_args(
        "counter, url, init",
        "counter.calls += 1; return globalThis.fetch(url, init);",
    )
    .bind1(&JsValue::NULL, &counter);
    let api_key = Function::new_with_args(
        "counter, key",
        "counter.keys += 1; return Promise.resolve(key);",
    )
    .bind2(&JsValue::NULL, &counter, &JsValue::from_str(KEY));
    let opts = options(&t, json!({}));
    js_sys::Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    js_sys::Reflect::set(&opts, &"apiKey".into(), &api_key).unwrap();
    js_sys::Reflect::delete_property(
        opts.unchecked_ref::<js_sys::Object>(),
        &"dangerouslyAllowBrowser".into(),
    )
    .unwrap();
    let client = Client::new(Some(opts.unchecked_into())).unwrap();
    let credits = ok(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert!(prop(&credits, "credits").as_f64().is_some());
    assert_eq!(prop(&counter, "calls").as_f64(), Some(1.0));
    assert_eq!(prop(&counter, "keys").as_f64(), Some(1.0));
    assert_eq!(stats(&t).await.0, 1);
}

#[wasm_bindgen_test]
async fn a_failing_api_key_function_is_a_typed_error() {
    let api_key = Function::new_no_args("return Promise.reject(new Error('backend down'))");
    let opts = js(json!({ "baseUrl": MUSIC }));
    js_sys::Reflect::set(&opts, &"apiKey".into(), &api_key).unwrap();
    let client = Client::new(Some(opts.unchecked_into())).unwrap();
    let e = err(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_class(&e, "TunesmithError");
    assert_eq!(prop_str(&e, "kind"), "configuration");
    assert_eq!(message(&prop(&e, "cause")), "backend down");
}

/// In a page, a literal key needs `dangerouslyAllowBrowser`; in Node and workers it does not.
#[wasm_bindgen_test]
fn the_browser_key_guard_throws_only_in_pages() {
    let in_page = !prop(&js_sys::global(), "document").is_undefined();
    let literal = js(json!({ "baseUrl": MUSIC, "apiKey": "secret-literal-key" }));
    match Client::new(Some(literal.unchecked_into())) {
        Ok(_) => assert!(!in_page, "a page must refuse a literal key"),
        Err(e) => {
            assert!(in_page, "outside a page a literal key is fine");
            assert_class(&e, "TunesmithError");
            assert_eq!(prop_str(&e, "kind"), "configuration");
            let m = message(&e);
            assert!(
                m.contains("baseUrl")
                    && m.contains("function")
                    && m.contains("dangerouslyAllowBrowser"),
                "{m}"
            );
            assert!(!m.contains("secret-literal-key"));
        }
    }
    // The two safe ways are accepted in a page.
    Client::new(Some(js(json!({ "baseUrl": MUSIC })).unchecked_into())).unwrap();
    let f = js(json!({ "baseUrl": MUSIC }));
    js_sys::Reflect::set(&f, &"apiKey".into(), &Function::new_no_args("return 'k'")).unwrap();
    Client::new(Some(f.unchecked_into())).unwrap();
}

/// The Rust face's settings are checked the same way.
#[cfg(feature = "rust-api")]
mod rust_face {
    use tunesmith::rust_api::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn a_bad_config_is_refused() {
        let e = Client::new(ClientConfig {
            base_url: "ftp://example.com".into(),
            ..ClientConfig::default()
        })
        .unwrap_err();
        assert_eq!(
            (e.kind(), e.field()),
            (ClientErrorKind::Validation, Some("base_url"))
        );
        let e = Client::new(ClientConfig {
            api_key: Some(" ".into()),
            ..ClientConfig::default()
        })
        .unwrap_err();
        assert_eq!(e.kind(), ClientErrorKind::Configuration);
    }
}
