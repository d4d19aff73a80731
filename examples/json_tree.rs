//! A JSON reader and printer whose whole document tree lives in one scope: strings as
//! `ArenaBox<str>`, arrays and objects as `ArenaBox<[_]>`, built with growable
//! `ArenaVec`s and frozen once complete, the way a bumpalo user builds with
//! `bumpalo::collections::Vec` and `into_bump_slice`. Unlike bumpalo's, every node is
//! dropped when its parent is, and the scope's blocks go back to the pool at the end.
//!
//! `cargo run --example json_tree -- '{"a": [1, 2]}'`; `cargo test --example json_tree`.

use std::fmt::Write as _;

use arena_kit::{ArenaBox, ArenaString, ArenaVec, BlockPool, CollectIn, Scope, format};

/// A JSON value, owning its children.
#[derive(Debug, PartialEq)]
enum Json<'s> {
    Null,
    Bool(bool),
    Num(f64),
    Str(ArenaBox<'s, str>),
    Array(ArenaBox<'s, [Json<'s>]>),
    Object(ArenaBox<'s, [(ArenaBox<'s, str>, Json<'s>)]>),
}

/// Where the text stopped making sense.
#[derive(Debug, PartialEq)]
struct ParseError {
    at: usize,
    expected: &'static str,
}

/// A recursive-descent reader over `text`, building in `scope`.
struct Reader<'s, 'p, 't> {
    scope: &'s Scope<'p>,
    text: &'t [u8],
    at: usize,
}

impl<'s> Reader<'s, '_, '_> {
    fn error<T>(&self, expected: &'static str) -> Result<T, ParseError> {
        Err(ParseError { at: self.at, expected })
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after blanks) if it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.text.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    fn value(&mut self) -> Result<Json<'s>, ParseError> {
        self.skip_space();
        let rest = &self.text[self.at..];
        for (word, value) in
            [("null", Json::Null), ("true", Json::Bool(true)), ("false", Json::Bool(false))]
        {
            if rest.starts_with(word.as_bytes()) {
                self.at += word.len();
                return Ok(value);
            }
        }
        match rest.first() {
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'[') => self.array(),
            Some(b'{') => self.object(),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.error("a value"),
        }
    }

    fn number(&mut self) -> Result<Json<'s>, ParseError> {
        let start = self.at;
        while self.text.get(self.at).is_some_and(|b| b"+-.eE0123456789".contains(b)) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        match digits.parse() {
            Ok(n) => Ok(Json::Num(n)),
            Err(_) => Err(ParseError { at: start, expected: "a number" }),
        }
    }

    /// A string literal (escapes `\"`, `\\`, `\n` and `\t`), into the scope.
    fn string(&mut self) -> Result<ArenaBox<'s, str>, ParseError> {
        if !self.eat(b'"') {
            return self.error("a string");
        }
        let mut s = ArenaString::new_in(self.scope);
        let start = self.at;
        let text = std::str::from_utf8(&self.text[start..])
            .map_err(|_| ParseError { at: start, expected: "UTF-8" })?;
        let mut chars = text.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.at = start + i + 1;
                    return Ok(s.into_boxed_str());
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => s.push('\n'),
                    Some((_, 't')) => s.push('\t'),
                    Some((_, c @ ('"' | '\\'))) => s.push(c),
                    _ => return Err(ParseError { at: start + i, expected: "an escape" }),
                },
                c => s.push(c),
            }
        }
        Err(ParseError { at: self.text.len(), expected: "a closing quote" })
    }

    fn array(&mut self) -> Result<Json<'s>, ParseError> {
        self.eat(b'[');
        let mut items = ArenaVec::new_in(self.scope);
        if !self.eat(b']') {
            loop {
                items.push(self.value()?);
                if self.eat(b']') {
                    break;
                }
                if !self.eat(b',') {
                    return self.error("`,` or `]`");
                }
            }
        }
        Ok(Json::Array(items.into_boxed_slice()))
    }

    fn object(&mut self) -> Result<Json<'s>, ParseError> {
        self.eat(b'{');
        let mut members = ArenaVec::new_in(self.scope);
        if !self.eat(b'}') {
            loop {
                let key = self.string()?;
                if !self.eat(b':') {
                    return self.error("`:`");
                }
                members.push((key, self.value()?));
                if self.eat(b'}') {
                    break;
                }
                if !self.eat(b',') {
                    return self.error("`,` or `}`");
                }
            }
        }
        Ok(Json::Object(members.into_boxed_slice()))
    }
}

