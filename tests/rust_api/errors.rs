//! Validation before the network, and one typed error per endpoint family; the key never leaks.

use super::common::{stats, tag, KEY};
use super::helpers::*;
use tunesmith::rust_api::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn invalid_requests_are_refused_before_anything_is_sent() {
    let t = tag("rs-validation");
    let client = client(&t);
    let mut bad_model = generate_request(&t, "x");
    bad_model.model = "V9".into();
    let e = client.generate(&bad_model).await.unwrap_err();
    assert_eq!(e.kind(), ClientErrorKind::Validation, "{e:?}");
    assert_eq!(
        (e.field(), e.rule()),
        (Some("model"), Some(RuleKind::OneOf))
    );
    let custom_without_prompt = ExtendRequest {
        default_param_flag: true,
        audio_id: "a1".into(),
        call_back_url: "https://example.com/cb".into(),
        ..ExtendRequest::default()
    };
    let e = client.extend(&custom_without_prompt).await.unwrap_err();
    assert_eq!(e.kind().as_str(), "validation");
    assert_eq!(
        (e.field(), e.rule()),
        (Some("prompt"), Some(RuleKind::Required))
    );
    let e = client
        .convert_to_wav(&ConvertToWavRequest::default())
        .await
        .unwrap_err();
    assert_eq!(e.rule(), Some(RuleKind::Dependency), "{e:?}");
    let e = client
        .get_task(&TaskQuery {
            task_id: " ".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.rule(), Some(RuleKind::Required), "{e:?}");
    assert!(client.wait_for_task("", fast()).await.is_err());
    assert_eq!(stats(&t).await, (0, 0), "nothing reached the emulator");
}

#[wasm_bindgen_test]
async fn the_same_code_means_what_its_family_says() {
    let t = tag("rs-families-429");
    let client = client_with(&t, 0, &[("X-Emulate-Code", "429")]);
    let music = client
        .generate(&generate_request(&t, "x"))
        .await
        .unwrap_err();
    assert_eq!(
        music.api_kind(),
        Some(ErrorKind::InsufficientCredits),
        "{music}"
    );
    assert_eq!(music.kind().as_str(), "insufficient_credits");
    assert_eq!((music.code(), music.status()), (Some(429), Some(200)));
    assert!(music.request_id().is_some_and(|r| !r.is_empty()));
    assert!(
        !music.retryable(),
        "a create with no credits must not be repeated"
    );
    assert_eq!(music.attempts(), 1);

    let cover = client
        .get_cover(&TaskQuery {
            task_id: "any".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(cover.api_kind(), Some(ErrorKind::RateLimited), "{cover}");
    assert_eq!(cover.code(), Some(429));
    assert!(cover.retryable(), "a rate-limited query may be repeated");
    assert_eq!(cover.attempts(), 1, "max_retries 0");

    for e in [&music, &cover] {
        assert!(!format!("{e} {e:?}").contains(KEY), "the key leaked: {e:?}");
    }
    assert!(!format!("{:?}", client.config()).contains(KEY));
    assert_eq!(
        stats(&t).await,
        (2, 0),
        "X-Emulate-Code answers create nothing"
    );
}

#[wasm_bindgen_test]
async fn an_unknown_task_is_not_found_and_a_failed_task_is_task_failed() {
    let t = tag("rs-not-found");
    let client = client(&t);
    let e = client
        .get_task(&TaskQuery {
            task_id: "no-such-task".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.api_kind(), Some(ErrorKind::NotFound), "{e}");
    let created = client
        .generate(&generate_request(&t, "emulate:GENERATE_AUDIO_FAILED"))
        .await
        .unwrap();
    let e = client
        .wait_for_task(&created.task_id, fast())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ClientErrorKind::TaskFailed, "{e:?}");
    assert_eq!(e.task_id(), Some(created.task_id.as_str()));
    assert_eq!(e.task_status().as_deref(), Some("GENERATE_AUDIO_FAILED"));
}

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
