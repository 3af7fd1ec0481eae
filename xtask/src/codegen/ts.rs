//! Writes the package's TypeScript from the declarations: vocabularies, requests (with their
//! rules in the doc comments), records, answers, callback events, the waiters' options with their
//! defaults, the `Client` methods with their overloads, and the browser entry's export list.

use super::{http_method, quoted, request_types, HEADER};
use std::collections::BTreeSet;
use tunesmith_protocol::codes::ErrorKind;
use tunesmith_protocol::endpoints::{Host, Op, CALLBACK_FIELDS};
use tunesmith_protocol::num;
use tunesmith_protocol::rules::{FieldRule, Kind};
use tunesmith_protocol::schedule;
use tunesmith_protocol::schema::{Record, Ty, Union, Vocab, ERROR_KIND, RECORDS, UNIONS, VOCABS};
use tunesmith_protocol::waiter::LAST_QUERY_LEAD_MS;
use tunesmith_protocol::TaskFamily;

pub fn declarations() -> String {
    let mut out = HEADER.to_owned();
    out.push_str("// The facts of the service as the package's types: edit protocol/, then run the generator.\n");
    section(&mut out, "Vocabularies");
    for v in VOCABS {
        vocab(&mut out, v);
    }
    out.push_str(&format!(
        "\n/** The kinds an `ApiError` can have: what the service's answer means for the endpoint's family. */\nexport type ServiceErrorKind = Extract<{}, {}>;\n",
        ERROR_KIND.name,
        quoted(ErrorKind::ALL.map(ErrorKind::as_str), " | ")
    ));

    section(&mut out, "Requests");
    // Uploads take a file and options; only their storage target is a named request type.
    for (name, op) in request_types() {
        if !op.is_upload() || op == Op::UploadStream {
            request(&mut out, name, op);
        }
    }

    section(&mut out, "Records, answers and callback events");
    for r in reachable_records() {
        record(&mut out, r);
    }
    for u in UNIONS {
        union(&mut out, u);
    }

    section(&mut out, "Waiting");
    wait_options(&mut out);
    for kind in TaskFamily::ALL {
        succeeded(&mut out, kind);
    }

    section(&mut out, "The Client's methods");
    client(&mut out);
    companion_client(&mut out);
    out
}

/// What a succeeded task of each family has for sure: the fields its success fills in, with the
/// type they then have (without the `null` or the absence a running task may show).
const SUCCEEDED: &[(TaskFamily, &[(&str, &str)])] = &[
    (TaskFamily::Music, &[("stage", "\"complete\"")]),
    (
        TaskFamily::Cover,
        &[("completeTime", "string"), ("response", "CoverResponse")],
    ),
    (
        TaskFamily::Wav,
        &[("completeTime", "string"), ("response", "WavResponse")],
    ),
    (TaskFamily::Lyrics, &[("response", "LyricsResponse")]),
    (
        TaskFamily::VocalSeparation,
        &[
            ("completeTime", "string"),
            ("response", "Stems & { originData: OriginStem[] }"),
        ],
    ),
    (
        TaskFamily::Video,
        &[("completeTime", "string"), ("response", "VideoResponse")],
    ),
    (
        TaskFamily::Midi,
        &[("completeTime", "string"), ("midiData", "MidiData")],
    ),
    (TaskFamily::Recovery, &[]),
    (TaskFamily::VoiceValidation, &[("validateInfo", "string")]),
    (TaskFamily::Voice, &[("voiceId", "string")]),
];

/// `SucceededMusicTask`...: what a family's waiter, or its create with `wait`, resolves with.
fn succeeded_name(kind: TaskFamily) -> String {
    format!("Succeeded{}", kind.query().output().name)
}

