//! Protobuf wire primitives: varints, tags, a borrowing field reader and the few writers the
//! encoder needs.
//!
//! Written here rather than taken from `prost`: prost's decoding helpers read from a `Buf` and
//! copy strings and bytes into owned `String`/`Vec` values, which is the one cost this module
//! exists to avoid; what is left (a varint reader and writer, tag splitting) is a few dozen
//! lines. Every read is bounds-checked; nothing here panics on any input.

use super::ProtoError;

/// The wire types of protobuf (`VARINT`, `I64`, `LEN`, `SGROUP`, `EGROUP`, `I32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireType {
    /// 0: a base-128 varint.
    Varint,
    /// 1: eight little-endian bytes.
    Fixed64,
    /// 2: a varint length and that many bytes.
    Len,
    /// 3: start of a group (deprecated; skipped with its contents).
    StartGroup,
    /// 4: end of a group.
    EndGroup,
    /// 5: four little-endian bytes.
    Fixed32,
}

impl WireType {
    fn from_bits(bits: u64) -> Option<WireType> {
        Some(match bits {
            0 => WireType::Varint,
            1 => WireType::Fixed64,
            2 => WireType::Len,
            3 => WireType::StartGroup,
            4 => WireType::EndGroup,
            5 => WireType::Fixed32,
            _ => return None,
        })
    }
}

/// Malformed bytes met by [`Fields`]: what, and the byte offset. Small (two words), so that
/// each step of the field iterator returns little; it becomes a [`ProtoError`] with `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WireError {
    what: &'static str,
    at: usize,
}

impl From<WireError> for ProtoError {
    fn from(e: WireError) -> Self {
        ProtoError::malformed(e.what, e.at)
    }
}

/// The payload of one field as it sits on the wire, borrowed from the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawValue<'a> {
    /// A varint (`int32`, `int64`, `bool`, enums).
    Varint(u64),
    /// A fixed 64-bit value (`double`).
    Fixed64(u64),
    /// A length-delimited payload (strings, bytes, nested messages).
    Len(&'a [u8]),
    /// A fixed 32-bit value.
    Fixed32(u32),
    /// A whole group, start to end tag (kept as bytes, never interpreted).
    Group(&'a [u8]),
}

/// One field of a message: its number, its payload and where it starts in the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawField<'a> {
    /// The field number.
    pub number: u32,
    /// The payload.
    pub value: RawValue<'a>,
    /// The whole field (tag included), for writing it back unchanged.
    pub bytes: &'a [u8],
}

/// Reads a varint at `*pos`, advancing it. At most ten bytes; the tenth may hold only one bit.
#[inline]
pub(crate) fn read_varint(buf: &[u8], pos: &mut usize) -> Option<u64> {
    // One byte (tags, short lengths, small numbers): most varints.
    if let Some(&b) = buf.get(*pos)
        && b < 0x80
    {
        *pos += 1;
        return Some(u64::from(b));
    }
    let mut value: u64 = 0;
    for i in 0..10 {
        let byte = *buf.get(*pos)?;
        *pos += 1;
        if i == 9 && byte > 1 {
            return None;
        }
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

/// Iterates over the fields of one message, borrowing every payload.
///
/// Malformed bytes end the iteration with one `Err` carrying the byte offset (relative to the
/// start of the slice plus `base`).
#[derive(Debug, Clone)]
pub(crate) struct Fields<'a> {
    buf: &'a [u8],
    pos: usize,
    base: usize,
    failed: bool,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(buf: &'a [u8], base: usize) -> Self {
        Fields {
            buf,
            pos: 0,
            base,
            failed: false,
        }
    }

    #[cold]
    fn fail(&mut self, at: usize, what: &'static str) -> Option<Result<RawField<'a>, WireError>> {
        self.failed = true;
        Some(Err(WireError {
            what,
            at: self.base + at,
        }))
    }

    /// Skips a group whose start tag (field `number`) was just read; nested groups included.
    fn skip_group(&mut self, number: u32) -> Result<(), &'static str> {
        let mut open = vec![number];
        while let Some(&top) = open.last() {
            let tag = read_varint(self.buf, &mut self.pos).ok_or("truncated tag in group")?;
            let field = u32::try_from(tag >> 3).map_err(|_| "field number too large")?;
            let wt = WireType::from_bits(tag & 7).ok_or("unknown wire type")?;
            match wt {
                WireType::StartGroup => open.push(field),
                WireType::EndGroup => {
                    if field != top {
                        return Err("group end tag does not match its start");
                    }
                    open.pop();
                }
                _ => self.skip_payload(wt)?,
            }
        }
        Ok(())
    }

    fn skip_payload(&mut self, wt: WireType) -> Result<(), &'static str> {
        match wt {
            WireType::Varint => {
                read_varint(self.buf, &mut self.pos).ok_or("truncated varint")?;
            }
            WireType::Fixed64 => self.advance(8)?,
            WireType::Fixed32 => self.advance(4)?,
            WireType::Len => {
                let len = read_varint(self.buf, &mut self.pos).ok_or("truncated length")?;
                let len = usize::try_from(len).map_err(|_| "length too large")?;
                self.advance(len)?;
            }
            WireType::StartGroup | WireType::EndGroup => return Err("unexpected group tag"),
        }
        Ok(())
    }

    fn advance(&mut self, n: usize) -> Result<(), &'static str> {
        if self.buf.len() - self.pos < n {
            return Err("field runs past the end of its message");
        }
        self.pos += n;
        Ok(())
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<RawField<'a>, WireError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.buf.len() {
            return None;
        }
        let start = self.pos;
        let Some(tag) = read_varint(self.buf, &mut self.pos) else {
            return self.fail(start, "truncated or overlong tag");
        };
        let number = match u32::try_from(tag >> 3) {
            Ok(n) if n != 0 && n < (1 << 29) => n,
            _ => return self.fail(start, "field number 0 or beyond 2^29-1"),
        };
        let Some(wt) = WireType::from_bits(tag & 7) else {
            return self.fail(start, "unknown wire type (6 or 7)");
        };
        let value_start = self.pos;
        let value = match wt {
            WireType::Varint => match read_varint(self.buf, &mut self.pos) {
                Some(v) => RawValue::Varint(v),
                None => return self.fail(value_start, "truncated or overlong varint"),
            },
            WireType::Fixed64 => match self.buf.get(self.pos..self.pos + 8) {
                Some(b) => {
                    self.pos += 8;
                    let mut a = [0u8; 8];
                    a.copy_from_slice(b);
                    RawValue::Fixed64(u64::from_le_bytes(a))
                }
                None => return self.fail(value_start, "truncated 64-bit field"),
            },
            WireType::Fixed32 => match self.buf.get(self.pos..self.pos + 4) {
                Some(b) => {
                    self.pos += 4;
                    let mut a = [0u8; 4];
                    a.copy_from_slice(b);
                    RawValue::Fixed32(u32::from_le_bytes(a))
                }
                None => return self.fail(value_start, "truncated 32-bit field"),
            },
            WireType::Len => {
                let Some(len) = read_varint(self.buf, &mut self.pos) else {
                    return self.fail(value_start, "truncated length");
                };
                let from = self.pos;
                match usize::try_from(len)
                    .ok()
                    .and_then(|l| from.checked_add(l))
                    .and_then(|end| self.buf.get(from..end))
                {
                    Some(b) => {
                        self.pos += b.len();
                        RawValue::Len(b)
                    }
                    None => {
                        return self.fail(value_start, "length runs past the end of its message");
                    }
                }
            }
            WireType::StartGroup => {
                if let Err(what) = self.skip_group(number) {
                    return self.fail(self.pos.min(self.buf.len()), what);
                }
                RawValue::Group(&self.buf[value_start..self.pos])
            }
            WireType::EndGroup => return self.fail(start, "group end without a start"),
        };
        Some(Ok(RawField {
            number,
            value,
            bytes: &self.buf[start..self.pos],
        }))
    }
}

