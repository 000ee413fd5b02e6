//! `google.protobuf.Value`, `Struct` and `ListValue`: a borrowed view, their exact conversion
//! to JSON text, and their encoding from JSON text.
//!
//! Both directions walk nested values with an explicit stack (no recursion) bounded by a depth
//! limit. Numbers are `double`s: written back as an integer when they hold one (below 10^21,
//! beyond that in exponent form, which is still the same integer), otherwise in the shortest
//! form that reads back to the same double. `NaN` and the infinities have no JSON spelling and
//! are an error.

use bumpalo::Bump;
use smallvec::SmallVec;

use super::json_in::{J, JStr};
use super::wire::{self, Fields, RawValue, WireType};
use super::{Loss, LossKind, ProtoError, ProtoErrorKind};

/// The kind and payload of one `google.protobuf.Value`, borrowed from the frame.
///
/// ```
/// use agui_wire::proto::ValueView;
/// // Value { string_value: "hi" }
/// let v = ValueView::parse(&[0x1a, 2, b'h', b'i'], 64)?;
/// assert_eq!(v, ValueView::String("hi"));
/// assert_eq!(v.to_json(64)?, r#""hi""#);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueView<'a> {
    /// `null_value`.
    Null,
    /// `number_value`.
    Number(f64),
    /// `string_value`: a slice of the frame.
    String(&'a str),
    /// `bool_value`.
    Bool(bool),
    /// `struct_value`: the bytes of a `Struct` (see [`StructView`]).
    Struct(StructView<'a>),
    /// `list_value`: the bytes of a `ListValue` (see [`ListView`]).
    List(ListView<'a>),
}

/// A `google.protobuf.Struct`: its entries, in wire order, borrowed from the frame.
///
/// ```
/// use agui_wire::proto::{StructView, ValueView};
/// // Struct { fields: { "a": Value { bool_value: true } } }
/// let bytes = [0x0a, 7, 0x0a, 1, b'a', 0x12, 2, 0x20, 1];
/// let s = StructView::new(&bytes);
/// let entries: Vec<_> = s.entries().collect::<Result<_, _>>()?;
/// assert_eq!(entries, vec![("a", Some(ValueView::Bool(true)))]);
/// assert_eq!(s.to_json(64)?, r#"{"a":true}"#);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructView<'a> {
    bytes: &'a [u8],
}

/// A `google.protobuf.ListValue`: its values, in order, borrowed from the frame.
///
/// ```
/// use agui_wire::proto::{ListView, ValueView};
/// // ListValue { values: [Value { number_value: 2.0 }] }
/// let mut bytes = vec![0x0a, 9, 0x11];
/// bytes.extend_from_slice(&2.0f64.to_le_bytes());
/// let l = ListView::new(&bytes);
/// assert_eq!(l.values().next().unwrap()?, Some(ValueView::Number(2.0)));
/// assert_eq!(l.to_json(64)?, "[2]");
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListView<'a> {
    bytes: &'a [u8],
}

pub(crate) fn utf8(bytes: &[u8], at: usize) -> Result<&str, ProtoError> {
    simdutf8::basic::from_utf8(bytes).map_err(|_| {
        let bad = std::str::from_utf8(bytes)
            .err()
            .map_or(0, |e| e.valid_up_to());
        ProtoError::new(ProtoErrorKind::InvalidUtf8, at + bad)
    })
}

fn offset_of(outer: &[u8], inner: &[u8]) -> usize {
    (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize)
}

impl<'a> ValueView<'a> {
    /// Reads a `Value` message. Protobuf's `oneof` rule applies: when several kinds are on
    /// the wire the last one counts. `Ok(None)` is a `Value` with no kind set, which the
    /// official decoder treats as an absent field. `max_depth` is not used here (the view is
    /// one level); it is accepted for symmetry with [`ValueView::to_json`].
    pub fn parse_opt(bytes: &'a [u8], _max_depth: usize) -> Result<Option<Self>, ProtoError> {
        value_kind(bytes, bytes)
    }

