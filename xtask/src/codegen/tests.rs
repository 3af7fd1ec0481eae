//! The generator's promise, shown: one edit to a declaration reaches the TypeScript and the
//! run-time check, and the committed files are what the declarations say.

use super::*;
use tunesmith_protocol::schema::{self, check, client, Record, Ty, MUSIC_TASK};

fn music_task_with(extra: &'static [schema::Field]) -> &'static Record {
    let mut fields: Vec<schema::Field> = MUSIC_TASK.fields.to_vec();
    fields.extend_from_slice(extra);
    Box::leak(Box::new(Record {
        twin: None,
        extends: None,
        fields: Box::leak(fields.into_boxed_slice()),
        ..MUSIC_TASK
    }))
}

fn sample_task() -> serde_json::Value {
    serde_json::json!({
        "taskId": "t1", "parentMusicId": "", "param": "{}",
        "response": { "taskId": "t1", "sunoData": [] },
        "status": "PENDING", "type": "GENERATE", "operationType": "generate",
        "errorCode": null, "errorMessage": null, "createTime": "2026-01-01T00:00:00",
        "state": "pending", "stage": "pending", "tracks": [],
    })
}

#[test]
fn a_field_added_to_a_declaration_reaches_the_typescript_and_the_runtime_check() {
    static MOOD: [schema::Field; 1] = [client("mood", Ty::Str, "How the song feels.")];
    let declared = music_task_with(&MOOD);

    let mut ts = String::new();
    ts::record(&mut ts, declared);
    assert!(
        ts.contains("  /** How the song feels. */\n  mood: string;\n"),
        "{ts}"
    );

    // The emulator's answer without the new field now disagrees with the declaration...
    let before = sample_task();
    check(&before, &Ty::Ref(&MUSIC_TASK)).unwrap();
    let err = check(&before, &Ty::Ref(declared)).unwrap_err();
    assert_eq!(err.path, "MusicTask.mood");
    // ...and agrees once it carries it.
    let mut after = before;
    after["mood"] = "bright".into();
    check(&after, &Ty::Ref(declared)).unwrap();
    // A field nobody declared is a disagreement too, in either direction.
    let mut extra = sample_task();
    extra["taskID"] = "typo".into();
    assert_eq!(
        check(&extra, &Ty::Ref(&MUSIC_TASK)).unwrap_err().path,
        "MusicTask.taskID"
    );
}

#[test]
fn the_committed_generated_files_match_the_declarations() {
    // `--check`'s own comparison: its error names every stale file.
    run(true).unwrap();
}

#[test]
fn every_operation_gets_a_client_method_and_every_type_is_exported() {
    let dts = ts::declarations();
    for op in Op::ALL.into_iter().filter(|op| !op.is_upload()) {
        let method = format!("  {}(", op.endpoint().name);
        assert!(dts.contains(&method), "{op:?}");
    }
    let index = ts::index_entry(&hand_written_exports().unwrap());
    // `Client` is the class itself, exported as a value.
    for name in ts::exported_type_names(&dts)
        .into_iter()
        .filter(|n| n != "Client")
    {
        assert!(
            index.contains(&format!("  {name},\n")),
            "{name} not exported"
        );
    }
    assert!(
        dts.contains("Default 600000"),
        "schedule default comes from protocol"
    );
}

#[test]
fn the_companion_knows_every_route_and_which_ones_create_and_query_tasks() {
    let routes = routes::server_routes();
    for op in Op::ALL {
        let e = op.endpoint();
        let line = routes
            .lines()
            .find(|l| l.contains(&format!("operation: \"{}\",", e.name)))
            .unwrap_or_else(|| panic!("{} has no route", e.name));
        assert!(line.contains(&format!("path: \"{}\"", e.path)), "{line}");
        assert!(
            line.contains(&format!("creates: {}", e.creates_task())),
            "{line}"
        );
    }
    // The status queries carry their family: the companion checks ownership on them.
    assert!(routes.contains("operation: \"getTask\", host: \"music\", method: \"GET\", path: \"/api/v1/generate/record-info\", creates: false, family: \"music\""));
    assert!(routes.contains("operation: \"uploadFile\", host: \"upload\""));
}

#[test]
fn the_push_waiter_reads_the_waiters_rules_from_protocol_not_a_copy() {
    use tunesmith_protocol::schedule::DEFAULT_WAIT_TIMEOUT_MS;
    let routes = routes::server_routes();
    assert!(routes
        .contains("export const MUSIC_STAGES = [\"pending\", \"text\", \"first\", \"complete\"];"));
    assert!(routes.contains("export const FINAL_STATES = [\"succeeded\", \"failed\"];"));
    assert!(routes.contains(&format!(
        "export const DEFAULT_WAIT_TIMEOUT_MS = {DEFAULT_WAIT_TIMEOUT_MS};"
    )));
    // push.js follows with follow.js, which the CLI and the MCP server share.
    let read =
        |f: &str| std::fs::read_to_string(crate::root().join("pkg-template").join(f)).unwrap();
    let (push, follow) = (read("push.js"), read("follow.js"));
    for copy in [
        "600_000",
        "600000",
        "30_000",
        "text: 1",
        "first: 2",
        "TEXT_SUCCESS",
    ] {
        assert!(
            !push.contains(copy) && !follow.contains(copy),
            "push.js or follow.js restates `{copy}` instead of importing it"
        );
    }
    for name in [
        "MUSIC_STAGE_RANK",
        "STATE_RANK",
        "MUSIC_STAGES",
        "FINAL_STATES",
    ] {
        assert!(follow.contains(name), "follow.js does not use {name}");
    }
    for name in [
        "DEFAULT_WAIT_TIMEOUT_MS",
        "MUSIC_STAGE_STATUS",
        "./follow.js",
    ] {
        assert!(push.contains(name), "push.js does not use {name}");
    }
}

#[test]
fn every_operation_gets_a_method_on_both_rust_faces_from_the_table() {
    let (rust, js) = (faces::rust_face().unwrap(), faces::js_face());
    for op in Op::ALL {
        let name = schema::snake_case(op.endpoint().name);
        assert_eq!(
            rust.contains(&format!("    {name}(")),
            op != Op::UploadStream,
            "{op:?} in the Rust face"
        );
        assert_eq!(
            js.contains(&format!("    {name} => Op::{op:?};")),
            !op.is_upload(),
            "{op:?} in the JavaScript face's Rust methods"
        );
    }
    // No hand-written list of operations is left beside them.
    for rel in [
        "src/lib.rs",
        "src/rust_api/client.rs",
        "src/rust_api/mod.rs",
    ] {
        let text = std::fs::read_to_string(crate::root().join(rel)).unwrap();
        assert!(!text.contains("=> Op::GenerateMidi;"), "{rel}");
        assert!(!text.contains("= GenerateMidi;"), "{rel}");
    }
}
