//! Who may call what, and the answers that are not about the request: auth on every route of
//! both hosts, CORS, request ids, credits, rate limits, emulated codes and armed faults.
//! Over 400 lines on purpose: each test is short, and they share one in-process emulator setup.

mod common;

use common::{Emu, KEY};
use serde_json::{json, Value};
use tunesmith_protocol::{CodeTable, Host, Method, Op};

fn url(emu: &Emu, op: Op) -> String {
    let base = if op.endpoint().host == Host::Upload {
        &emu.upload
    } else {
        &emu.music
    };
    format!("{base}{}", op.path("suno"))
}

async fn call(emu: &Emu, op: Op, auth: Option<&str>) -> (u16, Value) {
    let mut req = match op.endpoint().method {
        Method::Get => emu.http.get(format!("{}?taskId=x", url(emu, op))),
        Method::Post => emu.http.post(url(emu, op)).json(&json!({})),
    };
    if let Some(a) = auth {
        req = req.header("authorization", a);
    }
    let res = req.send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

#[tokio::test]
async fn every_route_of_both_hosts_requires_the_key() {
    let emu = Emu::start(&[]).await;
    for op in Op::ALL {
        for auth in [
            None,
            Some("Bearer wrong".to_owned()),
            Some(KEY.to_owned()),
            Some("Basic abc".to_owned()),
        ] {
            let (status, v) = call(&emu, op, auth.as_deref()).await;
            assert_eq!(v["code"], 401, "{op:?} {auth:?}");
            if op.endpoint().host == Host::Upload {
                assert_eq!(status, 401);
                assert!(v["msg"].is_string());
            } else {
                assert_eq!(status, 200);
            }
        }
    }
    let stats = emu.stats(None).await;
    assert_eq!(stats["tasksCreated"], 0);
    // The development key only works when no key is configured.
    let (_, v) = call(&emu, Op::GetCredits, Some("Bearer ts-dev-key")).await;
    assert_eq!(v["code"], 401);
    let dev = Emu::with(tunesmith_emulator::Config::for_tests()).await;
    let (_, v) = call(&dev, Op::GetCredits, Some("Bearer ts-dev-key")).await;
    assert_eq!(v["code"], 200);
}

#[tokio::test]
async fn public_routes_need_no_key_and_every_answer_carries_id_and_corp() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let done = emu.finished("Public").await;
    let audio = done["response"]["sunoData"][0]["audioUrl"]
        .as_str()
        .unwrap();
    for url in [
        audio.to_owned(),
        format!("{}/openapi.json", emu.music),
        format!("{}/inbox/x", emu.music),
        format!("{}/_emulator/stats", emu.music),
    ] {
        let res = emu.public(&url).await;
        assert_eq!(res.status(), 200, "{url}");
        assert!(res.headers().contains_key("x-request-id"));
        assert_eq!(
            res.headers()["cross-origin-resource-policy"],
            "cross-origin"
        );
    }
    let a = emu
        .public(&format!("{}/api/v1/generate/credit", emu.music))
        .await;
    let b = emu.public(&format!("{}/api/nothing", emu.upload)).await;
    assert_ne!(a.headers()["x-request-id"], b.headers()["x-request-id"]);
    assert_eq!(b.status(), 404);
}