    /// Like [`ValueView::parse_opt`], with a `Value` that has no kind set as an error.
    pub fn parse(bytes: &'a [u8], max_depth: usize) -> Result<Self, ProtoError> {
        Self::parse_opt(bytes, max_depth)?
            .ok_or_else(|| ProtoError::new(ProtoErrorKind::EmptyValue, 0))
    }

    /// The JSON text of the value, nested values at most `max_depth` deep.
    pub fn to_json(&self, max_depth: usize) -> Result<String, ProtoError> {
        let mut out = Vec::new();
        write_value_view(*self, &mut out, max_depth, &[])?;
        // Only valid UTF-8 is written: strings were checked, the rest is ASCII.
        String::from_utf8(out).map_err(|_| ProtoError::new(ProtoErrorKind::InvalidUtf8, 0))
    }
}

impl<'a> StructView<'a> {
    /// Views the bytes of a `Struct`.
    pub fn new(bytes: &'a [u8]) -> Self {
        StructView { bytes }
    }

    /// The bytes of the `Struct`.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The entries in wire order: key and value (`None` for a value with no kind set, which
    /// the JSON text leaves out). A key that appears twice appears twice here.
    pub fn entries(
        &self,
    ) -> impl Iterator<Item = Result<(&'a str, Option<ValueView<'a>>), ProtoError>> + 'a {
        let outer = self.bytes;
        Fields::new(outer, 0).filter_map(move |f| match f {
            Err(e) => Some(Err(e.into())),
            Ok(f) => match (f.number, f.value) {
                (1, RawValue::Len(entry)) => Some(struct_entry(outer, entry)),
                _ => None,
            },
        })
    }

    /// The value under `key` (the last one when the key repeats, as protobuf maps read).
    pub fn get(&self, key: &str) -> Result<Option<ValueView<'a>>, ProtoError> {
        let mut found = None;
        for e in self.entries() {
            let (k, v) = e?;
            if k == key {
                found = v;
            }
        }
        Ok(found)
    }

    /// The JSON text of the object.
    pub fn to_json(&self, max_depth: usize) -> Result<String, ProtoError> {
        ValueView::Struct(*self).to_json(max_depth)
    }
}

impl<'a> ListView<'a> {
    /// Views the bytes of a `ListValue`.
    pub fn new(bytes: &'a [u8]) -> Self {
        ListView { bytes }
    }

    /// The bytes of the `ListValue`.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The values in order (`None` for a value with no kind set, written as `null`).
    pub fn values(&self) -> impl Iterator<Item = Result<Option<ValueView<'a>>, ProtoError>> + 'a {
        let outer = self.bytes;
        Fields::new(outer, 0).filter_map(move |f| match f {
            Err(e) => Some(Err(e.into())),
            Ok(f) => match (f.number, f.value) {
                (1, RawValue::Len(v)) => Some(value_kind(outer, v)),
                _ => None,
            },
        })
    }

    /// The JSON text of the array.
    pub fn to_json(&self, max_depth: usize) -> Result<String, ProtoError> {
        ValueView::List(*self).to_json(max_depth)
    }
}

/// Reads a `Struct.FieldsEntry`: key (1) and value (2), last occurrence of each.
fn struct_entry<'a>(
    outer: &[u8],
    entry: &'a [u8],
) -> Result<(&'a str, Option<ValueView<'a>>), ProtoError> {
    let base = offset_of(outer, entry);
    let mut key: &'a str = "";
    let mut value = None;
    for f in Fields::new(entry, base) {
        let f = f?;
        match (f.number, f.value) {
            (1, RawValue::Len(k)) => key = utf8(k, base + offset_of(entry, k))?,
            (2, RawValue::Len(v)) => value = Some(v),
            _ => {}
        }
    }
    let value = match value {
        Some(v) => value_kind(outer, v)?,
        None => None,
    };
    Ok((key, value))
}