/// Appends a varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The number of bytes `put_varint` writes for `v`.
pub(crate) fn varint_len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros()).div_ceil(7) as usize
}

/// Appends a tag.
pub(crate) fn put_tag(out: &mut Vec<u8>, number: u32, wt: WireType) {
    let bits = match wt {
        WireType::Varint => 0,
        WireType::Fixed64 => 1,
        WireType::Len => 2,
        WireType::StartGroup => 3,
        WireType::EndGroup => 4,
        WireType::Fixed32 => 5,
    };
    put_varint(out, (u64::from(number) << 3) | bits);
}

/// Appends a length-delimited field with the given payload.
pub(crate) fn put_bytes(out: &mut Vec<u8>, number: u32, payload: &[u8]) {
    put_tag(out, number, WireType::Len);
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

/// Starts a nested message: writes its tag and reserves one byte for its length. Returns the
/// mark to hand to [`end_message`].
pub(crate) fn begin_message(out: &mut Vec<u8>, number: u32) -> usize {
    put_tag(out, number, WireType::Len);
    out.push(0);
    out.len()
}

/// Ends a nested message started at `mark`: writes its length, moving the payload when the
/// length needs more than the reserved byte (a payload of 128 bytes or more).
pub(crate) fn end_message(out: &mut Vec<u8>, mark: usize) {
    let len = out.len() - mark;
    let need = varint_len(len as u64);
    if need == 1 {
        out[mark - 1] = len as u8;
        return;
    }
    let extra = need - 1;
    out.resize(out.len() + extra, 0);
    out.copy_within(mark..mark + len, mark + extra);
    let mut v = len as u64;
    for b in &mut out[mark - 1..mark - 1 + need] {
        *b = (v as u8 & 0x7f) | if v >= 0x80 { 0x80 } else { 0 };
        v >>= 7;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_reject_overlong() {
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(out.len(), varint_len(v));
            let mut pos = 0;
            assert_eq!(read_varint(&out, &mut pos), Some(v));
            assert_eq!(pos, out.len());
        }
        let mut pos = 0;
        assert_eq!(read_varint(&[0xff; 10], &mut pos), None);
        let mut pos = 0;
        assert_eq!(read_varint(&[0x80, 0x80], &mut pos), None);
    }

    #[test]
    fn nested_lengths_of_every_size() {
        for n in [0usize, 1, 127, 128, 16383, 16384] {
            let mut out = vec![9];
            let mark = begin_message(&mut out, 3);
            out.extend(std::iter::repeat_n(7u8, n));
            end_message(&mut out, mark);
            let f: Vec<_> = Fields::new(&out[1..], 0).collect();
            assert_eq!(f.len(), 1);
            let f = f[0].unwrap();
            assert_eq!(f.number, 3);
            assert_eq!(f.value, RawValue::Len(&vec![7u8; n][..]));
        }
    }

    #[test]
    fn groups_are_skipped_whole_and_checked() {
        // field 1 start group, field 2 varint 5, field 1 end group, field 3 varint 1
        let bytes = [0x0b, 0x10, 0x05, 0x0c, 0x18, 0x01];
        let f: Vec<_> = Fields::new(&bytes, 0).map(|f| f.unwrap()).collect();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].value, RawValue::Group(&bytes[1..4]));
        let bad = [0x0b, 0x14];
        assert!(Fields::new(&bad, 0).any(|f| f.is_err()));
    }
}