#[tokio::test]
async fn preflights_allow_the_client_headers_and_expose_retry_after() {
    let emu = Emu::start(&[]).await;
    for base in [&emu.music, &emu.upload] {
        let res = emu
            .http
            .request(reqwest::Method::OPTIONS, format!("{base}/api/v1/generate"))
            .header("origin", "http://127.0.0.1:9999")
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "authorization,content-type,x-emulator-tag,x-emulate-code,x-emulate-retry-after",
            )
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success());
        let h = res.headers();
        assert_eq!(h["access-control-allow-origin"], "*");
        let allowed = h["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_ascii_lowercase();
        for name in [
            "authorization",
            "content-type",
            "x-emulator-tag",
            "x-emulate-code",
        ] {
            assert!(allowed.contains(name), "{allowed}");
        }
        assert!(h["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("POST"));
        assert!(h.contains_key("x-request-id"));
    }
    let res = emu
        .http
        .get(format!("{}/api/v1/generate/credit", emu.music))
        .header("origin", "http://127.0.0.1:9999")
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    let exposed = res.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    for name in ["retry-after", "retry-after-ms", "x-request-id"] {
        assert!(exposed.contains(name), "{exposed}");
    }
}

#[tokio::test]
async fn credits_are_charged_and_missing_credits_create_nothing() {
    let emu = Emu::start(&["--credits", "25"]).await;
    assert_eq!(emu.get("/api/v1/generate/credit").await["data"], 25);
    emu.generate("c", "one").await;
    assert_eq!(emu.get("/api/v1/generate/credit").await["data"], 15);
    emu.generate("c", "two").await;
    let body = json!({"customMode": false, "instrumental": true, "model": "V6",
                      "callBackUrl": emu.inbox_url("c"), "prompt": "three"});
    let v = emu.post("/api/v1/generate", body.clone()).await;
    assert_eq!(v["code"], 429, "music family: 429 = insufficient credits");
    assert_eq!(emu.get("/api/v1/generate/credit").await["data"], 5);
    let res = emu
        .http
        .post(format!("{}/_emulator/credits", emu.music))
        .bearer_auth(KEY)
        .json(&json!({"credits": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(emu.get("/api/v1/generate/credit").await["data"], 0);
    let cover = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": "any", "callBackUrl": emu.inbox_url("c")}),
        )
        .await;
    assert_eq!(
        cover["code"], 404,
        "a missing task is reported before credits"
    );
    let stats = emu.stats(None).await;
    assert_eq!(stats["tasksCreated"], 2);
    let unknown = emu
        .http
        .post(format!("{}/_emulator/credits", emu.music))
        .bearer_auth("nobody")
        .json(&json!({"credits": 5}))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 401);
}

#[tokio::test]
async fn cover_table_answers_402_without_credits() {
    let emu = Emu::start(&["--credits", "10"]).await;
    let done = emu.finished("spent").await;
    let v = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": done["taskId"], "callBackUrl": emu.inbox_url("c")}),
        )
        .await;
    assert_eq!(v["code"], 402);
}

#[tokio::test]
async fn rate_limit_answers_with_retry_after_per_family() {
    let emu = Emu::start(&["--rate-limit", "3"]).await;
    for _ in 0..3 {
        assert_eq!(emu.get("/api/v1/generate/credit").await["code"], 200);
    }
    let res = emu
        .http
        .get(format!("{}/api/v1/generate/credit", emu.music))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=10).contains(&retry));
    assert_eq!(res.json::<Value>().await.unwrap()["code"], 430);
    let cover: Value = emu.get("/api/v1/suno/cover/record-info?taskId=x").await;
    assert_eq!(cover["code"], 429);
    let upload = emu
        .http
        .post(format!("{}/api/file-base64-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&json!({"base64Data": "aGk="}))
        .send()
        .await
        .unwrap();
    assert_eq!(upload.status(), 429);
    assert!(upload.headers().contains_key("retry-after"));
    let other = emu
        .http
        .get(format!("{}/api/v1/generate/credit", emu.music))
        .bearer_auth("other")
        .send()
        .await
        .unwrap();
    assert_eq!(
        other.json::<Value>().await.unwrap()["code"],
        401,
        "auth comes before the limit"
    );
}

#[tokio::test]
async fn emulated_codes_change_nothing() {
    let emu = Emu::start(&[]).await;
    let body = json!({"customMode": false, "instrumental": true, "model": "V6",
                      "callBackUrl": emu.inbox_url("e"), "prompt": "p"});
    for code in [405, 429, 430, 455, 500, 400, 401] {
        let res = emu
            .http
            .post(format!("{}/api/v1/generate", emu.music))
            .bearer_auth(KEY)
            .header("x-emulate-code", code.to_string())
            .json(&body)
            .send()
            .await
            .unwrap();
        let retry = res
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_owned());
        // A music-table 429 is insufficient credits, not "try later": no Retry-After.
        assert_eq!(retry.is_some(), [405, 430, 455].contains(&code), "{code}");
        if let Some(r) = retry {
            assert_eq!(r, "1");
        }
        assert_eq!(res.json::<Value>().await.unwrap()["code"], code);
    }
    let res = emu
        .http
        .get(format!("{}/api/v1/generate/credit", emu.music))
        .bearer_auth(KEY)
        .header("x-emulate-code", "455")
        .header("x-emulate-retry-after", "0.2")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["retry-after"], "1");
    assert_eq!(res.headers()["retry-after-ms"], "200");
    let upload = emu
        .http
        .post(format!("{}/api/file-base64-upload", emu.upload))
        .bearer_auth(KEY)
        .header("x-emulate-code", "500")
        .json(&json!({"base64Data": "aGk="}))
        .send()
        .await
        .unwrap();
    assert_eq!(upload.status(), 500);
    let stats = emu.stats(None).await;
    assert_eq!(stats["tasksCreated"], 0);
    assert_eq!(
        emu.get("/api/v1/generate/credit").await["data"],
        10_000,
        "nothing charged"
    );
}

