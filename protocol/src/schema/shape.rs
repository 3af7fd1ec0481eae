//! The terms of the declarations: field types, fields, records, unions and vocabularies, and the
//! small constructors the tables are written with.

/// The type of a field, as the client returns it (and, for wire fields, as the service writes it).
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    Str,
    /// Any number.
    Num,
    /// A whole number.
    Int,
    /// A count of bytes (Rust `u64`).
    Size,
    Bool,
    /// A time: the service's own text on the wire, ISO 8601 text from the client.
    Time,
    /// A time the service writes as epoch milliseconds (an integer); ISO 8601 text from the client.
    Epoch,
    /// Exactly this string (a discriminant).
    Lit(&'static str),
    /// One of a vocabulary's strings.
    Enum(&'static Vocab),
    Ref(&'static Record),
    /// A record in its snake_case twin form (see [`Twin`]).
    Twin(&'static Record),
    Union(&'static Union),
    List(&'static Ty),
    /// The value or `null`.
    Null(&'static Ty),
    /// Anything (the raw body of a callback).
    Unknown,
}

/// Who writes a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The service (it is on the wire, and in the Rust structs).
    Wire,
    /// The client adds it while normalizing (`state`, `stage`, `tracks`...).
    Client,
}

#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The name as JSON and JavaScript write it.
    pub name: &'static str,
    pub ty: Ty,
    /// May be absent (not the same as `null`: see [`Ty::Null`]).
    pub optional: bool,
    pub origin: Origin,
    /// The Rust field name when it is not the snake_case of `name` (`type` is a keyword).
    pub rust: Option<&'static str>,
    pub doc: &'static str,
}

/// A snake_case twin of a camelCase record: the service writes some records both ways.
#[derive(Clone, Copy, Debug)]
pub struct Twin {
    /// Rust name of the twin struct.
    pub rust: &'static str,
    /// Fields that keep their camelCase name in the twin.
    pub keep: &'static [&'static str],
}

/// An object shape: a record of the service, an answer, or an event of the client.
#[derive(Debug)]
pub struct Record {
    /// The TypeScript name (what the client returns).
    pub name: &'static str,
    /// The Rust name of the wire struct; `None` for shapes only the client builds.
    pub rust: Option<&'static str>,
    pub twin: Option<Twin>,
    /// Fields of another record that this one repeats (TypeScript `extends`); its own fields win.
    pub extends: Option<&'static Record>,
    pub doc: &'static str,
    pub fields: &'static [Field],
}

/// A union of records told apart by one field's literal value.
#[derive(Debug)]
pub struct Union {
    pub name: &'static str,
    pub doc: &'static str,
    pub tag: &'static str,
    pub members: &'static [&'static Record],
}

/// A named set of strings (a TypeScript string union; a Rust `&[&str]`).
#[derive(Debug)]
pub struct Vocab {
    pub name: &'static str,
    pub doc: &'static str,
    pub values: &'static [&'static str],
    /// What each value means, in the order of `values` ("" when the value says it all; empty
    /// without the `docs` feature).
    pub value_docs: &'static [&'static str],
}

impl Vocab {
    pub fn contains(&self, value: &str) -> bool {
        self.values.contains(&value)
    }
}

impl Record {
    /// Every field, those of `extends` first, overridden by the record's own.
    pub fn all_fields(&self) -> Vec<&'static Field> {
        let mut out: Vec<&'static Field> = match self.extends {
            Some(base) => base.all_fields(),
            None => Vec::new(),
        };
        for f in self.fields {
            match out.iter_mut().find(|g| g.name == f.name) {
                Some(slot) => *slot = f,
                None => out.push(f),
            }
        }
        out
    }

    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.all_fields().into_iter().find(|f| f.name == name)
    }
}

/// A wire field the service always writes.
pub const fn wire(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        optional: false,
        origin: Origin::Wire,
        rust: None,
        doc,
    }
}

/// A wire field the service may leave out.
pub const fn wire_opt(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        optional: true,
        ..wire(name, ty, doc)
    }
}

/// A field the client adds to what the service wrote.
pub const fn client(name: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        origin: Origin::Client,
        ..wire(name, ty, doc)
    }
}

/// A wire field whose Rust name differs from the snake_case of its JSON name.
pub const fn renamed(field: Field, rust: &'static str) -> Field {
    Field {
        rust: Some(rust),
        ..field
    }
}

/// The snake_case form of a camelCase name (`audioWavUrl` → `audio_wav_url`).
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
