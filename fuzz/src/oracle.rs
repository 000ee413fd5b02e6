//! serde_json as the oracle for "is this JSON, and what does it say".
//!
//! serde_json is built here with `arbitrary_precision`, so numbers are kept as text: it then
//! checks the number grammar without range limits (RFC 8259 puts no limit on the grammar; the
//! default build rejects `1e400`) and two numbers are equal when their text is. Two quirks
//! remain and are reported as such rather than as a verdict:
//!
//! - serde_json stops at 127 levels of nesting ([`SERDE_DEPTH`]); deeper documents get
//!   [`Verdict::TooDeep`].
//! - with `arbitrary_precision`, an object whose key is `$serde_json::private::Number` is read
//!   as a number; documents holding a string that spells it get [`Verdict::Unknown`].

use serde_json::Value;

/// The deepest nesting serde_json accepts (its recursion limit is 128 and counts the level
/// that fails).
pub const SERDE_DEPTH: usize = 127;

/// What serde_json says about some bytes.
#[derive(Debug)]
pub enum Verdict {
    /// A JSON document with this value.
    Accept(Value),
    /// Not JSON (serde_json's message).
    Reject(String),
    /// Deeper than serde_json goes: no verdict on the grammar.
    TooDeep,
    /// The input trips one of serde_json's private tokens: no verdict.
    Unknown,
}

impl Verdict {
    /// Whether serde_json gave a definite "this is JSON".
    pub fn accepts(&self) -> bool {
        matches!(self, Verdict::Accept(_))
    }
}

/// serde_json's verdict on `data` as one JSON document (surrounding whitespace allowed).
pub fn serde(data: &[u8]) -> Verdict {
    let result = serde_json::from_slice::<Value>(data);
    if has_private_token(data) {
        return Verdict::Unknown;
    }
    match result {
        Ok(v) => Verdict::Accept(v),
        Err(e) => {
            let msg = e.to_string();
            if msg.starts_with("recursion limit exceeded") {
                Verdict::TooDeep
            } else {
                Verdict::Reject(msg)
            }
        }
    }
}

/// serde_json's value for a text that must be JSON (a raw value agui-wire accepted).
///
/// # Panics
/// When serde_json rejects it: agui-wire handed out a raw value that is not JSON.
pub fn must_parse(text: &str, what: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => v,
        Err(_) if has_private_token(text.as_bytes()) => Value::Null,
        Err(e) => panic!("{what}: agui-wire accepted {text:?}, serde_json says {e}"),
    }
}

/// Nesting depth of a JSON text: 0 for a scalar, 1 for `[]` or `{}`, ... Read from the bytes,
/// not from serde_json's value, which keeps only the last of an object's duplicate keys: the
/// subtrees of the others, which agui-wire reads (and keeps, in raw values), may nest deeper.
/// `text` must be JSON (serde_json accepted it); inside strings, brackets do not count.
pub fn depth(text: &[u8]) -> usize {
    let (mut max, mut now) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                now += 1;
                max = max.max(now);
            }
            b']' | b'}' => now = now.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The JSON kind of a serde value, as agui-wire names it.
pub fn kind(v: &Value) -> agui_wire::JsonKind {
    use agui_wire::JsonKind;
    match v {
        Value::Null => JsonKind::Null,
        Value::Bool(_) => JsonKind::Bool,
        Value::Number(_) => JsonKind::Number,
        Value::String(_) => JsonKind::String,
        Value::Array(_) => JsonKind::Array,
        Value::Object(_) => JsonKind::Object,
    }
}

/// The exact value of a JSON number text when it is a non-negative integer (`10`, `10.0`,
/// `1e1`, `100e-1`, `-0`), as a `u128`; `None` for fractions, negative values and values past
/// `u64::MAX`. Written independently of the parser's own version, which it checks.
pub fn integral(text: &str) -> Option<u128> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (
            &t[..i],
            t[i + 1..]
                .parse::<i64>()
                .unwrap_or(if t[i + 1..].starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                }),
        ),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // digits × 10^(exp - frac.len()), with leading and trailing zeros taken off.
    let all = format!("{int}{frac}");
    let digits = all.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0);
    }
    if neg {
        return None;
    }
    let trimmed = digits.trim_end_matches('0');
    let zeros = (digits.len() - trimmed.len()) as i64;
    let scale = exp.saturating_sub(frac.len() as i64).saturating_add(zeros);
    if scale < 0 || trimmed.len() as i64 + scale > 20 {
        return None;
    }
    let mut v: u128 = trimmed.parse().ok()?;
    for _ in 0..scale {
        v *= 10;
    }
    (v <= u64::MAX as u128).then_some(v)
}