/// The kind of a `Value` (the last kind field on the wire wins).
fn value_kind<'a>(outer: &[u8], bytes: &'a [u8]) -> Result<Option<ValueView<'a>>, ProtoError> {
    let base = offset_of(outer, bytes);
    let mut kind = None;
    for f in Fields::new(bytes, base) {
        let f = f?;
        kind = match (f.number, f.value) {
            (1, RawValue::Varint(_)) => Some(ValueView::Null),
            (2, RawValue::Fixed64(bits)) => Some(ValueView::Number(f64::from_bits(bits))),
            (3, RawValue::Len(s)) => Some(ValueView::String(utf8(s, base + offset_of(bytes, s))?)),
            (4, RawValue::Varint(b)) => Some(ValueView::Bool(b != 0)),
            (5, RawValue::Len(s)) => Some(ValueView::Struct(StructView { bytes: s })),
            (6, RawValue::Len(l)) => Some(ValueView::List(ListView { bytes: l })),
            _ => kind,
        };
    }
    Ok(kind)
}

/// The escape of each byte in a JSON string: 0 for none, `u` for `\u00XX`, otherwise the
/// letter after the backslash.
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Whether any byte of the (little-endian) word is `"`, `\` or a control character: the
/// classic word-at-a-time tests for a zero byte and for a byte below a bound, exact as a yes
/// or no for the whole word.
#[inline(always)]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    (zero_in(quote) | zero_in(backslash) | below_space) != 0
}

/// Appends `text` as a JSON string. Runs that need no escaping are found eight bytes at a time
/// and copied whole; `write_json_str_scalar` (test builds only) is the byte-at-a-time twin the
/// tests compare it with.
pub(crate) fn write_json_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let mut words = bytes[i..].chunks_exact(8);
        for w in words.by_ref() {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            if word_needs_escape(u64::from_le_bytes(a)) {
                break;
            }
            i += 8;
        }
        // `i` is at a word holding an escape, or in the last seven bytes.
        let end = (i + 8).min(bytes.len());
        while i < end {
            let b = bytes[i];
            let e = ESCAPE[usize::from(b)];
            if e != 0 {
                out.extend_from_slice(&bytes[run..i]);
                write_escape(out, b, e);
                run = i + 1;
            }
            i += 1;
        }
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

#[inline]
fn write_escape(out: &mut Vec<u8>, b: u8, e: u8) {
    if e == b'u' {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 15)],
        ]);
    } else {
        out.extend_from_slice(&[b'\\', e]);
    }
}

/// [`write_json_str`] a byte at a time: the reference it is tested against.
#[cfg(test)]
pub(crate) fn write_json_str_scalar(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for &b in text.as_bytes() {
        match ESCAPE[usize::from(b)] {
            0 => out.push(b),
            e => write_escape(out, b, e),
        }
    }
    out.push(b'"');
}

/// Appends a double as JSON: an integer when it holds one (exponent form from 10^21 up),
/// otherwise the shortest text that reads back to the same double. `NaN` and the infinities
/// are an error.
pub(crate) fn write_number(out: &mut Vec<u8>, x: f64, at: usize) -> Result<(), ProtoError> {
    if !x.is_finite() {
        return Err(ProtoError::new(ProtoErrorKind::NonFiniteNumber(x), at));
    }
    if x.fract() == 0.0 && x.abs() < 1e21 {
        if x == 0.0 && x.is_sign_negative() {
            out.extend_from_slice(b"-0");
        } else {
            // |x| < 10^21 < 2^70 fits an i128 exactly.
            out.extend_from_slice(itoa::Buffer::new().format(x as i128).as_bytes());
        }
        return Ok(());
    }
    let mut buf = ryu::Buffer::new();
    let s = buf.format_finite(x);
    // ryu writes `1e21` and `1.5e-7`: valid JSON as it stands.
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

enum Frame<'a> {
    Obj(Fields<'a>, bool),
    Arr(Fields<'a>, bool),
}

/// Writes a scalar, or opens a container and returns its frame.
fn open<'a>(
    v: ValueView<'a>,
    out: &mut Vec<u8>,
    depth: usize,
    max_depth: usize,
    outer: &[u8],
) -> Result<Option<Frame<'a>>, ProtoError> {
    let at = |b: &[u8]| {
        if outer.is_empty() {
            0
        } else {
            offset_of(outer, b)
        }
    };
    Ok(match v {
        ValueView::Null => {
            out.extend_from_slice(b"null");
            None
        }
        ValueView::Bool(b) => {
            out.extend_from_slice(if b { b"true" } else { b"false" });
            None
        }
        ValueView::Number(x) => {
            write_number(out, x, 0)?;
            None
        }
        ValueView::String(s) => {
            write_json_str(out, s);
            None
        }
        ValueView::Struct(StructView { bytes: b }) | ValueView::List(ListView { bytes: b })
            if depth >= max_depth =>
        {
            return Err(ProtoError::new(
                ProtoErrorKind::DepthLimit(max_depth),
                at(b),
            ));
        }
        ValueView::Struct(s) => {
            out.push(b'{');
            Some(Frame::Obj(Fields::new(s.bytes, at(s.bytes)), true))
        }
        ValueView::List(l) => {
            out.push(b'[');
            Some(Frame::Arr(Fields::new(l.bytes, at(l.bytes)), true))
        }
    })
}

/// Appends the JSON text of `v`. `outer` is the frame the view borrows from (for offsets in
/// errors; may be empty).
pub(crate) fn write_value_view(
    v: ValueView<'_>,
    out: &mut Vec<u8>,
    max_depth: usize,
    outer: &[u8],
) -> Result<(), ProtoError> {
    // Shallow values (nearly all) keep their stack on the machine stack.
    let mut stack: SmallVec<[Frame<'_>; 8]> = SmallVec::new();
    if let Some(f) = open(v, out, 0, max_depth, outer)? {
        stack.push(f);
    }
    loop {
        let depth = stack.len();
        let Some(top) = stack.last_mut() else { break };
        let next = match top {
            Frame::Obj(fields, first) => loop {
                match fields.next() {
                    None => break None,
                    Some(f) => {
                        let f = f?;
                        let (1, RawValue::Len(entry)) = (f.number, f.value) else {
                            continue;
                        };
                        let (key, value) = struct_entry(entry, entry)?;
                        let Some(value) = value else { continue };
                        if !*first {
                            out.push(b',');
                        }
                        *first = false;
                        write_json_str(out, key);
                        out.push(b':');
                        break Some(value);
                    }
                }
            },
            Frame::Arr(fields, first) => loop {
                match fields.next() {
                    None => break None,
                    Some(f) => {
                        let f = f?;
                        let (1, RawValue::Len(v)) = (f.number, f.value) else {
                            continue;
                        };
                        if !*first {
                            out.push(b',');
                        }
                        *first = false;
                        match value_kind(v, v)? {
                            Some(value) => break Some(value),
                            None => {
                                out.extend_from_slice(b"null");
                                continue;
                            }
                        }
                    }
                }
            },
        };
        match next {
            Some(value) => {
                if let Some(f) = open(value, out, depth, max_depth, outer)? {
                    stack.push(f);
                }
            }
            None => {
                out.push(match stack.pop() {
                    Some(Frame::Obj(..)) => b'}',
                    _ => b']',
                });
            }
        }
    }
    Ok(())
}

/// Where encoding reports values `Value` cannot carry exactly.
pub(crate) struct LossSink<'r> {
    pub fail: bool,
    pub losses: &'r mut Vec<Loss>,
}

impl LossSink<'_> {
    pub(crate) fn lose(
        &mut self,
        kind: LossKind,
        path: &dyn Fn() -> String,
    ) -> Result<(), ProtoError> {
        if self.fail {
            return Err(ProtoError::new(ProtoErrorKind::Lossy(kind, path()), 0));
        }
        self.losses.push(Loss { kind, path: path() });
        Ok(())
    }
}

/// Parses a JSON number the way `double` carries it, reporting when it cannot carry it
/// exactly: when writing the double back would give a different number (`1e400`, integers
/// beyond 2^53 that are not doubles, more digits than a double holds).
pub(crate) fn number_to_f64(text: &str) -> (f64, bool) {
    // The common case, an integer of at most 15 digits: below 2^53, so exactly a double,
    // which is written back as the same integer.
    let b = text.as_bytes();
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        let n = digits
            .iter()
            .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
        let x = n as f64;
        return (if neg { -x } else { x }, true);
    }
    let x: f64 = text.parse().unwrap_or(f64::NAN);
    if !x.is_finite() {
        return (x, false);
    }
    let mut back = Vec::new();
    if write_number(&mut back, x, 0).is_err() {
        return (x, false);
    }
    let back = std::str::from_utf8(&back).unwrap_or("");
    (x, same_decimal(text, back))
}

/// Whether two JSON numbers denote the same decimal value.
fn same_decimal(a: &str, b: &str) -> bool {
    normalize(a) == normalize(b)
}

/// Sign, significant digits and the decimal exponent of their first digit.
fn normalize(s: &str) -> (bool, Vec<u8>, i64) {
    let s = s.as_bytes();
    let (neg, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let (mant, exp) = match s.iter().position(|&c| c == b'e' || c == b'E') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, &b""[..]),
    };
    let mut e: i64 = 0;
    let (eneg, edigits) = match exp.first() {
        Some(b'-') => (true, &exp[1..]),
        Some(b'+') => (false, &exp[1..]),
        _ => (false, exp),
    };
    for &d in edigits {
        e = e
            .saturating_mul(10)
            .saturating_add(i64::from(d.wrapping_sub(b'0')));
    }
    if eneg {
        e = -e;
    }
    let point = mant.iter().position(|&c| c == b'.').unwrap_or(mant.len());
    let digits: Vec<u8> = mant.iter().copied().filter(|&c| c != b'.').collect();
    let lead = digits.iter().position(|&c| c != b'0');
    let Some(lead) = lead else {
        return (neg, Vec::new(), 0);
    };
    let end = digits
        .iter()
        .rposition(|&c| c != b'0')
        .map_or(lead, |i| i + 1);
    let pos = (point as i64 - lead as i64).saturating_add(e);
    (neg, digits[lead..end].to_vec(), pos)
}

/// Encodes a JSON value as the payload of a `Value` message (no tag, no length), nested values
/// at most `max_depth` deep. `path` names the field for loss reports.
pub(crate) fn encode_value<'a, 'b>(
    j: &'b J<'a, 'b>,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
    arena: &Bump,
) -> Result<(), ProtoError> {
    encode_any(j, false, out, max_depth, sink, path, arena)
}

/// No message to close: the root `Struct` of [`encode_struct`] is the payload itself.
const NO_MARK: usize = usize::MAX;

fn encode_any<'a, 'b>(
    j: &'b J<'a, 'b>,
    root_struct: bool,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
    arena: &Bump,
) -> Result<(), ProtoError> {
    enum Work<'a, 'b> {
        Value(&'b J<'a, 'b>),
        Members(std::slice::Iter<'b, (JStr<'a>, J<'a, 'b>)>, usize),
        Items(std::slice::Iter<'b, J<'a, 'b>>, usize),
        Close(usize),
    }
    let mut stack: SmallVec<[Work<'_, '_>; 16]> = SmallVec::new();
    let mut depth = 0usize;
    match *j {
        J::Obj(members) if root_struct => {
            depth = 1;
            stack.push(Work::Members(members.iter(), NO_MARK));
        }
        _ => stack.push(Work::Value(j)),
    }
    while let Some(w) = stack.pop() {
        match w {
            Work::Value(J::Null) => {
                wire::put_tag(out, 1, WireType::Varint);
                out.push(0);
            }
            Work::Value(J::Bool(b)) => {
                wire::put_tag(out, 4, WireType::Varint);
                out.push(u8::from(*b));
            }
            Work::Value(J::Num(t)) => {
                let (x, exact) = number_to_f64(t);
                if !exact {
                    let kind = if x.is_finite() {
                        LossKind::InexactNumber((*t).to_string())
                    } else {
                        LossKind::NumberOutOfRange((*t).to_string())
                    };
                    sink.lose(kind, path)?;
                }
                if x.is_finite() {
                    wire::put_tag(out, 2, WireType::Fixed64);
                    out.extend_from_slice(&x.to_le_bytes());
                } else {
                    // Reported above: no double stands for it, so it goes as `null`.
                    wire::put_tag(out, 1, WireType::Varint);
                    out.push(0);
                }
            }
            Work::Value(J::Str(s)) => s.put(out, 3, arena),
            Work::Value(J::Obj(members)) => {
                if depth >= max_depth {
                    return Err(ProtoError::new(ProtoErrorKind::DepthLimit(max_depth), 0));
                }
                depth += 1;
                let m = wire::begin_message(out, 5);
                stack.push(Work::Members(members.iter(), m));
            }
            Work::Value(J::Arr(items)) => {
                if depth >= max_depth {
                    return Err(ProtoError::new(ProtoErrorKind::DepthLimit(max_depth), 0));
                }
                depth += 1;
                let m = wire::begin_message(out, 6);
                stack.push(Work::Items(items.iter(), m));
            }
            Work::Members(mut it, m) => match it.next() {
                Some((k, v)) => {
                    stack.push(Work::Members(it, m));
                    let entry = wire::begin_message(out, 1);
                    k.put(out, 1, arena);
                    let value = wire::begin_message(out, 2);
                    stack.push(Work::Close(entry));
                    stack.push(Work::Close(value));
                    stack.push(Work::Value(v));
                }
                None => {
                    depth -= 1;
                    if m != NO_MARK {
                        wire::end_message(out, m);
                    }
                }
            },
            Work::Items(mut it, m) => match it.next() {
                Some(v) => {
                    stack.push(Work::Items(it, m));
                    let value = wire::begin_message(out, 1);
                    stack.push(Work::Close(value));
                    stack.push(Work::Value(v));
                }
                None => {
                    depth -= 1;
                    if m != NO_MARK {
                        wire::end_message(out, m);
                    }
                }
            },
            Work::Close(m) => wire::end_message(out, m),
        }
    }
    Ok(())
}

/// Encodes a JSON object as the payload of a `Struct` message (the caller has checked that
/// `j` is an object).
pub(crate) fn encode_struct<'a, 'b>(
    j: &'b J<'a, 'b>,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
    arena: &Bump,
) -> Result<(), ProtoError> {
    encode_any(j, true, out, max_depth, sink, path, arena)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_by_words_matches_the_scalar_twin() {
        // Every byte that matters (and some that do not) at every position of strings of 0 to
        // 24 bytes, so each lands in a whole word, across a word boundary and in the tail.
        let specials = [
            b'"', b'\\', b'\n', b'\r', b'\t', 0x08, 0x0c, 0x00, 0x1f, 0x7f, b' ', b'a', 0x21, 0x5b,
            0x5d, 0x19,
        ];
        for len in 0..25usize {
            for at in 0..len.max(1) {
                for &s in &specials {
                    let mut text = vec![b'x'; len];
                    if len > 0 {
                        text[at] = s;
                    }
                    let text = String::from_utf8(text).unwrap();
                    let (mut fast, mut slow) = (Vec::new(), Vec::new());
                    write_json_str(&mut fast, &text);
                    write_json_str_scalar(&mut slow, &text);
                    assert_eq!(fast, slow, "{text:?}");
                    let back: String = serde_json::from_slice(&fast).unwrap();
                    assert_eq!(back, text);
                }
            }
        }
        let mixed = "héllo \"wörld\"\\ \u{1}\u{1f}😀 tab\there, newline\n and more text after it";
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        write_json_str(&mut fast, mixed);
        write_json_str_scalar(&mut slow, mixed);
        assert_eq!(fast, slow);
        assert_eq!(fast, serde_json::to_vec(mixed).unwrap());
    }

    #[test]
    fn integer_fast_path_agrees_with_the_general_check() {
        for t in [
            "0",
            "-0",
            "7",
            "007",
            "-12",
            "123456789012345",
            "-999999999999999",
            "1700000000000",
        ] {
            let (x, exact) = number_to_f64(t);
            assert!(exact, "{t}");
            assert_eq!(x, t.parse::<f64>().unwrap(), "{t}");
            assert_eq!(x.is_sign_negative(), t.starts_with('-'), "{t}");
        }
        // Sixteen digits and more take the general path.
        assert!(!number_to_f64("9007199254740993").1);
        assert!(number_to_f64("9007199254740992").1);
        assert!(!number_to_f64("1e400").1);
        assert!(number_to_f64("2.5").1);
    }
}
