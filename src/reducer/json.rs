//! [`Json`]: the small owned JSON tree the reducer keeps its messages and state in.
//!
//! Objects keep their keys in insertion order (as JavaScript objects do for non-numeric keys)
//! and look them up through a hash index once they are big ([`JsonObject`]); numbers keep their
//! text exactly as received, and strings are held unescaped. No operation recurses: building,
//! copying, comparing, writing and dropping a tree walk it with a heap stack ([`super::walk`]),
//! so a tree of any depth is safe.

use std::fmt;

use super::object::JsonObject;
use super::stats;
use super::walk::{self, Builder, Piece};
use crate::model::{RawJson, Str, escape_into};
use crate::writer::{Sink, WriteJson};

/// An owned JSON value.
///
/// ```
/// use agui_wire::reducer::Json;
/// let v = Json::parse(r#"{"b":1.50,"a":[true,null,"x\n"]}"#).unwrap();
/// assert_eq!(v.get("b").unwrap().as_number(), Some("1.50"));
/// assert_eq!(v.get("a").unwrap().as_array().unwrap()[2].as_str(), Some("x\n"));
/// // Key order and number text are kept.
/// assert_eq!(v.to_string(), r#"{"b":1.50,"a":[true,null,"x\n"]}"#);
/// // Equality compares numbers by value and objects regardless of key order.
/// assert_eq!(v, Json::parse(r#"{"a":[true,null,"x\n"],"b":1.5}"#).unwrap());
/// ```
///
/// `Json` is `Send + Sync`. Cloning, comparing, writing and dropping use a heap stack, never
/// recursion, whatever the depth.
#[derive(Default)]
pub enum Json {
    /// `null`
    #[default]
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as its JSON text.
    Number(String),
    /// A string (unescaped).
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object: members in order, keys unique.
    Object(JsonObject),
}

/// A value nested deeper than the reducer's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooDeep;

/// Scans the string starting after the quote at `b[start - 1]`; returns its raw content end.
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'"' => return i,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    b.len()
}

fn unescape(raw: &str) -> String {
    Str::from_validated(raw, raw.contains('\\'))
        .unescaped()
        .into_owned()
}

impl Json {
    /// Parses JSON text (validated first: RFC 8259, depth at most 512).
    ///
    /// ```
    /// use agui_wire::reducer::Json;
    /// assert!(Json::parse("[1, 2").is_err());
    /// assert_eq!(Json::parse(" 3 ").unwrap().as_number(), Some("3"));
    /// ```
    pub fn parse(text: &str) -> Result<Json, crate::Error> {
        let raw = RawJson::from_text(text)?;
        Json::from_validated(raw.as_bytes(), usize::MAX)
            .map_err(|_| crate::Error::new(crate::ErrorKind::DepthLimitExceeded(512), 0, ""))
    }

    /// The tree of a raw JSON value.
    ///
    /// ```
    /// use agui_wire::{RawJson, reducer::Json};
    /// let raw = RawJson::from_text(r#"{"k":[1]}"#).unwrap();
    /// assert_eq!(Json::from_raw(&raw).to_string(), r#"{"k":[1]}"#);
    /// ```
    pub fn from_raw(raw: &RawJson<'_>) -> Json {
        Json::from_validated(raw.as_bytes(), usize::MAX).unwrap_or_default()
    }

    /// Builds the tree of validated JSON text, failing when it nests deeper than `max_depth`.
    /// Malformed text (which validated text never is) ends the walk early, without a panic.
    pub(crate) fn from_validated(b: &[u8], max_depth: usize) -> Result<Json, TooDeep> {
        let text = std::str::from_utf8(b).unwrap_or("");
        let b = text.as_bytes();
        let mut out = Builder::default();
        let mut i = 0;
        while i < b.len() && !out.done() {
            stats::tick(1);
            let c = b[i];
            let value = match c {
                b' ' | b'\t' | b'\n' | b'\r' | b':' | b',' => {
                    i += 1;
                    continue;
                }
                b'{' | b'[' => {
                    if out.depth() >= max_depth {
                        return Err(TooDeep);
                    }
                    if c == b'{' {
                        // Keys may repeat: the object dedups them (first place, last value,
                        // as JSON.parse does) through its index.
                        out.open_object(0, false);
                    } else {
                        out.open_array(0);
                    }
                    i += 1;
                    continue;
                }
                b'}' | b']' => {
                    i += 1;
                    if !out.close() {
                        break;
                    }
                    continue;
                }
                b'"' => {
                    let end = string_end(b, i + 1);
                    let raw = text.get(i + 1..end).unwrap_or("");
                    i = end + 1;
                    let s = unescape(raw);
                    if out.wants_key() {
                        out.key(s);
                        continue;
                    }
                    Json::String(s)
                }
                b't' => {
                    i += 4;
                    Json::Bool(true)
                }
                b'f' => {
                    i += 5;
                    Json::Bool(false)
                }
                b'n' => {
                    i += 4;
                    Json::Null
                }
                _ => {
                    let start = i;
                    while i < b.len()
                        && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    {
                        i += 1;
                    }
                    if i == start {
                        break;
                    }
                    Json::Number(text.get(start..i).unwrap_or("0").to_owned())
                }
            };
            out.value(value);
        }
        Ok(out.finish().unwrap_or_default())
    }