fn succeeded(out: &mut String, kind: TaskFamily) {
    let record = kind.query().output();
    let (_, fields) = SUCCEEDED
        .iter()
        .find(|(k, _)| *k == kind)
        .unwrap_or_else(|| panic!("no succeeded shape for {kind:?}"));
    out.push('\n');
    doc(
        out,
        "",
        &format!(
            "A `{}` that succeeded: what `{}`, and a create with `wait`, resolve with. What success fills in is there, not `null`.",
            record.name,
            kind.waiter_name()
        ),
    );
    out.push_str(&format!(
        "export interface {} extends {} {{\n  state: \"succeeded\";\n",
        succeeded_name(kind),
        record.name
    ));
    for (name, ty) in *fields {
        let known = record.fields.iter().any(|f| f.name == *name);
        assert!(known, "{} has no field {name}", record.name);
        out.push_str(&format!("  {name}: {ty};\n"));
    }
    out.push_str("}\n");
}

fn section(out: &mut String, title: &str) {
    let rule = "-".repeat(96usize.saturating_sub(title.len() + 9));
    out.push_str(&format!("\n// ---- {title} {rule}\n"));
}

fn doc(out: &mut String, indent: &str, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    if !text.contains('\n') && text.len() + indent.len() < 100 {
        out.push_str(&format!("{indent}/** {text} */\n"));
        return;
    }
    out.push_str(&format!("{indent}/**\n"));
    for line in text.lines() {
        out.push_str(&format!("{indent} * {line}\n").replace(" * \n", " *\n"));
    }
    out.push_str(&format!("{indent} */\n"));
}

fn vocab(out: &mut String, v: &Vocab) {
    // The doc, then a list of the values that have a meaning of their own.
    let mut text = v.doc.to_owned();
    let meanings = v
        .values
        .iter()
        .zip(v.value_docs)
        .filter(|(_, d)| !d.is_empty());
    for (i, (value, meaning)) in meanings.enumerate() {
        let before = if i == 0 { "\n\n" } else { "\n" };
        text.push_str(&format!("{before}- `{value}`: {meaning}"));
    }
    out.push('\n');
    if !is_open(v) {
        doc(out, "", &text);
        let values = quoted(v.values, " | ");
        out.push_str(&format!("export type {} = {values};\n", v.name));
        return;
    }
    // An open vocabulary (a request's `Kind::Open`): the known values, the deprecated ones apart
    // (an editor strikes a `@deprecated` name through), and the type itself, which admits any other
    // string: a value released after the package is passed on, and the service answers for it.
    doc(out, "", &text);
    out.push_str(&format!(
        "export type Known{} = {};\n",
        v.name,
        quoted(v.values, " | ")
    ));
    let deprecated: Vec<&str> = v
        .values
        .iter()
        .zip(v.value_docs)
        .filter(|(_, d)| d.starts_with("deprecated"))
        .map(|(value, _)| *value)
        .collect();
    if !deprecated.is_empty() {
        out.push('\n');
        doc(
            out,
            "",
            &format!(
                "The `{}` values kept for backward compatibility only; they still work.\n@deprecated The service keeps them for backward compatibility only: use a current value.",
                v.name
            ),
        );
        out.push_str(&format!(
            "export type Deprecated{} = {};\n",
            v.name,
            quoted(&deprecated, " | ")
        ));
    }
    out.push('\n');
    doc(
        out,
        "",
        &format!(
            "{} A `Known{}` value, or a newer one's name: the client passes it on, and the service answers for it.",
            v.doc, v.name
        ),
    );
    out.push_str(&format!(
        "export type {} = Known{} | (string & {{}});\n",
        v.name, v.name
    ));
}

/// Whether a request field takes `v`'s values as an open list (`Kind::Open`).
fn is_open(v: &Vocab) -> bool {
    Op::ALL.into_iter().any(|op| {
        op.endpoint()
            .fields
            .iter()
            .any(|f| matches!(f.kind, Kind::Open(values) if values == v.values))
    })
}

fn vocab_named(values: &[&str]) -> Option<&'static Vocab> {
    VOCABS.iter().copied().find(|v| v.values == values)
}

