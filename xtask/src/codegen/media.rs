//! The `MEDIA` table of `pkg-template/operations.generated.js`: where each record holds files and
//! texts (`protocol/src/media.rs`), for `media.js`, which the MCP server and the CLI share.

use serde_json::{json, Value};
use tunesmith_protocol::media::{self, Files, Items, Media, Name, Texts};
use tunesmith_protocol::{Op, TaskFamily};

fn name(n: Name) -> Value {
    match n {
        Name::Field(f) => json!({ "field": f }),
        Name::Task => json!({ "task": true }),
        Name::Words(w) => json!({ "words": w }),
    }
}

fn files(f: &Files) -> Value {
    let (each, url_fields_except) = match f.items {
        Items::Each => (true, None),
        Items::One => (false, None),
        Items::UrlFields(except) => (false, Some(except)),
    };
    json!({
        "at": f.at,
        "each": each,
        "urlFieldsExcept": url_fields_except,
        "kind": f.kind.as_str(),
        "url": f.url,
        "id": name(f.id),
        "title": name(f.title),
        "duration": f.duration,
        "tags": f.tags,
        "size": f.size,
        "mimeType": f.mime_type,
    })
}

fn texts(t: &Texts) -> Value {
    match *t {
        Texts::Each { at, text, title } => json!({ "at": at, "text": text, "title": title }),
        Texts::Words { at, word } => json!({ "at": at, "word": word }),
    }
}

fn entry(m: Media) -> Value {
    let groups: Vec<Value> = m
        .files
        .iter()
        .map(|g| Value::Array(g.iter().map(files).collect()))
        .collect();
    json!({ "files": groups, "texts": m.texts.iter().map(texts).collect::<Vec<_>>() })
}

/// The table, keyed by task family, then by the operations whose answer is no task's record.
pub fn table() -> String {
    let mut out = String::from(
        "\n// What a record holds (protocol/src/media.rs), for media.js: by task family, or by operation for\n\
         // the answers of no task. `files`: groups of places, the first group that finds any file winning;\n\
         // each place is the items `at` a path (`each`: a list of them; `urlFieldsExcept`: one object whose\n\
         // every `…Url` field is a file), the fields of an item's URL (none: the item is the URL), id,\n\
         // title and details. `texts`: lists of texts, or of words read as one text.\n\
         export const MEDIA = {\n",
    );
    let families = TaskFamily::ALL.map(|f| (f.as_str(), media::of_family(f)));
    let answers = Op::ALL
        .into_iter()
        .filter_map(|op| Some((op.endpoint().name, media::of_answer(op)?)));
    for (key, m) in families.into_iter().chain(answers) {
        if m.files.is_empty() && m.texts.is_empty() {
            continue;
        }
        out.push_str(&format!("  {key}: {},\n", entry(m)));
    }
    out.push_str("};\n");
    out
}
