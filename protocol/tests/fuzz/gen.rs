//! Inputs that look like the service's: JSON built from the schema's declarations (right keys,
//! wrong types, nulls, huge numbers, unicode, deep nesting), strings near every rule's edge, and
//! byte-level mutations of valid samples. Every choice is drawn from `arbitrary`'s `Unstructured`
//! over bytes of a seeded RNG, so an input is reproducible from its seed and index.
//! Over 400 lines on purpose: one generator for every input shape the targets draw, so that every
//! input comes from one seeded source.

use arbitrary::Unstructured;
use serde_json::{Map, Number, Value};
use tunesmith_protocol::rules::{FieldRule, Kind};
use tunesmith_protocol::schema::{snake_case, Origin, Record, Ty};

/// Deep enough to pass serde_json's recursion limit (128) both ways.
const MAX_DEEP: usize = 200;

pub struct Gen<'a> {
    u: Unstructured<'a>,
    /// 0 for a valid sample (mutated afterwards as text), else 1 in `hostility` values go wrong.
    hostility: u32,
}

/// Strings the service writes, strings near the rules' edges, and strings that break parsers.
const STRINGS: &[&str] = &[
    "",
    " ",
    "0",
    "-1",
    "null",
    "true",
    "undefined",
    "PENDING",
    "SUCCESS",
    "TEXT_SUCCESS",
    "FIRST_SUCCESS",
    "CREATE_TASK_FAILED",
    "GENERATE_AUDIO_FAILED",
    "SENSITIVE_WORD_ERROR",
    "CALLBACK_EXCEPTION",
    "text",
    "first",
    "complete",
    "error",
    "music",
    "cover",
    "wav",
    "lyrics",
    "vocal_separation",
    "video",
    "V4_5",
    "V6",
    "chirp-v6",
    "split_stem",
    "separate_vocal",
    "https://example.com/a.mp3",
    "http://127.0.0.1:8788/files/a/b.wav",
    "http://2130706433/_emulator/credits",
    "http://user@127.0.0.1/",
    "https://",
    "http:// space.example/",
    "ftp://example.com/x",
    "data:audio/wav;base64,UklGRiQAAABXQVZF",
    "data:;base64,",
    "data:,",
    "data:audio/wav;base64",
    "UklGRiQAAABXQVZF",
    "====",
    "2025-01-01 00:00:00",
    "2025-01-01T00:00:00.000Z",
    "2025-13-45 25:61:61",
    "9999-99-99 99:99:99",
    "-999-01-01T00:00:00Z",
    "0000-00-00 00:00:00.",
    "1735689600123",
    "999999999999999999999",
    "-9223372036854775808",
    "1e999",
    "-1e999",
    "NaN",
    "Infinity",
    "0.000000001",
    ".5",
    "5.",
    "1.5e3",
    "+7",
    "--1",
    "../../etc/passwd",
    "..",
    ".",
    "/etc/passwd",
    "a/../b",
    "a/./b",
    "%2e%2e/%2e%2e",
    "C:\\Windows",
    "a\\b",
    "a:b",
    "\u{0}",
    "a\u{0}b",
    "\u{7f}",
    "\u{202e}gnp.exe",
    "\u{feff}",
    "🎵🎶",
    "é",
    "\u{ffff}",
    "\u{10ffff}",
    "emulate:failed",
    "emulate:skip-stages",
    "task_id",
    "taskId",
    "callbackType",
];

/// Text spliced into serialized samples.
const TOKENS: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1e999",
    "-1e999",
    "18446744073709551616",
    "-9223372036854775809",
    "1.7976931348623157e308",
    "5e-324",
    "\"\"",
    "\"\\ud800\"",
    "\"\\u0000\"",
    "[]",
    "{}",
    "[[[[[[[[",
    "]]]]",
    "{\"a\":",
    ",",
    ":",
    "\"",
    "\\",
    "\"code\":",
    "\"data\":null",
    "\"data\":[]",
    "\"task_id\":",
    "\"taskId\":",
    "\"callbackType\":\"complete\"",
    "\"images\":",
    "\"video_url\":null",
    "\"audioWavUrl\":",
    "\"vocal_removal_info\":",
    "\"status\":\"SUCCESS\"",
    "🎵",
    "\u{0}",
];