/// Reads one JSON document into `scope`.
fn parse<'s>(scope: &'s Scope<'_>, text: &str) -> Result<Json<'s>, ParseError> {
    let mut reader = Reader { scope, text: text.as_bytes(), at: 0 };
    let value = reader.value()?;
    reader.skip_space();
    if reader.at == text.len() { Ok(value) } else { reader.error("the end") }
}

/// Writes `value` as compact JSON.
fn print(out: &mut ArenaString<'_>, value: &Json<'_>) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => write!(out, "{b}").unwrap(),
        Json::Num(n) => write!(out, "{n}").unwrap(),
        Json::Str(s) => print_str(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print(out, item);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print_str(out, key);
                out.push(':');
                print(out, item);
            }
            out.push('}');
        }
    }
}

fn print_str(out: &mut ArenaString<'_>, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Every string in the document, depth first, collected in the scope.
fn strings<'a>(value: &'a Json<'_>, found: &mut Vec<&'a str>) {
    match value {
        Json::Str(s) => found.push(s),
        Json::Array(items) => items.iter().for_each(|v| strings(v, found)),
        Json::Object(members) => members.iter().for_each(|(k, v)| {
            found.push(k);
            strings(v, found);
        }),
        Json::Null | Json::Bool(_) | Json::Num(_) => {}
    }
}

const SAMPLE: &str = r#"{"name": "arena-kit", "tags": ["bump", "pool", "scope"],
    "version": 0.1, "stable": false, "deps": {"serde": null, "loom": ["0.7"]},
    "motto": "no \"use after free\"\n"}"#;

fn main() {
    let text = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_string());
    let pool = BlockPool::new();
    let scope = pool.scope();
    match parse(&scope, &text) {
        Ok(doc) => {
            let mut out = ArenaString::new_in(&scope);
            print(&mut out, &doc);
            println!("{out}");
            let mut found = Vec::new();
            strings(&doc, &mut found);
            let joined: ArenaString<'_> = found.join(" | ").chars().collect_in(&scope);
            println!("{}", format!(in &scope, "{} strings: {joined}", found.len()));
            let stats = scope.stats();
            println!("{} bytes in {} block(s)", stats.allocated_bytes, stats.blocks);
        }
        Err(e) => {
            eprintln!("error at byte {}: expected {}", e.at, e.expected);
            std::process::exit(1);
        }
    }
}

#[test]
fn the_sample_prints_back_compact_and_reads_back_the_same() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let doc = parse(&scope, SAMPLE).unwrap();
    let mut once = ArenaString::new_in(&scope);
    print(&mut once, &doc);
    assert_eq!(
        once,
        r#"{"name":"arena-kit","tags":["bump","pool","scope"],"version":0.1,"stable":false,"deps":{"serde":null,"loom":["0.7"]},"motto":"no \"use after free\"\n"}"#
    );
    let again = parse(&scope, &once).unwrap();
    assert_eq!(again, doc);
    let mut found = Vec::new();
    strings(&doc, &mut found);
    assert_eq!(found.len(), 14);
    assert!(found.contains(&"no \"use after free\"\n"));
}

#[test]
fn bad_documents_say_where_they_stop() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert_eq!(parse(&scope, "[1, 2").unwrap_err(), ParseError { at: 5, expected: "`,` or `]`" });
    assert_eq!(parse(&scope, r#"{"a" 1}"#).unwrap_err(), ParseError { at: 5, expected: "`:`" });
    assert_eq!(parse(&scope, "\"open").unwrap_err().expected, "a closing quote");
    assert_eq!(parse(&scope, "[1] x").unwrap_err(), ParseError { at: 4, expected: "the end" });
    assert_eq!(parse(&scope, "-").unwrap_err().expected, "a number");
}

#[test]
fn a_document_per_scope_recycles_one_block() {
    let pool = BlockPool::new();
    for i in 0..50 {
        let scope = pool.scope();
        let text = format!("[{i}, {{\"k\": [true, null, \"{i}\"]}}]");
        let doc = parse(&scope, &text).unwrap();
        let Json::Array(items) = &doc else { panic!("an array") };
        assert_eq!(items[0], Json::Num(f64::from(i)));
    }
    assert_eq!(pool.stats().system_allocations, 1);
}
