//! Shared helpers of the conformance tests: a small exact JSON reader (numbers kept as text),
//! the comparison rules of `tests/conformance/README.md`, and the path syntax of the corpus.

#![allow(dead_code)]

use std::fmt;
use std::path::{Path, PathBuf};

/// A JSON value with numbers kept as their text, so integers of any size stay exact.
#[derive(Clone, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    /// The number's text as written.
    Num(String),
    Str(String),
    Arr(Vec<J>),
    /// Members in document order (duplicates kept; see [`J::members`]).
    Obj(Vec<(String, J)>),
}

impl J {
    /// Parses one JSON document (the inputs here are already valid JSON).
    pub fn parse(text: &str) -> Result<J, String> {
        let mut r = Reader {
            b: text.as_bytes(),
            i: 0,
        };
        r.ws();
        let v = r.value(0)?;
        r.ws();
        if r.i != r.b.len() {
            return Err(format!("trailing bytes at {}", r.i));
        }
        Ok(v)
    }

    /// Object members as a parser that keeps the last of duplicate keys sees them (both SDKs
    /// do that), in first-seen key order.
    pub fn members(&self) -> Option<Vec<(&str, &J)>> {
        let J::Obj(m) = self else { return None };
        let mut out: Vec<(&str, &J)> = Vec::new();
        for (k, v) in m {
            match out.iter_mut().find(|(ok, _)| ok == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
        Some(out)
    }

    pub fn get(&self, key: &str) -> Option<&J> {
        self.members()?
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            J::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value at a corpus path (`messages[2].metadata`, `["x.y"]`), `None` if absent.
    pub fn at(&self, path: &str) -> Option<&J> {
        let mut cur = self;
        for seg in split_path(path)? {
            cur = match (seg, cur) {
                (Seg::Key(k), J::Obj(_)) => cur.get(&k)?,
                (Seg::Index(i), J::Arr(a)) => a.get(i)?,
                _ => return None,
            };
        }
        Some(cur)
    }
}

impl fmt::Debug for J {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl J {
    /// Compact JSON text (for messages).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(n),
            J::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
            J::Arr(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            J::Obj(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap_or_default());
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn value(&mut self, depth: usize) -> Result<J, String> {
        if depth > 1000 {
            return self.err("too deep");
        }
        match self.b.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut m = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(J::Obj(m));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    m.push((k, v));
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(J::Obj(m));
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(J::Arr(a));
                }
                loop {
                    self.ws();
                    a.push(self.value(depth + 1)?);
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(J::Arr(a));
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            Some(b'"') => self.string().map(J::Str),
            Some(b't') if self.b[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(J::Bool(true))
            }
            Some(b'f') if self.b[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(J::Bool(false))
            }
            Some(b'n') if self.b[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(J::Null)
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.i;
                while matches!(
                    self.b.get(self.i),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    self.i += 1;
                }
                let text =
                    std::str::from_utf8(&self.b[start..self.i]).map_err(|e| e.to_string())?;
                Ok(J::Num(text.to_string()))
            }
            _ => self.err("expected a JSON value"),
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let s = self
            .b
            .get(self.i..self.i + 4)
            .ok_or_else(|| "short \\u escape".to_string())?;
        let s = std::str::from_utf8(s).map_err(|e| e.to_string())?;
        let v = u32::from_str_radix(s, 16).map_err(|e| e.to_string())?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        if self.b.get(self.i) != Some(&b'"') {
            return self.err("expected a string");
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.b.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|e| e.to_string());
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.b.get(self.i).copied();
                    self.i += 1;
                    let ch = match c {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return self.err("lone high surrogate");
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return self.err("bad low surrogate");
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(cp).ok_or_else(|| "lone surrogate".to_string())?
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                Some(&c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

/// Whether a number's text is an integer (no fraction, no exponent).
fn is_int_form(n: &str) -> bool {
    !n.contains(['.', 'e', 'E'])
}

/// An integer's text without sign noise: `-0` is `0`, leading zeros cannot occur in JSON.
fn norm_int(n: &str) -> String {
    let digits = n.trim_start_matches('-');
    if digits.bytes().all(|b| b == b'0') {
        "0".to_string()
    } else if n.starts_with('-') {
        format!("-{digits}")
    } else {
        digits.to_string()
    }
}

/// Number equality as the Python model holds numbers.
///
/// The Python SDK reads an integer-looking number (no `.`, no exponent) as an exact `int` of
/// any size and anything else as a `float` (a double), and it writes the float back in its
/// shortest round-trip form (`123456789.123456789e-5` is written `1234.567891234568`). So:
/// - two integer forms are equal when they are the same integer, exactly (`-0` equals `0`);
/// - two float forms are equal when they read as the same double (`1E3` = `1000.0`,
///   `-0.0e-0` = `-0.0`; `-0.0` = `0.0` as the README says);
/// - an integer form never equals a float form (Python's model tells `int` from `float`;
///   this is stricter than the README's generic rule, and holds for every corpus file).
pub fn num_eq(ours: &str, theirs: &str) -> bool {
    match (is_int_form(ours), is_int_form(theirs)) {
        (true, true) => norm_int(ours) == norm_int(theirs),
        (false, false) => match (ours.parse::<f64>(), theirs.parse::<f64>()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

/// JSON equality by the README's rules: objects by key set and members (order ignored, the
/// last of duplicate keys counting), arrays element by element, strings by decoded text,
/// numbers by [`num_eq`], `true`/`false`/`null` by identity.
pub fn json_eq(ours: &J, theirs: &J) -> bool {
    match (ours, theirs) {
        (J::Null, J::Null) => true,
        (J::Bool(a), J::Bool(b)) => a == b,
        (J::Num(a), J::Num(b)) => num_eq(a, b),
        (J::Str(a), J::Str(b)) => a == b,
        (J::Arr(a), J::Arr(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| json_eq(x, y)),
        (J::Obj(_), J::Obj(_)) => {
            let (a, b) = (ours.members().unwrap(), theirs.members().unwrap());
            a.len() == b.len()
                && a.iter().all(|(k, v)| {
                    b.iter()
                        .find(|(bk, _)| bk == k)
                        .is_some_and(|(_, bv)| json_eq(v, bv))
                })
        }
        _ => false,
    }
}

/// One step of a corpus path.
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

fn is_ident(key: &str) -> bool {
    let mut b = key.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_' || c == b'$')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'-')
}

/// Appends an object key to a corpus path: `parent.key`, or `parent["key"]` (the key as a
/// JSON string, non-ASCII kept literal) when the key is not an identifier.
pub fn join(path: &str, key: &str) -> String {
    if is_ident(key) {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    } else {
        format!(
            "{path}[{}]",
            serde_json::to_string(key).expect("a string serialises")
        )
    }
}

/// Appends an array index to a corpus path.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// Splits a corpus path into its steps (`None` if it does not follow the syntax).
pub fn split_path(path: &str) -> Option<Vec<Seg>> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' if b.get(i + 1) == Some(&b'"') => {
                // A JSON string key: find its closing quote, then `]`.
                let mut j = i + 2;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let key: String = serde_json::from_str(path.get(i + 1..j + 1)?).ok()?;
                if b.get(j + 1) != Some(&b']') {
                    return None;
                }
                out.push(Seg::Key(key));
                i = j + 2;
            }
            b'[' => {
                let end = i + path[i..].find(']')?;
                out.push(Seg::Index(path[i + 1..end].parse().ok()?));
                i = end + 1;
            }
            b'.' if i > 0 => i += 1,
            _ => {
                let end = path[i..].find(['.', '[']).map_or(b.len(), |e| i + e);
                out.push(Seg::Key(path[i..end].to_string()));
                i = end;
            }
        }
    }
    Some(out)
}

/// Joins steps back into a corpus path.
pub fn path_of(segs: &[Seg]) -> String {
    let mut p = String::new();
    for s in segs {
        p = match s {
            Seg::Key(k) => join(&p, k),
            Seg::Index(i) => index(&p, *i),
        };
    }
    p
}

/// The crate's root directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.json` documents of a folder (not the `.expected.json` files), sorted.
pub fn documents(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .collect();
    v.sort();
    v
}

/// The `X.expected.json` beside `X.json`.
pub fn expected_of(doc: &Path) -> PathBuf {
    let name = doc
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a file name");
    doc.with_file_name(format!("{}.expected.json", name.trim_end_matches(".json")))
}

/// Reads and parses a JSON file with [`J::parse`].
pub fn read_j(path: &Path) -> J {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    J::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The document kinds of the corpus, by file name (README: "Kinds").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    RunAgentInput,
    AgentCapabilities,
    Event,
}

pub fn kind_of(path: &Path) -> Kind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_events = path
        .parent()
        .and_then(|p| p.file_name())
        .is_some_and(|d| d == "events");
    if name.starts_with("capabilities") {
        Kind::AgentCapabilities
    } else if in_events || name.starts_with("event-") {
        Kind::Event
    } else {
        Kind::RunAgentInput
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        for p in [
            "threadId",
            "messages[3].content[1].source.value",
            "[\"x.weird key\"]",
            "messages[0][\"clé\"]",
            "a.b[\"q\\\"uote\"].c[10]",
        ] {
            assert_eq!(path_of(&split_path(p).unwrap()), p);
        }
        assert_eq!(split_path("").unwrap(), vec![]);
    }

    #[test]
    fn numbers() {
        assert!(num_eq("-0", "0"));
        assert!(num_eq("1E3", "1000.0"));
        assert!(num_eq("123456789.123456789e-5", "1234.567891234568"));
        assert!(num_eq(
            "100000000000000000000000000000000000000000000000000",
            "100000000000000000000000000000000000000000000000000"
        ));
        assert!(!num_eq("9007199254740993", "9007199254740992"));
        assert!(!num_eq("1", "1.0"));
        assert!(num_eq("-0.0e-0", "-0.0"));
    }
}