#[tokio::test]
async fn armed_faults_hit_only_tagged_requests_of_the_named_ops() {
    let emu = Emu::start(&[]).await;
    let res = emu
        .admin("faults", json!({"tag": "t1", "code": 500, "times": 2, "retryAfterMs": 200, "ops": ["getCredits"]}))
        .await;
    assert_eq!(res.status(), 200);
    let credit = |tag: Option<&'static str>| {
        let mut req = emu
            .http
            .get(format!("{}/api/v1/generate/credit", emu.music))
            .bearer_auth(KEY);
        if let Some(t) = tag {
            req = req.header("x-emulator-tag", t);
        }
        req.send()
    };
    assert_eq!(
        credit(None).await.unwrap().json::<Value>().await.unwrap()["code"],
        200
    );
    let first = credit(Some("t1")).await.unwrap();
    assert_eq!(first.headers()["retry-after-ms"], "200");
    assert_eq!(first.json::<Value>().await.unwrap()["code"], 500);
    assert_eq!(
        credit(Some("t1"))
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()["code"],
        500
    );
    assert_eq!(
        credit(Some("t1"))
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()["code"],
        200
    );

    // A faulted create creates nothing; a delay answers normally.
    emu.admin("faults", json!({"tag": "t2", "code": 455, "times": 1}))
        .await;
    emu.admin("faults", json!({"tag": "t2", "delayMs": 30, "times": 1}))
        .await;
    let body = json!({"customMode": false, "instrumental": true, "model": "V6",
                      "callBackUrl": emu.inbox_url("f"), "prompt": "p"});
    let send = || {
        emu.http
            .post(format!("{}/api/v1/generate", emu.music))
            .bearer_auth(KEY)
            .header("x-emulator-tag", "t2")
            .json(&body)
            .send()
    };
    assert_eq!(
        send().await.unwrap().json::<Value>().await.unwrap()["code"],
        455
    );
    assert_eq!(
        send().await.unwrap().json::<Value>().await.unwrap()["code"],
        200
    );
    let stats = emu.stats(Some("t2")).await;
    assert_eq!(stats, json!({"requests": 2, "tasksCreated": 1}));

    let log: Value = emu
        .public(&format!("{}/_emulator/requests?tag=t1", emu.music))
        .await
        .json()
        .await
        .unwrap();
    let entries = log["requests"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["op"], "getCredits");
    assert_eq!(entries[0]["code"], 500);
    assert_eq!(entries[2]["code"], 200);
    let since = entries[1]["seq"].as_u64().unwrap();
    let later: Value = emu
        .public(&format!(
            "{}/_emulator/requests?tag=t1&since={since}",
            emu.music
        ))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(later["requests"].as_array().unwrap().len(), 1);
    let bad = emu.admin("faults", json!({"code": 1})).await;
    assert_eq!(bad.status(), 400);
}

#[tokio::test]
async fn fault_rate_one_fails_every_api_call_with_a_retryable_code() {
    let emu = Emu::start(&["--fault-rate", "1", "--seed", "7"]).await;
    for _ in 0..10 {
        let res = emu
            .http
            .get(format!("{}/api/v1/generate/credit", emu.music))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        let has_retry = res.headers().contains_key("retry-after");
        let code = res.json::<Value>().await.unwrap()["code"].as_i64().unwrap();
        assert!([405, 430, 455, 500].contains(&code), "{code}");
        assert_eq!(has_retry, code != 500);
        assert!(tunesmith_protocol::codes::classify(CodeTable::Music, code).is_some());
    }
    emu.generate_expect_fault().await;
}

trait FaultyCreate {
    async fn generate_expect_fault(&self);
}

impl FaultyCreate for Emu {
    async fn generate_expect_fault(&self) {
        let v = self
            .post("/api/v1/generate", json!({"customMode": false, "instrumental": true, "model": "V6", "callBackUrl": self.inbox_url("f"), "prompt": "p"}))
            .await;
        assert_ne!(v["code"], 200);
        let stats = self.stats(None).await;
        assert_eq!(stats["tasksCreated"], 0);
    }
}

/// With the demo page served (`--www`), a POST to a path that is no operation is still the
/// service's 404 envelope, not the file server's bare HTTP 405 (which reads as a rate limit).
#[tokio::test]
async fn unknown_paths_answer_the_service_404_even_beside_the_page() {
    if common::native_only(
        "unknown_paths_answer_the_service_404_even_beside_the_page",
        "--www (the demo page's file server) is the native binary's only",
    ) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("tunesmith-www-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>page</title>").unwrap();
    let emu = Emu::start(&["--www", dir.to_str().unwrap()]).await;
    let res = emu.post_raw("/api/v1/no-such-operation", json!({})).await;
    assert_eq!(res.status().as_u16(), 404);
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["code"], 404, "the envelope, with its code: {v}");
    let page = emu
        .http
        .get(format!("{}/index.html", emu.music))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200, "the page is still served");
    let _ = std::fs::remove_dir_all(&dir);
}
