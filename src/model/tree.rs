//! Trees built from a [`RawJson`]: a `simd_json` borrowed value and a `serde_json::Value`.
//!
//! Both tree types recurse once per level of nesting when they are dropped, compared, printed
//! or serialized (and simd-json also when it builds one), so a value nested deeper than
//! [`RawJson::MAX_TREE_DEPTH`] is refused with [`ErrorKind::DepthLimitExceeded`] before any
//! tree is built. The `serde_json` tree is built here, iteratively, from our own scanner: no
//! recursion on the input's depth, and no silent `null` at serde_json's 128-level limit.

use bumpalo::Bump;
use serde_json::{Map, Number, Value};

use super::raw_json::RawJson;
use super::unescape::unescape;
use crate::error::{Error, ErrorKind, RawError, RawResult};
use crate::scanner::Cursor;

impl RawJson<'_> {
    /// The deepest nesting [`RawJson::to_value`] and [`RawJson::to_serde_value`] accept: 512
    /// levels, the parser's default [`max_depth`](crate::ParseOptions::max_depth), so every
    /// value of a document parsed with the default options converts. The trees they build
    /// recurse once per level when dropped, so a deeper tree could overflow a thread's stack;
    /// a parser configured with a larger `max_depth` accepts such values, and these methods
    /// then return an error instead.
    ///
    /// ```
    /// # use agui_wire::{Bump, ErrorKind, ParseOptions, RawJson, RunAgentInput};
    /// let deep = "[".repeat(600) + &"]".repeat(600);
    /// let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":{deep}}}"#);
    /// let opts = ParseOptions { max_depth: 1000, ..Default::default() };
    /// let arena = Bump::new();
    /// let input = RunAgentInput::parse_with(doc.as_bytes(), &arena, &opts).unwrap();
    /// let e = input.state.unwrap().to_serde_value().unwrap_err();
    /// assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(RawJson::MAX_TREE_DEPTH));
    /// assert_eq!(e.offset(), RawJson::MAX_TREE_DEPTH); // into the value's text
    /// ```
    pub const MAX_TREE_DEPTH: usize = 512;

    /// Parses the value into a `simd_json` borrowed value, copying the text into `arena` first
    /// (simd-json rewrites its buffer; the input itself is never touched). A value nested
    /// deeper than [`RawJson::MAX_TREE_DEPTH`] is an error (checked first, by a scan that
    /// does not recurse).
    ///
    /// ```
    /// # use agui_wire::{RawJson, Bump};
    /// use simd_json::prelude::*;
    /// let arena = Bump::new();
    /// let v = RawJson::from_text("[1,2,3]").unwrap().to_value(&arena).unwrap();
    /// assert_eq!(v.as_array().map(|a| a.len()), Some(3));
    /// ```
    pub fn to_value<'b>(&self, arena: &'b Bump) -> Result<simd_json::BorrowedValue<'b>, Error> {
        let bytes = self.as_bytes();
        if let Some(at) = too_deep(bytes, Self::MAX_TREE_DEPTH) {
            return Err(Error::locate(
                ErrorKind::DepthLimitExceeded(Self::MAX_TREE_DEPTH),
                at,
                bytes,
            ));
        }
        let buf = arena.alloc_slice_copy(bytes);
        // The text is valid JSON, so simd-json fails only where it is stricter than RFC 8259
        // (it takes at most 4 GiB).
        simd_json::to_borrowed_value(buf).map_err(|e| {
            Error::locate(
                ErrorKind::InvalidValue {
                    field: "value",
                    reason: "simd-json cannot read it (larger than 4 GiB?)",
                },
                e.index().min(bytes.len()),
                bytes,
            )
        })
    }

    /// Builds the value as a `serde_json::Value`, without recursion and without serde_json's
    /// 128-level limit. Errors: nesting deeper than [`RawJson::MAX_TREE_DEPTH`], and a number
    /// outside what `serde_json::Number` holds (`1e400`: valid JSON, out of `f64` range).
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// let v = RawJson::from_text(r#"{"k":[true]}"#).unwrap().to_serde_value().unwrap();
    /// assert_eq!(v["k"][0], serde_json::Value::Bool(true));
    /// let deep = "[".repeat(300) + &"]".repeat(300);
    /// assert!(RawJson::from_text(&deep).unwrap().to_serde_value().is_ok());
    /// ```
    pub fn to_serde_value(&self) -> Result<Value, Error> {
        let bytes = self.as_bytes();
        build_serde(bytes, Self::MAX_TREE_DEPTH).map_err(|e| e.locate(bytes))
    }
}

/// The offset of the first bracket that opens level `max + 1` of `text` (valid JSON), if any.
fn too_deep(text: &[u8], max: usize) -> Option<usize> {
    let mut depth = 0usize;
    super::raw_json::find_outside_strings(text, |c| match c {
        b'[' | b'{' => {
            depth += 1;
            depth > max
        }
        b']' | b'}' => {
            depth = depth.saturating_sub(1);
            false
        }
        _ => false,
    })
}

/// A container being built: an array's items, or an object's entries and the key whose value
/// comes next.
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

