//! `google.protobuf.Value`, `Struct` and `ListValue`: a borrowed view, their exact conversion
//! to JSON text, and their encoding from JSON text.
//!
//! Both directions walk nested values with an explicit stack (no recursion) bounded by a depth
//! limit. Numbers are `double`s: written back as an integer when they hold one (below 10^21,
//! beyond that in exponent form, which is still the same integer), otherwise in the shortest
//! form that reads back to the same double. `NaN` and the infinities have no JSON spelling and
//! are an error.

use super::json_in::J;
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
            Err(e) => Some(Err(e)),
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
            Err(e) => Some(Err(e)),
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

/// Appends `text` as a JSON string.
pub(crate) fn write_json_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
        } else {
            out.extend_from_slice(esc);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
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
            out.extend_from_slice((x as i128).to_string().as_bytes());
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
    let mut stack: Vec<Frame<'_>> = Vec::new();
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
pub(crate) fn encode_value(
    j: &J<'_>,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
) -> Result<(), ProtoError> {
    encode_any(j, false, out, max_depth, sink, path)
}

/// No message to close: the root `Struct` of [`encode_struct`] is the payload itself.
const NO_MARK: usize = usize::MAX;

fn encode_any(
    j: &J<'_>,
    root_struct: bool,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
) -> Result<(), ProtoError> {
    enum Work<'j, 'a> {
        Value(&'j J<'a>),
        Members(std::slice::Iter<'j, (&'a str, J<'a>)>, usize),
        Items(std::slice::Iter<'j, J<'a>>, usize),
        Close(usize),
    }
    let mut stack = Vec::new();
    let mut depth = 0usize;
    match j {
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
            Work::Value(J::Str(s)) => {
                let text = super::json_in::unescape(s);
                wire::put_bytes(out, 3, text.as_bytes());
            }
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
                    let key = super::json_in::unescape(k);
                    wire::put_bytes(out, 1, key.as_bytes());
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
pub(crate) fn encode_struct(
    j: &J<'_>,
    out: &mut Vec<u8>,
    max_depth: usize,
    sink: &mut LossSink<'_>,
    path: &dyn Fn() -> String,
) -> Result<(), ProtoError> {
    encode_any(j, true, out, max_depth, sink, path)
}