    /// The member `key` of an object.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert!(Json::parse(r#"{"a":1}"#).unwrap().get("b").is_none());
    /// ```
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// The member `key` of an object, to edit.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1}"#).unwrap();
    /// *v.get_mut("a").unwrap() = Json::Bool(true);
    /// assert_eq!(v.to_string(), r#"{"a":true}"#);
    /// ```
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(m) => m.get_mut(key),
            _ => None,
        }
    }

    /// Sets the member `key` of an object: in its place when it exists, else at the end.
    /// Does nothing on a value that is not an object.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1,"b":2}"#).unwrap();
    /// v.set("a", Json::Null);
    /// v.set("c", Json::from("x"));
    /// assert_eq!(v.to_string(), r#"{"a":null,"b":2,"c":"x"}"#);
    /// ```
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Object(m) = self {
            match m.get_mut(key) {
                Some(slot) => *slot = value,
                None => {
                    m.insert(key.to_owned(), value);
                }
            }
        }
    }

    /// Removes the member `key` of an object and returns it.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse(r#"{"a":1}"#).unwrap();
    /// assert!(v.remove("a").is_some());
    /// assert_eq!(v.to_string(), "{}");
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        match self {
            Json::Object(m) => m.remove(key),
            _ => None,
        }
    }

    /// The text of a string.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::from("hi").as_str(), Some("hi"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a number.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::parse("1e3").unwrap().as_number(), Some("1e3"));
    /// ```
    pub fn as_number(&self) -> Option<&str> {
        match self {
            Json::Number(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of an array.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::parse("[1,2]").unwrap().as_array().map(|a| a.len()), Some(2));
    /// ```
    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements of an array, to edit.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::parse("[1]").unwrap();
    /// v.as_array_mut().unwrap().push(Json::Null);
    /// assert_eq!(v.to_string(), "[1,null]");
    /// ```
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members of an object.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"a":1}"#).unwrap();
    /// assert_eq!(v.as_object().unwrap().keys().next(), Some("a"));
    /// ```
    pub fn as_object(&self) -> Option<&JsonObject> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The members of an object, to edit.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let mut v = Json::object();
    /// v.as_object_mut().unwrap().insert("k".into(), Json::Null);
    /// assert_eq!(v.to_string(), r#"{"k":null}"#);
    /// ```
    pub fn as_object_mut(&mut self) -> Option<&mut JsonObject> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// An object of these members (a repeated key keeps its first place and the last value).
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::from_members(vec![("id".into(), Json::from("m1"))]);
    /// assert_eq!(v.to_string(), r#"{"id":"m1"}"#);
    /// ```
    pub fn from_members(members: Vec<(String, Json)>) -> Json {
        Json::Object(JsonObject::from(members))
    }

    /// An estimate of the memory the value holds, in bytes: the size of a `Json` per value,
    /// of a `String` per object key, plus the bytes of its strings, numbers and keys
    /// (allocator overhead and spare capacity aside). The measure of
    /// [`ReduceOptions::max_state_bytes`](super::ReduceOptions::max_state_bytes).
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"ab":[1,"xyz"]}"#).unwrap();
    /// let (value, key) = (std::mem::size_of::<Json>(), std::mem::size_of::<String>());
    /// assert_eq!(v.approx_size(), 4 * value + key + 2 + 1 + 3);
    /// ```
    pub fn approx_size(&self) -> usize {
        walk::approx_size(self)
    }

    /// An empty object.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::object().to_string(), "{}");
    /// ```
    pub fn object() -> Json {
        Json::Object(JsonObject::new())
    }

    /// Nesting depth: 0 for a scalar, 1 for `[]` or `[1]`, and so on.
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// assert_eq!(Json::parse(r#"[{"a":[]}]"#).unwrap().depth(), 3);
    /// ```
    pub fn depth(&self) -> usize {
        walk::depth(self)
    }

    /// The value as a `serde_json::Value` (numbers beyond what it holds become `null`). Built
    /// without recursion; note that serde_json drops (and serializes) a `Value` recursively, so
    /// convert trees of a sensible depth (every tree the reducer holds is at most
    /// [`ReduceOptions::max_depth`](super::ReduceOptions::max_depth) deep).
    ///
    /// ```
    /// # use agui_wire::reducer::Json;
    /// let v = Json::parse(r#"{"a":[1,2.5]}"#).unwrap().to_serde_value();
    /// assert_eq!(v["a"][1], serde_json::json!(2.5));
    /// ```
    pub fn to_serde_value(&self) -> serde_json::Value {
        walk::to_serde(self)
    }
}