/// Builds a `serde_json::Value` from validated JSON with an explicit stack.
fn build_serde(bytes: &[u8], max_depth: usize) -> RawResult<Value> {
    let mut c = Cursor::new(bytes);
    let mut stack: Vec<Open> = Vec::new();
    loop {
        // At the start of a value.
        c.skip_ws();
        let mut value = match c.peek() {
            Some(open @ (b'[' | b'{')) => {
                if stack.len() >= max_depth {
                    return Err(c.err(ErrorKind::DepthLimitExceeded(max_depth)));
                }
                c.pos += 1;
                c.skip_ws();
                if open == b'[' {
                    if c.peek() == Some(b']') {
                        c.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Open::Array(Vec::new()));
                        continue;
                    }
                } else if c.peek() == Some(b'}') {
                    c.pos += 1;
                    Value::Object(Map::new())
                } else {
                    let key = key(&mut c)?;
                    stack.push(Open::Object(Map::new(), key));
                    continue;
                }
            }
            Some(b'"') => Value::String(string(&mut c)?),
            Some(b't') | Some(b'f') | Some(b'n') => {
                let first = c.peek();
                match c.literal()? {
                    crate::JsonKind::Null => Value::Null,
                    _ => Value::Bool(first == Some(b't')),
                }
            }
            _ => {
                let start = c.pos;
                c.number()?;
                let text = c.text(start, c.pos);
                let n: Number = text.parse().map_err(|_| {
                    RawError::new(
                        ErrorKind::InvalidValue {
                            field: "number",
                            reason: "out of the range of serde_json's numbers",
                        },
                        start,
                    )
                })?;
                Value::Number(n)
            }
        };
        // A value is complete: hand it to its container, closing every container it ends.
        loop {
            c.skip_ws();
            match stack.last_mut() {
                None => return Ok(value),
                Some(Open::Array(items)) => {
                    items.push(value);
                    match c.peek() {
                        Some(b',') => {
                            c.pos += 1;
                            break;
                        }
                        Some(b']') => {
                            c.pos += 1;
                            let Some(Open::Array(items)) = stack.pop() else {
                                return Err(c.unexpected("']'"));
                            };
                            value = Value::Array(items);
                        }
                        _ => return Err(c.unexpected("',' or ']'")),
                    }
                }
                Some(Open::Object(map, key_slot)) => {
                    map.insert(std::mem::take(key_slot), value);
                    match c.peek() {
                        Some(b',') => {
                            c.pos += 1;
                            *key_slot = key(&mut c)?;
                            break;
                        }
                        Some(b'}') => {
                            c.pos += 1;
                            let Some(Open::Object(map, _)) = stack.pop() else {
                                return Err(c.unexpected("'}'"));
                            };
                            value = Value::Object(map);
                        }
                        _ => return Err(c.unexpected("',' or '}'")),
                    }
                }
            }
        }
    }
}

/// An object key and its colon.
fn key(c: &mut Cursor<'_>) -> RawResult<String> {
    c.skip_ws();
    if c.peek() != Some(b'"') {
        return Err(c.unexpected("a string key"));
    }
    let k = string(c)?;
    c.expect(b':', "':'")?;
    Ok(k)
}

/// A string value, unescaped.
fn string(c: &mut Cursor<'_>) -> RawResult<String> {
    let tok = c.string()?;
    Ok(if tok.escaped {
        unescape(tok.raw)
    } else {
        tok.raw.to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(levels: usize, open: &str, close: &str) -> String {
        open.repeat(levels) + "0" + &close.repeat(levels)
    }

    fn raw(text: &str) -> RawJson<'_> {
        RawJson::from_text_with_depth(text, 1 << 20).unwrap()
    }

    #[test]
    fn matches_serde_json_where_it_can() {
        for text in [
            r#"{"a":[1,-2,3.5,1e3,18446744073709551615,-9223372036854775808],"b":{"c":null}}"#,
            r#"[true,false,"x\"y\u00e9\ud83d\ude00",{},[],{"k":{"k":[{}]}}]"#,
            r#"{"dup":1,"dup":2}"#,
            " [ 1 , { \"a\" : \"b\" } ] ",
            "\"plain\"",
            "0",
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert_eq!(raw(text).to_serde_value().unwrap(), want, "{text}");
        }
    }

    #[test]
    fn deep_values_convert_up_to_the_bound() {
        let max = RawJson::MAX_TREE_DEPTH;
        // serde_json itself stops at 128; the bound is ours.
        for (open, close) in [("[", "]"), (r#"{"k":"#, "}")] {
            let text = deep(max, open, close);
            let v = raw(&text).to_serde_value().unwrap();
            let mut d = 0;
            let mut at = &v;
            while let Some(next) = at.get(0).or_else(|| at.get("k")) {
                at = next;
                d += 1;
            }
            assert_eq!(d, max);
            // Dropping, comparing and printing the tree at the bound stays on the stack.
            assert_eq!(v, v.clone());
            assert!(v.to_string().len() > max);
            drop(v);
            let arena = Bump::new();
            assert!(raw(&text).to_value(&arena).is_ok());
        }
    }

    #[test]
    fn deeper_values_are_errors_not_crashes() {
        let max = RawJson::MAX_TREE_DEPTH;
        for levels in [max + 1, 50_000, 200_000] {
            let text = deep(levels, "[", "]");
            let v = raw(&text);
            let e = v.to_serde_value().unwrap_err();
            assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(max));
            assert_eq!(e.offset(), max);
            let arena = Bump::new();
            let e = v.to_value(&arena).unwrap_err();
            assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(max));
            assert_eq!(e.offset(), max);
        }
        // Brackets inside strings do not count.
        let text = format!("[\"{}\"]", "[".repeat(10_000));
        assert!(raw(&text).to_serde_value().is_ok());
        assert!(too_deep(text.as_bytes(), 1).is_none());
    }

    #[test]
    fn out_of_range_numbers_are_errors() {
        let e = raw("[1, 1e400]").to_serde_value().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidValue { .. }), "{e}");
        assert_eq!((e.offset(), e.path()), (4, "[1]"));
    }
}