fn kind_type(kind: Kind) -> String {
    match kind {
        Kind::Number { .. } => "number".into(),
        Kind::Integer { min, max } if max - min <= 5 => (min..=max)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" | "),
        Kind::Integer { .. } => "number".into(),
        Kind::Bool => "boolean".into(),
        Kind::UrlList { .. } => "string[]".into(),
        Kind::OneOf(values) => vocab_named(values).map_or(quoted(values, " | "), |v| v.name.into()),
        Kind::Open(values) => vocab_named(values).map_or(
            format!("{} | (string & {{}})", quoted(values, " | ")),
            |v| v.name.into(),
        ),
        _ => "string".into(),
    }
}

/// The rule of a field, in words, for its doc comment.
fn rule_text(kind: Kind) -> Option<String> {
    Some(match kind {
        Kind::Text { max: Some(max) } => format!("At most {max} characters."),
        Kind::Text { max: None } => return None,
        Kind::Words { max_words } => format!("At most {max_words} words."),
        Kind::Url => "An absolute http or https URL.".into(),
        Kind::Number(&tunesmith_protocol::rules::Range { min, max, step }) => match step {
            Some(step) => format!("{} to {}, in steps of {}.", num::fmt(min), num::fmt(max), num::fmt(step)),
            None => format!("{} to {}.", num::fmt(min), num::fmt(max)),
        },
        Kind::Integer { min, max } => format!("A whole number from {min} to {max}."),
        Kind::OneOf(values) => match vocab_named(values) {
            Some(v) => format!("One of the `{}` values.", v.name),
            None => return None,
        },
        Kind::Open(values) => match vocab_named(values) {
            Some(v) => format!("One of the `Known{}` values, or a newer one's name (passed on to the service).", v.name),
            None => format!("Known: {}; a newer one's name is passed on to the service.", quoted(values, ", ")),
        },
        Kind::Bool => return None,
        Kind::UrlList { min: 0, max } => format!("At most {max} absolute http or https URLs."),
        Kind::UrlList { min, max } if min == max => format!("Exactly {min} absolute http or https URLs."),
        Kind::UrlList { min, max } => format!("{min} to {max} absolute http or https URLs."),
        Kind::DirPath => "A relative folder path: no leading `/`, no `.` or `..` segments, no `\\`, `:` or control characters.".into(),
        Kind::FileName => "One file name: no `/`, `\\` or `:`, not `.` or `..`, at most 255 bytes.".into(),
    })
}

fn request(out: &mut String, name: &str, op: Op) {
    let e = op.endpoint();
    out.push('\n');
    let summary = if name == "TaskQuery" {
        "A status query: the `taskId` returned at creation.".to_owned()
    } else {
        format!("`{}`: {}.", e.name, e.summary)
    };
    doc(out, "", &summary);
    out.push_str(&format!("export interface {name} {{\n"));
    for f in e.fields {
        field_rule(out, f);
    }
    out.push_str("}\n");
}

fn field_rule(out: &mut String, f: &FieldRule) {
    let mut text = f.doc.trim_end_matches('.').to_owned();
    if !text.is_empty() {
        text.push('.');
    }
    // The rule in words, unless the table's own prose already states it.
    let stated = |rule: &str| {
        text.to_ascii_lowercase()
            .contains(&rule.trim_end_matches('.').to_ascii_lowercase())
    };
    if let Some(rule) = rule_text(f.kind).filter(|r| !stated(r)) {
        text = format!("{text} {rule}").trim_start().to_owned();
    }
    doc(out, "  ", &text);
    let q = if f.required { "" } else { "?" };
    out.push_str(&format!("  {}{q}: {};\n", f.name, kind_type(f.kind)));
}