fn write_string<'d, S: Sink<'d>>(out: &mut S, s: &str) {
    let mut buf = String::with_capacity(s.len() + 2);
    buf.push('"');
    escape_into(s, &mut buf);
    buf.push('"');
    out.push(buf.as_bytes());
}

/// Writes the value as compact JSON (strings escaped as serde_json does).
///
/// ```
/// use agui_wire::{WriteJson, reducer::Json};
/// assert_eq!(Json::from("a\"b").to_json_vec(), br#""a\"b""#);
/// assert_eq!(Json::parse("[1, {\"k\": null}]").unwrap().to_json_vec(), br#"[1,{"k":null}]"#);
/// ```
impl WriteJson for Json {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        walk::write(self, |piece| match piece {
            Piece::Raw(b) => out.push(b),
            Piece::Borrowed(b) => out.push_borrowed(b),
            Piece::Str(s) => write_string(out, s),
        });
    }
}

impl PartialEq for Json {
    /// Deep equality as JSON Patch's `test` defines it: numbers by value, objects by their set
    /// of members (in any order), arrays element by element.
    fn eq(&self, other: &Json) -> bool {
        walk::eq(self, other)
    }
}

/// A deep copy (made without recursion).
impl Clone for Json {
    fn clone(&self) -> Json {
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(*b),
            Json::Number(n) => Json::Number(n.clone()),
            Json::String(s) => Json::String(s.clone()),
            _ => walk::clone(self),
        }
    }
}

/// Takes deep trees apart without recursion.
impl Drop for Json {
    fn drop(&mut self) {
        walk::drop_children(self);
    }
}

/// The value as compact JSON text.
impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.to_json_vec()))
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_and_write() {
        let text =
            r#"{"a":[1,-2.5e+3,"\u00e9\"\\\n",{}],"b":{"c":null,"d":[[]]},"e":true,"f":false}"#;
        let v = Json::parse(text).unwrap();
        assert_eq!(
            v.get("a").unwrap().as_array().unwrap()[2].as_str(),
            Some("é\"\\\n")
        );
        assert_eq!(
            v.to_string(),
            r#"{"a":[1,-2.5e+3,"é\"\\\n",{}],"b":{"c":null,"d":[[]]},"e":true,"f":false}"#
        );
        assert_eq!(v.depth(), 4);
        assert!(Json::from_validated(text.as_bytes(), 3).is_err());
        assert!(Json::from_validated(text.as_bytes(), 4).is_ok());
    }

    #[test]
    fn duplicate_keys_keep_first_place_and_last_value() {
        let v = Json::parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"a":3,"b":2}"#);
        let mut big = String::from("{");
        for i in 0..100 {
            big.push_str(&format!("\"k{i}\":{i},"));
        }
        big.push_str("\"k5\":\"x\"}");
        let v = Json::parse(&big).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 100);
        assert_eq!(v.as_object().unwrap().keys().nth(5), Some("k5"));
        assert_eq!(v.get("k5").unwrap().as_str(), Some("x"));
    }

    #[test]
    fn equality() {
        let a = Json::parse(r#"{"x":[1,{"y":1e2}],"z":"s"}"#).unwrap();
        let b = Json::parse(r#"{"z":"s","x":[1.0,{"y":100}]}"#).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, Json::parse(r#"{"z":"s","x":[1,{"y":101}]}"#).unwrap());
        assert_ne!(Json::parse("[1,2]").unwrap(), Json::parse("[2,1]").unwrap());
        assert_ne!(Json::parse("{}").unwrap(), Json::parse("[]").unwrap());
        assert_ne!(Json::parse("0").unwrap(), Json::Bool(false));
    }
}