impl<'a> Gen<'a> {
    pub fn new(bytes: &'a [u8], hostility: u32) -> Gen<'a> {
        Gen {
            u: Unstructured::new(bytes),
            hostility,
        }
    }

    /// A number in `0..n` (0 when `n` is 0 or the bytes ran out).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.choose_index(n).unwrap_or(0)
    }

    /// True about `num` times in `den`.
    pub fn chance(&mut self, num: u8, den: u8) -> bool {
        self.u.ratio(num, den).unwrap_or(false)
    }

    pub fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        &items[self.below(items.len())]
    }

    pub fn u64(&mut self) -> u64 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn i64(&mut self) -> i64 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn f64(&mut self) -> f64 {
        self.u.arbitrary().unwrap_or(0.0)
    }

    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        self.u.bytes(n).map(<[u8]>::to_vec).unwrap_or_default()
    }

    fn hostile(&mut self) -> bool {
        self.hostility > 0 && self.below(self.hostility as usize) == 0
    }

    /// Any string: from the list, arbitrary unicode, long, or near a length.
    pub fn string(&mut self) -> String {
        match self.below(10) {
            0..=3 => (*self.pick(STRINGS)).to_owned(),
            4 | 5 => self.u.arbitrary::<String>().unwrap_or_default(),
            // Long text now and then: 1 string in 40, near common limits.
            6 if self.chance(1, 4) => {
                let unit = *self.pick(&["a", "é", "🎵", " ", "a ", "\u{0}", "/.."]);
                unit.repeat(*self.pick(&[80, 199, 201, 256, 1001, 3001, 5001]))
            }
            6 => self.u.arbitrary::<String>().unwrap_or_default(),
            7 => self.digits(),
            8 => self.date_text(),
            _ => format!(
                "{}{}",
                self.pick(STRINGS),
                self.u.arbitrary::<String>().unwrap_or_default()
            ),
        }
    }

    /// Digits, sometimes signed or with a point, up to 40 of them.
    pub fn digits(&mut self) -> String {
        let mut s = String::new();
        match self.below(4) {
            0 => s.push('-'),
            1 => s.push('+'),
            _ => {}
        }
        let n = self.below(41);
        for i in 0..n {
            if i > 0 && self.chance(1, 20) {
                s.push('.');
            }
            s.push(char::from(b'0' + self.below(10) as u8));
        }
        s
    }

    /// `YYYY-MM-DD hh:mm:ss[.mmm][Z]` with any digits and separators, or cut short.
    pub fn date_text(&mut self) -> String {
        let mut s = String::new();
        let seps = ["-", "-", " ", ":", ":"];
        let widths = [4, 2, 2, 2, 2, 2];
        for (i, w) in widths.iter().enumerate() {
            for _ in 0..*w {
                s.push(char::from(b'0' + self.below(10) as u8));
            }
            if let Some(&sep) = seps.get(i) {
                const ODD: [&str; 5] = ["T", "/", "", "é", "-"];
                let sep = if self.chance(1, 8) {
                    ODD[self.below(ODD.len())]
                } else if i == 2 && self.chance(1, 2) {
                    "T"
                } else {
                    sep
                };
                s.push_str(sep);
            }
        }
        if self.chance(1, 2) {
            s.push('.');
            for _ in 0..self.below(5) {
                s.push(char::from(b'0' + self.below(10) as u8));
            }
        }
        if self.chance(1, 3) {
            s.push('Z');
        }
        if self.chance(1, 4) {
            let mut cut = self.below(s.len() + 1);
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
        }
        s
    }

    /// A JSON number: ordinary, at the edges of i64/u64/f64, or fractional.
    pub fn number(&mut self) -> Value {
        match self.below(9) {
            0 => Value::from(self.below(1000) as i64),
            1 => Value::from(self.i64()),
            2 => Value::from(self.u64()),
            3 => Value::from(*self.pick(&[
                i64::MIN,
                i64::MAX,
                -1,
                0,
                200,
                400,
                401,
                402,
                404,
                405,
                409,
                413,
                422,
                429,
                430,
                451,
                455,
                500,
                501,
                503,
                531,
                9_007_199_254_740_993,
            ])),
            4 => Value::from(u64::MAX),
            _ => {
                let f = match self.below(4) {
                    0 => *self.pick(&[
                        -0.0,
                        0.5,
                        1e308,
                        -1e308,
                        f64::MAX,
                        f64::MIN_POSITIVE,
                        5e-324,
                        1.8446744073709552e19,
                        -1.8446744073709552e19,
                        9.223372036854776e18,
                        199.99999999999997,
                    ]),
                    _ => self.f64(),
                };
                Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
        }
    }

    /// Any JSON value; with `deep`, nested far past the parser's limit.
    pub fn any(&mut self, depth: usize) -> Value {
        if depth < 4 && self.chance(1, 40) {
            return self.deep();
        }
        match self.below(if depth > 3 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => Value::Bool(self.chance(1, 2)),
            2 => self.number(),
            3 | 4 => Value::String(self.string()),
            5 => Value::Array((0..self.below(4)).map(|_| self.any(depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    let key = self.string();
                    map.insert(key, self.any(depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    fn deep(&mut self) -> Value {
        let depth = self.below(MAX_DEEP);
        let mut v = Value::Null;
        for i in 0..depth {
            v = if i % 2 == 0 {
                Value::Array(vec![v])
            } else {
                let mut m = Map::new();
                m.insert("data".into(), v);
                Value::Object(m)
            };
        }
        v
    }

    /// A value for a declared type: right most of the time, wrong one time in `hostility`.
    pub fn typed(&mut self, ty: &Ty, depth: usize) -> Value {
        if self.hostile() || depth > 12 {
            return self.any(depth);
        }
        match ty {
            Ty::Str => Value::String(self.plausible_string()),
            Ty::Epoch => Value::from(self.below(2_000_000_000_000)),
            Ty::Time => Value::String(match self.below(4) {
                0 => self.digits(),
                1 => self.string(),
                _ => self.date_text(),
            }),
            Ty::Num => {
                if self.hostility == 0 {
                    Value::from(self.below(100_000) as f64 / 100.0)
                } else {
                    self.number()
                }
            }
            Ty::Int | Ty::Size => {
                if self.hostility == 0 {
                    Value::from(self.below(1_000_000) as u64)
                } else {
                    self.number()
                }
            }
            Ty::Bool => Value::Bool(self.chance(1, 2)),
            Ty::Lit(s) => Value::String((*s).to_owned()),
            Ty::Enum(vocab) => Value::String(if vocab.values.is_empty() || self.hostile() {
                self.string()
            } else {
                (*self.pick(vocab.values)).to_owned()
            }),
            Ty::Ref(record) => self.record(record, false, depth + 1),
            Ty::Twin(record) => self.record(record, true, depth + 1),
            Ty::Union(union) => {
                let member = *self.pick(union.members);
                self.record(member, false, depth + 1)
            }
            Ty::List(item) => Value::Array(
                (0..self.below(if depth > 6 { 2 } else { 4 }))
                    .map(|_| self.typed(item, depth + 1))
                    .collect(),
            ),
            Ty::Null(inner) => {
                if self.chance(1, 4) {
                    Value::Null
                } else {
                    self.typed(inner, depth)
                }
            }
            Ty::Unknown => self.any(depth),
        }
    }

    fn plausible_string(&mut self) -> String {
        if self.hostility == 0 {
            let n = self.below(STRINGS.len().min(48));
            STRINGS[n].to_owned()
        } else {
            self.string()
        }
    }

    /// An object with a record's wire fields (client-side fields too, now and then), some left
    /// out, some doubled in the other casing, and now and then a key no declaration has.
    pub fn record(&mut self, record: &Record, twin: bool, depth: usize) -> Value {
        let keep = record.twin.map_or(&[][..], |t| t.keep);
        let mut map = Map::new();
        for field in record.all_fields() {
            if field.origin == Origin::Client && (twin || !self.chance(1, 3)) {
                continue;
            }
            if (field.optional || self.hostility > 0) && self.chance(1, 6) {
                continue;
            }
            let name = if twin && !keep.contains(&field.name) {
                snake_case(field.name)
            } else {
                field.name.to_owned()
            };
            let value = self.typed(&field.ty, depth);
            if self.hostility > 0 && self.chance(1, 16) {
                let other = if name.contains('_') {
                    field.name.to_owned()
                } else {
                    snake_case(field.name)
                };
                map.insert(other, self.typed(&field.ty, depth));
            }
            map.insert(name, value);
        }
        if self.hostility > 0 && self.chance(1, 8) {
            let key = self.string();
            map.insert(key, self.any(depth));
        }
        Value::Object(map)
    }

    /// A request's fields, each near its rule's edge, sometimes of the wrong type.
    pub fn request(&mut self, fields: &[FieldRule]) -> Map<String, Value> {
        let mut map = Map::new();
        for rule in fields {
            if !rule.required && self.chance(1, 2) || self.chance(1, 12) {
                continue;
            }
            let value = if self.hostile() {
                self.any(1)
            } else {
                self.rule_value(&rule.kind)
            };
            map.insert(rule.name.to_owned(), value);
        }
        if self.chance(1, 10) {
            let key = self.string();
            map.insert(key, self.any(1));
        }
        map
    }

    fn rule_value(&mut self, kind: &Kind) -> Value {
        match *kind {
            Kind::Text { max } => {
                let n = match max {
                    Some(max) => max.saturating_sub(1) + self.below(3),
                    None => self.below(64),
                };
                let unit = *self.pick(&["a", "é", "🎵", "\u{0}", " "]);
                if self.chance(1, 3) {
                    Value::String(self.string())
                } else {
                    Value::String(unit.repeat(n))
                }
            }
            Kind::Words { max_words } => {
                let n = max_words.saturating_sub(1) + self.below(3);
                let sep = *self.pick(&[" ", "\t", "\n", "\u{a0}", "  ", "\u{3000}"]);
                Value::String(vec!["w"; n].join(sep))
            }
            Kind::Url | Kind::DirPath | Kind::FileName => Value::String(self.string()),
            Kind::UrlList { max, .. } => {
                let n = self.below(max + 2);
                Value::Array((0..n).map(|_| Value::String(self.string())).collect())
            }
            Kind::Number(&tunesmith_protocol::rules::Range { min, max, step }) => {
                let candidates = [
                    min,
                    max,
                    min - step.unwrap_or(0.01),
                    max + step.unwrap_or(0.01),
                    (min + max) / 2.0,
                    min + step.unwrap_or(0.0) / 3.0,
                    self.f64(),
                ];
                let f = *self.pick(&candidates);
                Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            Kind::Integer { min, max } => match self.below(5) {
                0 => Value::from(min),
                1 => Value::from(max),
                2 => Value::from(min.saturating_sub(1)),
                3 => Value::from(max.saturating_add(1)),
                _ => self.number(),
            },
            Kind::OneOf(values) | Kind::Open(values) => {
                Value::String(if values.is_empty() || self.chance(1, 4) {
                    self.string()
                } else {
                    (*self.pick(values)).to_owned()
                })
            }
            Kind::Bool => {
                if self.chance(1, 4) {
                    Value::String("true".into())
                } else {
                    Value::Bool(self.chance(1, 2))
                }
            }
        }
    }

    /// Mutates serialized JSON in place: deletions, insertions of tokens, flips, truncation.
    pub fn mutate(&mut self, text: &mut Vec<u8>) {
        for _ in 0..1 + self.below(6) {
            let len = text.len();
            let at = self.below(len + 1);
            match self.below(7) {
                0 if len > 0 => {
                    let end = (at + 1 + self.below(16)).min(len);
                    text.drain(at.min(end)..end);
                }
                1 | 2 => {
                    let token = self.pick(TOKENS).as_bytes();
                    text.splice(at..at, token.iter().copied());
                }
                3 if at < len => text[at] = self.u64() as u8,
                4 => text.truncate(at),
                5 if len > 0 => {
                    let start = self.below(len);
                    let end = (start + 1 + self.below(32)).min(len);
                    let chunk = text[start..end].to_vec();
                    text.splice(at..at, chunk);
                }
                _ => {
                    let digits = self.digits();
                    text.splice(at..at, digits.bytes());
                }
            }
        }
    }
}