/// Records the client returns, and every record they contain, in declaration order (so that the
/// file reads like the schema).
fn reachable_records() -> Vec<&'static Record> {
    fn visit(ty: &Ty, seen: &mut BTreeSet<&'static str>) {
        match ty {
            Ty::Ref(r) => add(r, seen),
            Ty::List(t) | Ty::Null(t) => visit(t, seen),
            Ty::Union(u) => u.members.iter().for_each(|m| add(m, seen)),
            _ => {}
        }
    }
    fn add(r: &'static Record, seen: &mut BTreeSet<&'static str>) {
        if seen.insert(r.name) {
            r.extends.into_iter().for_each(|base| add(base, seen));
            r.fields.iter().for_each(|f| visit(&f.ty, seen));
        }
    }
    let mut seen = BTreeSet::new();
    Op::ALL
        .into_iter()
        .for_each(|op| add(op.output(), &mut seen));
    UNIONS
        .iter()
        .flat_map(|u| u.members)
        .for_each(|m| add(m, &mut seen));
    let records = RECORDS.iter().copied();
    records.filter(|r| seen.contains(r.name)).collect()
}

pub fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Str | Ty::Time | Ty::Epoch => "string".into(),
        Ty::Num | Ty::Int | Ty::Size => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::Lit(s) => format!("\"{s}\""),
        Ty::Enum(v) => v.name.into(),
        Ty::Ref(r) | Ty::Twin(r) => r.name.into(),
        Ty::Union(u) => u.name.into(),
        Ty::List(t) => match **t {
            Ty::Null(_) => format!("({})[]", ts_type(t)),
            _ => format!("{}[]", ts_type(t)),
        },
        Ty::Null(t) => format!("{} | null", ts_type(t)),
        Ty::Unknown => "unknown".into(),
    }
}

pub(super) fn record(out: &mut String, r: &Record) {
    out.push('\n');
    doc(out, "", r.doc);
    let extends = r
        .extends
        .map_or(String::new(), |b| format!(" extends {}", b.name));
    out.push_str(&format!("export interface {}{extends} {{\n", r.name));
    for f in r.fields {
        doc(out, "  ", f.doc);
        let q = if f.optional { "?" } else { "" };
        out.push_str(&format!("  {}{q}: {};\n", f.name, ts_type(&f.ty)));
    }
    out.push_str("}\n");
}

fn union(out: &mut String, u: &Union) {
    out.push('\n');
    doc(out, "", u.doc);
    out.push_str(&format!("export type {} =\n", u.name));
    for (i, m) in u.members.iter().enumerate() {
        let end = if i + 1 == u.members.len() { ";" } else { "" };
        out.push_str(&format!("  | {}{end}\n", m.name));
    }
}

fn wait_options(out: &mut String) {
    let min = schedule::DEFAULT_MIN_INTERVAL_MS;
    let max = schedule::DEFAULT_MAX_INTERVAL_MS;
    let timeout = schedule::DEFAULT_WAIT_TIMEOUT_MS;
    let growth = schedule::GROWTH;
    let jitter = (schedule::JITTER * 100.0).round();
    out.push_str(&format!(
        r#"
/**
 * Options of `waitForTask` and the other waiters, of `watchTask`, and of `wait: {{...}}` on a create.
 *
 * The first query goes out at once; the next ones after `minIntervalMs`, each interval {growth}
 * times the one before, up to `maxIntervalMs`, with ±{jitter}% jitter so that many waiters do not
 * query in step. Network failures, timeouts, 500, maintenance and rate-limit answers do not fail
 * the wait: the next query follows the schedule; a rate-limit answer doubles the interval (per
 * answer in a row, up to the maximum) and a `Retry-After` is honoured. Each query is a single
 * attempt (the client's `maxRetries` does not apply: the schedule is the retry policy). An
 * unauthorized key or an unknown task id rejects at once with the `ApiError`.
 */
export interface WaitOptions<T = unknown> {{
  /** Cancels the wait at once, during a query or a sleep: rejects with `AbortError`; no request follows. */
  signal?: AbortSignal;
  /**
   * Overall deadline in milliseconds. Default {timeout}. One last query goes out just before it
   * (a tenth of the wait, at most {lead} ms, before); then the wait rejects with `TimeoutError`.
   */
  timeoutMs?: number;
  /** First interval between queries, in milliseconds. Default {min}. */
  minIntervalMs?: number;
  /** Longest interval between queries, in milliseconds. Default {max} (the service's recommendation). */
  maxIntervalMs?: number;
  /**
   * Called with the record each time the task's state changes, once per state and in order (music:
   * per stage: `pending`, `text`, `first` — the first track is then playable through its
   * `streamAudioUrl` — and `complete`; a stage the service skips between two polls is not
   * reported, so act on "at least `first`", not on `first` itself). The final success is reported
   * too, just before the Promise resolves; a failure is not progress: it is the rejection. Not
   * awaited; if it throws, the wait stops and rejects with what it threw.
   */
  onProgress?: (record: T) => void;
}}
"#,
        lead = LAST_QUERY_LEAD_MS,
    ));
}