const PRIVATE: &[u8] = b"$serde_json::private::";

/// Whether some string in `data` (a JSON text, or garbage) unescapes to something starting
/// with serde_json's private prefix. Cheap when there is no backslash and no `private`.
pub fn has_private_token(data: &[u8]) -> bool {
    let plain = data.windows(7).any(|w| w == b"private");
    let escapes = data.contains(&b'\\');
    if !plain && !escapes {
        return false;
    }
    let mut i = 0;
    while i < data.len() {
        if data[i] != b'"' {
            i += 1;
            continue;
        }
        // Unescape the string starting after this quote (lossily, ASCII is all that matters).
        let mut text = Vec::new();
        let mut j = i + 1;
        while j < data.len() && data[j] != b'"' {
            if data[j] == b'\\' {
                match data.get(j + 1) {
                    Some(b'u') => {
                        let hex = data
                            .get(j + 2..j + 6)
                            .and_then(|h| std::str::from_utf8(h).ok());
                        match hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
                            Some(c) if c < 0x80 => text.push(c as u8),
                            _ => text.push(0xff),
                        }
                        j += 6;
                    }
                    Some(&c) => {
                        text.push(c);
                        j += 2;
                    }
                    None => j += 1,
                }
            } else {
                text.push(data[j]);
                j += 1;
            }
        }
        if text.starts_with(PRIVATE) {
            return true;
        }
        i = j + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_depth_limit() {
        let ok = format!("{}{}", "[".repeat(SERDE_DEPTH), "]".repeat(SERDE_DEPTH));
        assert!(serde(ok.as_bytes()).accepts());
        let deep = format!(
            "{}{}",
            "[".repeat(SERDE_DEPTH + 1),
            "]".repeat(SERDE_DEPTH + 1)
        );
        assert!(matches!(serde(deep.as_bytes()), Verdict::TooDeep));
    }

    #[test]
    fn big_numbers_are_grammar_only() {
        assert!(serde(b"1e400").accepts());
        assert!(serde(b"-0.0e-99999").accepts());
        assert!(!serde(b"01").accepts());
    }

    #[test]
    fn private_token() {
        assert!(has_private_token(
            br#"{"$serde_json::private::Number":"1"}"#
        ));
        assert!(has_private_token(
            br#"{"\u0024serde_json::private::Number":1}"#
        ));
        assert!(!has_private_token(br#"{"private":1}"#));
        assert!(matches!(
            serde(br#"{"$serde_json::private::Number":"x"}"#),
            Verdict::Unknown
        ));
    }

    #[test]
    fn integral_numbers() {
        for (text, want) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("-0.0e-7", Some(0)),
            ("10", Some(10)),
            ("10.0", Some(10)),
            ("1e1", Some(10)),
            ("100e-1", Some(10)),
            ("0.5e1", Some(5)),
            ("1.5", None),
            ("-1", None),
            ("1e-1", None),
            ("18446744073709551615", Some(u64::MAX as u128)),
            ("18446744073709551616", None),
            ("1e400", None),
            ("0e999999999999999999999", Some(0)),
            ("1e-99999999999999999999", None),
        ] {
            assert_eq!(integral(text), want, "{text}");
        }
    }

    #[test]
    fn depths() {
        assert_eq!(depth(br#"[1,{"a":[[]]},2]"#), 4);
        assert_eq!(depth(b"null"), 0);
        assert_eq!(depth(br#"["[[{\"\\", "]"]"#), 1);
        // serde_json's value keeps the second `a` only (depth 2); the text nests deeper.
        let dup = br#"{"a":{"b":{"c":[]}},"a":1}"#;
        let v: Value = serde_json::from_slice(dup).unwrap();
        assert_eq!(v["a"], 1);
        assert_eq!(depth(dup), 4);
    }

    #[test]
    fn surrogates_and_utf8_are_checked() {
        assert!(!serde(br#""\ud800""#).accepts());
        assert!(!serde(b"\"\xff\"").accepts());
        assert!(!serde(b"\xef\xbb\xbf1").accepts());
    }
}