fn client(out: &mut String) {
    out.push_str(
        "\n/**\n * The operations of the service. Every method validates its request before the network (rejecting\n * with `ValidationError`, nothing sent) and rejects with `ApiError`, `NetworkError`, `TimeoutError`\n * or `AbortError` otherwise. Task-creating methods take `wait: true` or `wait: { ...WaitOptions }`\n * (in the options, or in the request, where it is removed before sending) and then resolve with the\n * task's final record, as the family's waiter does.\n */\nexport interface Client {\n",
    );
    for op in Op::ALL.into_iter().filter(|op| !op.is_upload()) {
        let e = op.endpoint();
        let mut text = format!("{}.", e.summary);
        let req = op.request_type();
        let req = req.map_or("request?: Record<string, never>".into(), |r| {
            format!("request: {r}")
        });
        // A creating method resolves with the task's final record when told to wait, in its
        // options or in its request.
        let mut signatures = Vec::new();
        if let Some(kind) = op.creates() {
            let record = kind.query().output().name;
            text.push_str(&format!(
                " Resolves with `{{ taskId }}`; with `wait`, with the final `{record}` (as `{}`).",
                kind.waiter_name()
            ));
            let wait = format!("{{ wait: Wait<{record}> }}");
            let done = succeeded_name(kind);
            signatures.push((
                format!("{req}, options: RequestOptions & {wait}"),
                done.clone(),
            ));
            signatures.push((format!("{req} & {wait}, options?: RequestOptions"), done));
        }
        signatures.push((
            format!("{req}, options?: RequestOptions"),
            op.output().name.to_owned(),
        ));
        doc(out, "  ", &text);
        for (args, resolves) in signatures {
            out.push_str(&format!("  {}({args}): Promise<{resolves}>;\n", e.name));
        }
    }
    for kind in TaskFamily::ALL {
        let (record, query) = (kind.query().output().name, kind.query().endpoint().name);
        let family = kind.as_str().replace('_', " ");
        let text = format!("Waits for a {family} task to end; resolves with its final record (as `{query}`). A failure rejects with `TaskFailedError` (the failed record in `record`), the deadline with `TimeoutError`, the signal with `AbortError`.");
        doc(out, "  ", &text);
        out.push_str(&format!(
            "  {}(taskId: string | TaskCreated, options?: WaitOptions<{record}>): Promise<{}>;\n",
            kind.waiter_name(),
            succeeded_name(kind)
        ));
    }
    out.push_str("}\n");
}

/// The creating operations whose request takes the callback URL, and that field's name.
fn with_callback() -> Vec<(Op, &'static str)> {
    let creates = Op::ALL.into_iter().filter(|op| op.creates().is_some());
    creates
        .filter_map(|op| {
            let fields = op.endpoint().fields.iter();
            let field = fields
                .map(|f| f.name)
                .find(|n| CALLBACK_FIELDS.contains(n))?;
            Some((op, field))
        })
        .collect()
}

/// `CompanionClient`: what `new Client({ companionUrl })` makes, whose creates need no callback URL.
fn companion_client(out: &mut String) {
    let fields = quoted(CALLBACK_FIELDS, " | ");
    out.push_str(&format!(
        r#"
/**
 * A create's request sent through a companion (`CompanionClient`): the callback URL may be left
 * out, the companion sets its own.
 */
export type CompanionRequest<R> = Omit<R, {fields}> & Partial<Pick<R, Extract<keyof R, {fields}>>>;
"#
    ));
    let ops = with_callback();
    let names = quoted(ops.iter().map(|(op, _)| op.endpoint().name), " | ");
    out.push_str(&format!(
        "\n/**\n * A client made with `companionUrl` (`new Client({{ companionUrl }})`): the `Client`, except that\n * its creates take no callback URL (the companion sets its own; see `CompanionRequest`).\n */\nexport interface CompanionClient extends Omit<Client, {names}> {{\n"
    ));
    for (op, _) in ops {
        let e = op.endpoint();
        let kind = op.creates().expect("a create");
        let (record, done) = (kind.query().output().name, succeeded_name(kind));
        let req = format!(
            "request: CompanionRequest<{}>",
            op.request_type().expect("a request")
        );
        let wait = format!("{{ wait: Wait<{record}> }}");
        doc(
            out,
            "  ",
            &format!("{}. `callBackUrl` may be left out.", e.summary),
        );
        out.push_str(&format!(
            "  {}({req}, options: RequestOptions & {wait}): Promise<{done}>;\n",
            e.name
        ));
        out.push_str(&format!(
            "  {}({req} & {wait}, options?: RequestOptions): Promise<{done}>;\n",
            e.name
        ));
        out.push_str(&format!(
            "  {}({req}, options?: RequestOptions): Promise<TaskCreated>;\n",
            e.name
        ));
    }
    out.push_str("}\n");
}

/// The README's table of every operation, from the endpoint table.
pub fn operations_table() -> String {
    let mut out = String::from(
        "| method | request | what it does | credits (emulator) | resolves with | how to wait |\n|---|---|---|---|---|---|\n",
    );
    for op in Op::ALL {
        let e = op.endpoint();
        let host = match e.host {
            Host::Music => "",
            Host::Upload => " (upload host)",
        };
        let wait = match op.creates() {
            Some(kind) => format!("`{}` or `{{ wait: true }}`", kind.waiter_name()),
            None => "answers at once".to_owned(),
        };
        out.push_str(&format!(
            "| `{}` | `{} {}`{host} | {} | {} | `{}` | {wait} |\n",
            e.name,
            http_method(op),
            e.path,
            e.summary.replace('|', "\\|"),
            op.price().describe(),
            op.output().name,
        ));
    }
    out
}

/// `export interface X` and `export type X` names in a `.d.ts` text.
pub fn exported_type_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let rest = line
            .strip_prefix("export interface ")
            .or_else(|| line.strip_prefix("export type "));
        if let Some(rest) = rest {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// `pkg-template/index.d.ts`: the browser entry re-exports every type of the package by name.
pub fn index_entry(hand_written: &[String]) -> String {
    let mut names = exported_type_names(&declarations());
    for n in hand_written {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    // `Client` is the class itself, exported as a value.
    names.retain(|n| n != "Client");
    let mut out = String::from("/// <reference lib=\"esnext.disposable\" />\n");
    out.push_str(HEADER);
    out.push_str("// The generated class declarations use `Symbol.dispose`; the reference keeps them checking under any `lib`.\n");
    out.push_str(
        r#"import { Client as ClientClass } from "./tunesmith.js";
import type { ClientOptions, CompanionClient } from "./tunesmith.js";
export { CallbackDeduper, parseCallback } from "./tunesmith.js";
/**
 * The client. `new Client({ companionUrl })` makes a `CompanionClient`, whose creates need no
 * callback URL (the companion sets its own); any other options make a `Client`.
 */
export declare const Client: {
  new (options: ClientOptions & { companionUrl: string; apiKey?: undefined }): CompanionClient;
} & typeof ClientClass;
export type Client = ClientClass;
export type {
"#,
    );
    for n in names {
        out.push_str(&format!("  {n},\n"));
    }
    out.push_str("} from \"./tunesmith.js\";\nexport * from \"./errors.js\";\n");
    out
}
