//! The parser: bytes in, borrowed model out, the input never written to.
//!
//! A recursive-descent walk over the protocol's schema, whose depth is fixed by the schema
//! (document → messages → message → content → part → source), plus the scanner's iterative
//! validator for every JSON-valued field, whose depth is bounded by [`ParseOptions::max_depth`].
//! Lists and unknown fields go into the caller's [`Bump`] arena, so once the arena has grown to
//! fit, parsing allocates nothing on the global heap.
//!
//! Discriminators (`role`, `type`) may come anywhere in their object: fields before the
//! discriminator are skipped (validated), remembered by offset, and read again once the
//! discriminator is known. Senders put it first or second, so in practice this rescans a few
//! bytes; fields that every kind reads alike (a message's `id`, `content` met before `role`,
//! as senders that sort their keys write it) are read once, on the way (`tagged.rs`).
//!
//! Rooms: `input.rs` (the `RunAgentInput` schema), `heads.rs` (templates of the hot objects'
//! first fields, compared as bytes), `tagged.rs` (objects with a discriminator), `lists.rs`,
//! `keys.rs` (key lookup), `orders.rs` (wire orders the templates share), `capabilities.rs`,
//! `resume.rs` (passes over a growing buffer), `differential.rs` (fast paths against their
//! general twins, for tests and fuzzing).

mod capabilities;
#[doc(hidden)]
pub mod differential;
mod heads;
mod input;
pub(crate) mod keys;
mod lists;
mod orders;
pub(crate) mod resume;
mod tagged;

use bumpalo::Bump;

use crate::error::{Error, ErrorKind, RawError, RawResult};
use crate::model::{EXTRA_BASE, Extra, ExtraParts, Field, JsonKind, List, RawJson, Str};
use crate::scanner::{Cursor, StrToken};
use resume::Frames;

/// Limits and leniency switches for parsing.
///
/// The defaults are strict where the protocol is (no `null` for optional fields, as the
/// TypeScript SDK) and generous in size. Lower the limits in front of untrusted clients: every
/// limit is checked as the parser goes, so a hostile payload is rejected at the point where it
/// crosses the limit, without having been buffered or built.
///
/// ```
/// use agui_wire::{ParseOptions, RunAgentInput, Bump};
/// let opts = ParseOptions { max_messages: 2, ..ParseOptions::default() };
/// let arena = Bump::new();
/// let body = br#"{"threadId":"t","runId":"r","messages":[
///   {"id":"1","role":"user","content":"a"},{"id":"2","role":"user","content":"b"},
///   {"id":"3","role":"user","content":"c"}]}"#;
/// let err = RunAgentInput::parse_with(body, &arena, &opts).unwrap_err();
/// assert_eq!(err.to_string(), "more than 2 entries in `messages` at messages[2] (byte 124)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    /// Largest input accepted, in bytes (checked before anything is read).
    pub max_input_bytes: usize,
    /// Deepest nesting of objects and arrays, counting the document's own levels.
    pub max_depth: usize,
    /// Most messages in `messages`.
    pub max_messages: usize,
    /// Most entries in any other list (tools, context, content parts, tool calls, ...), and
    /// most unknown fields in one object.
    pub max_list_items: usize,
    /// Read `null` in an optional field (`"metadata": null`, `"parentRunId": null`, ...) as if
    /// the field were absent, as the Python SDK does. Off by default: the protocol says an
    /// optional field is absent or has a value, never `null`, and the TypeScript SDK rejects it.
    pub null_as_absent: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_input_bytes: isize::MAX as usize,
            max_depth: 512,
            max_messages: 1 << 24,
            max_list_items: 1 << 24,
            null_as_absent: false,
        }
    }
}

impl ParseOptions {
    /// The defaults with [`ParseOptions::null_as_absent`] on, for proxies in front of clients
    /// built on the Python SDK.
    ///
    /// ```
    /// use agui_wire::{ParseOptions, RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let body = br#"{"threadId":"t","runId":"r","messages":[
    ///   {"id":"1","role":"user","content":"hi","metadata":null}]}"#;
    /// assert!(RunAgentInput::parse(body, &arena).is_err());
    /// let input = RunAgentInput::parse_with(body, &arena, &ParseOptions::lenient()).unwrap();
    /// assert!(input.messages[0].metadata().is_none());
    /// ```
    pub fn lenient() -> ParseOptions {
        ParseOptions {
            null_as_absent: true,
            ..ParseOptions::default()
        }
    }
}

/// Validates that `input` is one well-formed JSON value (RFC 8259: grammar, UTF-8, escapes,
/// numbers), within `options.max_depth`, and returns its kind. Nothing is built.
///
/// ```
/// use agui_wire::{validate_json, JsonKind, ParseOptions};
/// assert_eq!(validate_json(b" {\"a\":[1,2.5e3,null]} ", &ParseOptions::default()).unwrap(), JsonKind::Object);
/// let err = validate_json(b"{\"a\":[1,}", &ParseOptions::default()).unwrap_err();
/// assert_eq!((err.offset(), err.path()), (8, "a"));
/// ```
pub fn validate_json(input: &[u8], options: &ParseOptions) -> Result<JsonKind, Error> {
    if input.len() > options.max_input_bytes {
        return Err(Error::new(
            ErrorKind::InputTooLarge {
                len: input.len(),
                limit: options.max_input_bytes,
            },
            0,
            "",
        ));
    }
    crate::scanner::validate_document(input, options.max_depth).map_err(|e| e.locate(input))
}

/// The byte offset of `part` inside `input`, when `part` is a slice of it (as every borrowed
/// string and raw value of a parsed document is).
///
/// ```
/// use agui_wire::{offset_in, RunAgentInput, Bump};
/// let arena = Bump::new();
/// let body = br#"{"threadId":"t-1","runId":"r","messages":[]}"#;
/// let input = RunAgentInput::parse(body, &arena).unwrap();
/// assert_eq!(offset_in(body, input.thread_id.raw().as_bytes()), Some(13));
/// ```
pub fn offset_in(input: &[u8], part: &[u8]) -> Option<usize> {
    let start = input.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= start && p + part.len() <= start + input.len()).then(|| p - start)
}

/// The room for the next item of a list, in the list's own buffer: a list item is built
/// there in place, not returned through `Result`s and copied into the list.
pub(crate) struct Slot<'s, T>(&'s mut std::mem::MaybeUninit<T>);

/// Proof that a [`Slot`] was filled: only [`Slot::put`] makes one, and the lifetime ties it
/// to that slot (invariant, so the proof of another slot does not fit).
pub(crate) struct Filled<'s>(std::marker::PhantomData<fn(&'s ()) -> &'s ()>);

impl<'s, T> Slot<'s, T> {
    /// Writes the item.
    #[inline(always)]
    pub(crate) fn put(self, v: T) -> Filled<'s> {
        self.0.write(v);
        Filled(std::marker::PhantomData)
    }
}

/// The parser's state over one document.
pub(crate) struct Parser<'a, 'o> {
    pub(crate) cur: Cursor<'a>,
    pub(crate) arena: &'a Bump,
    pub(crate) opts: &'o ParseOptions,
    /// Open containers around the current position.
    pub(crate) depth: usize,
    /// Saved levels when parsing a growing buffer ([`resume`]); `None` for one-shot parsing.
    pub(crate) frames: Option<&'o mut Frames<'a>>,
}

/// Book-keeping for one object being read.
pub(crate) struct Obj<'a> {
    /// Offset of the `{`.
    pub(crate) start: usize,
    seen: u64,
    /// The wire order, written out only once the object stops being canonical (known fields
    /// in ascending id order, then the unknown ones): until then `seen` and the number of
    /// unknown fields say it all, and nothing is recorded per field.
    order: Option<bumpalo::collections::Vec<'a, u32>>,
    /// The wire order of the fields a template read in an order that is not canonical (a
    /// message's sorted keys: `content`, `id`, `role`), shared, not written out: while no
    /// other field follows, the object's record is this one (no allocation); any later field
    /// writes the order out from it ([`Parser::write_order`]).
    fixed: Option<&'static ExtraParts<'static>>,
    last_known: Option<u32>,
    extras: Option<bumpalo::collections::Vec<'a, Field<'a>>>,
    first: bool,
}

impl Obj<'_> {
    /// A placeholder for an object not opened yet (its reader writes the open object over it).
    pub(crate) const EMPTY: Obj<'static> = Obj {
        start: 0,
        seen: 0,
        order: None,
        fixed: None,
        last_known: None,
        extras: None,
        first: true,
    };

    /// Books the known fields a template read right after the `{` (the object fresh): `seen`
    /// their bits, `last` the highest of their ids, all below 64, read in ascending order. As
    /// [`Parser::known_at`] books such fields one by one: no duplicate is possible, and
    /// ascending ids are the canonical order, so no wire order is written.
    #[inline(always)]
    pub(crate) fn book_head(&mut self, seen: u64, last: u32) {
        debug_assert!(self.first && self.seen == 0 && self.last_known.is_none());
        debug_assert!(self.order.is_none() && self.extras.is_none());
        debug_assert!(last < 64 && seen >> last == 1);
        self.seen = seen;
        self.last_known = Some(last);
        self.first = false;
    }

    /// Books the known fields of `seen` that a template read right after the `{` (the object
    /// fresh) in the wire order of `order`'s record, which is not the canonical one (every
    /// id below 64, none twice). A later known field then writes the order out, as one read
    /// out of order does.
    #[inline(always)]
    pub(crate) fn book_head_in_order(&mut self, seen: u64, order: &'static ExtraParts<'static>) {
        debug_assert!(self.first && self.seen == 0 && self.last_known.is_none());
        debug_assert!(self.order.is_none() && self.extras.is_none());
        debug_assert!(order.order_ids().len() == seen.count_ones() as usize);
        self.seen = seen;
        self.fixed = Some(order);
        // Above every id: the next known field is "out of order" and writes the order out.
        self.last_known = Some(u32::MAX);
        self.first = false;
    }

    /// Marks the object's first key as read (by a template that hands its field to the key
    /// loop): the loop then expects `,` or `}`.
    #[inline(always)]
    pub(crate) fn past_first(&mut self) {
        self.first = false;
    }
}

/// A value kind from its first byte, for type errors.
fn kind_name(b: Option<u8>) -> &'static str {
    match b {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(b'-' | b'0'..=b'9') => "a number",
        _ => "an invalid value",
    }
}

impl<'a, 'o> Parser<'a, 'o> {
    pub(crate) fn new(input: &'a [u8], arena: &'a Bump, opts: &'o ParseOptions) -> Self {
        Parser {
            cur: Cursor::new(input),
            arena,
            opts,
            depth: 0,
            frames: None,
        }
    }

    /// Runs `f` on a whole document: size limit, BOM, the top-level object, trailing bytes.
    pub(crate) fn document<T>(
        input: &'a [u8],
        arena: &'a Bump,
        opts: &'o ParseOptions,
        what: &'static str,
        f: impl FnOnce(&mut Self) -> RawResult<T>,
    ) -> Result<T, Error> {
        if input.len() > opts.max_input_bytes {
            return Err(Error::new(
                ErrorKind::InputTooLarge {
                    len: input.len(),
                    limit: opts.max_input_bytes,
                },
                0,
                "",
            ));
        }
        let mut p = Parser::new(input, arena, opts);
        let run = |p: &mut Self| -> RawResult<T> {
            if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
                return Err(p.cur.err(ErrorKind::ByteOrderMark));
            }
            p.cur.skip_ws();
            p.expect_kind(b'{', what, "an object")?;
            let v = f(p)?;
            p.cur.skip_ws();
            if p.cur.pos != input.len() {
                return Err(p.cur.err(ErrorKind::TrailingCharacters));
            }
            Ok(v)
        };
        run(&mut p).map_err(|e| e.locate(input))
    }

    #[cold]
    pub(crate) fn wrong_type(&self, field: &'static str, expected: &'static str) -> RawError {
        match self.cur.peek() {
            None => self.cur.err(ErrorKind::UnexpectedEof),
            Some(b) if kind_name(Some(b)) == "an invalid value" => {
                self.cur.unexpected("a JSON value")
            }
            b => self.bad_scalar().unwrap_or_else(|| {
                self.cur.err(ErrorKind::WrongType {
                    field,
                    expected,
                    found: kind_name(b),
                })
            }),
        }
    }

    /// The grammar error of the number or literal at the cursor, if it is not valid JSON
    /// (`nope`, `-x`): such bytes are reported as bad JSON, not as a value of the wrong type.
    /// The check reads a copy of the cursor, so it moves nothing; a scalar cut by the end of a
    /// growing buffer gives the end of input, as the one-shot parse sees once the rest arrives.
    #[cold]
    fn bad_scalar(&self) -> Option<RawError> {
        let mut probe = Cursor::new(self.cur.bytes);
        probe.pos = self.cur.pos;
        let verdict = match probe.peek()? {
            b'-' | b'0'..=b'9' => probe.number().err(),
            b't' | b'f' | b'n' => probe.literal().err(),
            _ => None,
        };
        // A scalar that runs to the end of a buffer still growing may go on (`0` then `0`:
        // `00` is bad JSON, not a number of the wrong type): no verdict until it ends.
        if verdict.is_none() && probe.pos == self.cur.bytes.len() && self.cur.partial() {
            return Some(probe.err(ErrorKind::UnexpectedEof));
        }
        verdict
    }

    /// Checks that the next value starts with `open` (after whitespace).
    pub(crate) fn expect_kind(
        &mut self,
        open: u8,
        field: &'static str,
        expected: &'static str,
    ) -> RawResult<()> {
        self.cur.skip_ws();
        if self.cur.peek() == Some(open) {
            Ok(())
        } else {
            Err(self.wrong_type(field, expected))
        }
    }

    fn enter(&mut self) -> RawResult<()> {
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(self
                .cur
                .err(ErrorKind::DepthLimitExceeded(self.opts.max_depth)));
        }
        Ok(())
    }

    /// Opens an object (the current byte must be `{`).
    pub(crate) fn open(&mut self) -> RawResult<Obj<'a>> {
        let start = self.cur.pos;
        self.enter()?;
        self.cur.pos += 1;
        Ok(Obj {
            start,
            seen: 0,
            order: None,
            fixed: None,
            last_known: None,
            extras: None,
            first: true,
        })
    }

    /// Moves to the next key of `obj`: returns it with the cursor at its value, or `None`
    /// after the closing brace. Small (a short key is read in one look, [`Cursor::short_key`]),
    /// so inlined into every key loop; the hot loops take [`Parser::next_key_into`].
    #[inline(always)]
    pub(crate) fn next_key(&mut self, obj: &mut Obj<'a>) -> RawResult<Option<StrToken<'a>>> {
        let mut key = StrToken::EMPTY;
        Ok(self.next_key_into(obj, &mut key)?.then_some(key))
    }

    /// [`Parser::next_key`] writing the key into `key`: `Ok(true)` with the cursor at its
    /// value, `Ok(false)` after the closing brace. The key is not moved out through `Result`
    /// and `Option` layers, whose copies cost the message, tool call and function loops about
    /// 1% of a chat parse.
    #[inline(always)]
    pub(crate) fn next_key_into(
        &mut self,
        obj: &mut Obj<'a>,
        key: &mut StrToken<'a>,
    ) -> RawResult<bool> {
        self.cur.skip_ws();
        match self.cur.peek() {
            Some(b'}') => {
                self.cur.pos += 1;
                self.depth -= 1;
                return Ok(false);
            }
            Some(b',') if !obj.first => {
                self.cur.pos += 1;
                self.cur.skip_ws();
            }
            _ if obj.first => {}
            _ => return Err(self.cur.unexpected("',' or '}'")),
        }
        obj.first = false;
        if self.cur.peek() != Some(b'"') {
            return Err(self.cur.unexpected("a string key"));
        }
        *key = match self.cur.short_key() {
            Some(k) => k,
            None => self.cur.string_out_of_line()?,
        };
        self.cur.expect(b':', "':'")?;
        self.cur.skip_ws();
        Ok(true)
    }

    /// Whether `key` spells `name` (escapes in keys are legal, if rare).
    pub(crate) fn key_is(key: &StrToken<'_>, name: &str) -> bool {
        if key.escaped {
            Str::from_validated(key.raw, true).eq_text(name)
        } else {
            key.raw == name
        }
    }

    /// Looks `key` up in `fields`; for a known field, checks it is not a duplicate and
    /// records its place in the wire order.
    pub(crate) fn known(
        &self,
        obj: &mut Obj<'a>,
        fields: &'static [&'static str],
        key: &StrToken<'a>,
    ) -> RawResult<Option<usize>> {
        let id = if key.escaped {
            fields.iter().position(|f| Self::key_is(key, f))
        } else {
            let k = key.raw.as_bytes();
            fields.iter().position(|f| same_key(f.as_bytes(), k))
        };
        if let Some(id) = id {
            self.known_at(obj, fields, id, key)?;
        }
        Ok(id)
    }

    /// [`Parser::known`] for a key already found: field `id` of `fields`.
    #[inline]
    pub(crate) fn known_at(
        &self,
        obj: &mut Obj<'a>,
        fields: &'static [&'static str],
        id: usize,
        key: &StrToken<'a>,
    ) -> RawResult<()> {
        let bit = 1u64 << (id as u32 & 63);
        if obj.seen & bit != 0 {
            let name = fields.get(id).copied().unwrap_or("");
            return Err(RawError::new(ErrorKind::DuplicateField(name), key.start));
        }
        obj.seen |= bit;
        let id32 = id as u32;
        if obj.order.is_none()
            && (obj.extras.is_some() || obj.last_known.is_some_and(|l| l > id32) || id >= 64)
            && self.write_order(obj, bit, id32)
        {
            return Ok(());
        }
        obj.last_known = Some(id32);
        if let Some(order) = &mut obj.order {
            order.push(id32);
        }
        Ok(())
    }

    /// Keeps an unknown field: validates its value and records it.
    pub(crate) fn unknown(&mut self, obj: &mut Obj<'a>, key: StrToken<'a>) -> RawResult<()> {
        let value = self.raw()?;
        let extras = obj
            .extras
            .get_or_insert_with(|| bumpalo::collections::Vec::new_in(self.arena));
        // The second bound (four billion fields, 16 GB of input at least) keeps the order ids
        // in `u32`; `max_list_items` is the limit that matters.
        let limit = self
            .opts
            .max_list_items
            .min((u32::MAX - EXTRA_BASE) as usize);
        if extras.len() >= limit {
            return Err(RawError::new(
                ErrorKind::TooManyItems {
                    what: "unknown fields",
                    limit,
                },
                key.start,
            ));
        }
        let i = EXTRA_BASE + extras.len() as u32;
        if let Some(order) = &mut obj.order {
            order.push(i);
        }
        extras.push(Field {
            key: Str::from_validated(key.raw, key.escaped),
            value,
        });
        Ok(())
    }

    /// The object's unknown fields and, if not canonical, its wire order.
    #[inline]
    pub(crate) fn finish(&self, obj: Obj<'a>) -> Extra<'a> {
        if obj.extras.is_none() && obj.order.is_none() {
            return match obj.fixed {
                None => Extra::default(),
                // A template's order and nothing after it: the shared record.
                Some(parts) => Extra::shared(parts),
            };
        }
        self.finish_recorded(obj)
    }

    /// [`Parser::finish`] for an object with unknown fields or a written-out order.
    #[inline(never)]
    fn finish_recorded(&self, mut obj: Obj<'a>) -> Extra<'a> {
        if obj.order.is_none() && obj.fixed.is_some() {
            // A template's order, then unknown fields.
            obj.order = Some(self.order_so_far(&obj, 0));
        }
        let fields = match obj.extras {
            Some(v) => List::borrowed(v.into_bump_slice()),
            None => List::new(),
        };
        let order = match obj.order {
            None => List::new(),
            Some(v) => List::borrowed(v.into_bump_slice()),
        };
        Extra::in_arena(fields, order, self.arena)
    }

    /// Writes out the order of what `obj` has read so far, as it stops being canonical (or
    /// as a field follows a template's fixed order): its known fields but the one of bit
    /// `now`, ascending (or in the template's order), then its unknown fields. Returns `true`
    /// when field `id` (bit `now`) went into another shared order instead (a template's
    /// order, then a field senders that sort their keys put next, [`orders::then`]): nothing
    /// is written and the field is booked.
    #[cold]
    fn write_order(&self, obj: &mut Obj<'a>, now: u64, id: u32) -> bool {
        if obj.extras.is_none()
            && let Some(next) = obj.fixed.and_then(|parts| orders::then(parts, id))
        {
            obj.fixed = Some(next);
            return true;
        }
        obj.order = Some(self.order_so_far(obj, now));
        false
    }

    /// The order of what `obj` has read so far: its known fields but the one of bit `now`,
    /// ascending (or a template's fixed order), then its unknown fields.
    fn order_so_far(&self, obj: &Obj<'a>, now: u64) -> bumpalo::collections::Vec<'a, u32> {
        let extras = obj.extras.as_ref().map_or(0, |e| e.len());
        let mut order = bumpalo::collections::Vec::with_capacity_in(
            (obj.seen.count_ones() as usize + extras + 4).min(1 << 16),
            self.arena,
        );
        if let Some(parts) = obj.fixed {
            order.extend_from_slice(parts.order_ids());
        } else {
            let mut seen = obj.seen & !now;
            while seen != 0 {
                order.push(seen.trailing_zeros());
                seen &= seen - 1;
            }
        }
        order.extend((0..extras as u32).map(|i| EXTRA_BASE + i));
        order
    }

    /// The cheap error for a missing required field of `obj`.
    #[cold]
    pub(crate) fn missing(obj_start: usize, field: &'static str) -> RawError {
        RawError::new(ErrorKind::MissingField(field), obj_start)
    }

    /// Reads any JSON value as raw text.
    pub(crate) fn raw(&mut self) -> RawResult<RawJson<'a>> {
        self.cur.skip_ws();
        let start = self.cur.pos;
        let ws = self.cur.ws;
        let kind = self.cur.skip_value(self.depth, self.opts.max_depth)?;
        let text = self.cur.text(start, self.cur.pos);
        Ok(RawJson::from_validated(text, kind, self.cur.ws == ws))
    }

    /// `null` where an optional field may be absent but not null: `Ok(true)` when it should be
    /// read as absent (lenient), an error when strict, `Ok(false)` when the value is not null.
    pub(crate) fn null_as_absent(&mut self, field: &'static str) -> RawResult<bool> {
        if self.cur.peek() != Some(b'n') {
            return Ok(false);
        }
        if self.opts.null_as_absent {
            self.cur.literal()?;
            Ok(true)
        } else {
            self.cur.literal()?;
            Err(RawError::new(
                ErrorKind::NullNotAllowed(field),
                self.cur.pos - 4,
            ))
        }
    }

    /// A required string.
    pub(crate) fn string(&mut self, field: &'static str) -> RawResult<Str<'a>> {
        if self.cur.peek() != Some(b'"') {
            return Err(self.wrong_type(field, "a string"));
        }
        let t = self.cur.text_string()?;
        Ok(Str::from_validated(t.raw, t.escaped))
    }

    /// An optional string (present, so not absent; `null` per the options).
    pub(crate) fn opt_string(&mut self, field: &'static str) -> RawResult<Option<Str<'a>>> {
        if self.null_as_absent(field)? {
            return Ok(None);
        }
        self.string(field).map(Some)
    }

    /// An optional boolean.
    pub(crate) fn opt_bool(&mut self, field: &'static str) -> RawResult<Option<bool>> {
        if self.null_as_absent(field)? {
            return Ok(None);
        }
        match self.cur.peek() {
            Some(b't') => self.cur.literal().map(|_| Some(true)),
            Some(b'f') => self.cur.literal().map(|_| Some(false)),
            _ => Err(self.wrong_type(field, "a boolean")),
        }
    }

    /// An optional non-negative integer, at most [`MAX_SAFE_INTEGER`].
    ///
    /// Any JSON spelling of an integral value is read (`10`, `-0`, `10.0`, `1e1`), as both
    /// SDKs read them; a fraction, a negative value or one past 2^53 - 1 is rejected, as both
    /// SDKs reject them. The value is worked out exactly from the text, not through a double.
    pub(crate) fn opt_u64(&mut self, field: &'static str) -> RawResult<Option<u64>> {
        if self.null_as_absent(field)? {
            return Ok(None);
        }
        if !matches!(self.cur.peek(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.wrong_type(field, "a non-negative integer"));
        }
        let start = self.cur.pos;
        self.cur.number()?;
        let text = self.cur.text(start, self.cur.pos);
        integral_value(text.as_bytes())
            .filter(|&v| v <= MAX_SAFE_INTEGER)
            .map(Some)
            .ok_or_else(|| {
                RawError::new(
                    ErrorKind::InvalidValue {
                        field,
                        reason: "must be a non-negative integer no larger than 2^53 - 1",
                    },
                    start,
                )
            })
    }

    /// An optional "any" JSON field (`null` per the options).
    pub(crate) fn opt_any(&mut self, field: &'static str) -> RawResult<Option<RawJson<'a>>> {
        if self.null_as_absent(field)? {
            return Ok(None);
        }
        self.raw().map(Some)
    }

    /// `metadata`: absent or an object, never `null` (unless lenient). With `any_kind`, any
    /// non-null JSON is accepted (content-part metadata).
    pub(crate) fn metadata(&mut self, any_kind: bool) -> RawResult<Option<RawJson<'a>>> {
        if self.null_as_absent("metadata")? {
            return Ok(None);
        }
        if !any_kind && self.cur.peek() != Some(b'{') {
            return Err(self.wrong_type("metadata", "an object"));
        }
        self.raw().map(Some)
    }

    /// A required object kept raw (activity `content`).
    pub(crate) fn raw_object(&mut self, field: &'static str) -> RawResult<RawJson<'a>> {
        if self.cur.peek() != Some(b'{') {
            return Err(self.wrong_type(field, "an object"));
        }
        self.raw()
    }
}

/// `a == b` for a field name and a key, with word loads instead of a `memcmp` call for the
/// lengths of nearly every field name (4 to 16 bytes: two overlapping loads).
#[inline(always)]
fn same_key(a: &[u8], b: &[u8]) -> bool {
    #[inline(always)]
    fn word4(s: &[u8], at: usize) -> u32 {
        s.get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map_or(0, u32::from_ne_bytes)
    }
    #[inline(always)]
    fn word8(s: &[u8], at: usize) -> u64 {
        s.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_ne_bytes)
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        4..=8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        9..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The largest value of the protocol's integer fields: JavaScript's `Number.MAX_SAFE_INTEGER`
/// (2^53 - 1), the bound both SDKs check (zod's `int()`, pydantic's `le=`).
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The value of a validated JSON number when it is a non-negative integer that fits in a `u64`
/// (`-0`, `1.0`, `1e2` and `0.5e1` are integers), exactly, from its digits: `None` for a
/// fraction, a negative value or a value too large.
pub(crate) fn integral_value(text: &[u8]) -> Option<u64> {
    let (neg, t) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let digits_end = |s: &[u8]| {
        s.iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(s.len())
    };
    let (int_part, rest) = t.split_at(digits_end(t));
    let (frac_part, rest) = match rest.split_first() {
        Some((b'.', r)) => r.split_at(digits_end(r)),
        _ => (&[][..], rest),
    };
    let exp: i64 = match rest.split_first() {
        Some((b'e' | b'E', r)) => {
            let (eneg, r) = match r.split_first() {
                Some((b'-', r)) => (true, r),
                Some((b'+', r)) => (false, r),
                _ => (false, r),
            };
            // Saturate: any exponent past a million decides the answer just as well.
            let e = r
                .iter()
                .fold(0i64, |e, &c| (e * 10 + i64::from(c - b'0')).min(1 << 20));
            if eneg { -e } else { e }
        }
        _ => 0,
    };
    // The value is digits × 10^(exp − frac_len), digits = int_part ++ frac_part.
    let n = int_part.len() + frac_part.len();
    let digit = |i: usize| {
        if i < int_part.len() {
            int_part[i]
        } else {
            frac_part[i - int_part.len()]
        }
    };
    let Some(first) = (0..n).find(|&i| digit(i) != b'0') else {
        return Some(0); // zero, `-0` included
    };
    if neg {
        return None;
    }
    let last = (0..n).rev().find(|&i| digit(i) != b'0').unwrap_or(first);
    let scale = exp - frac_part.len() as i64 + (n - 1 - last) as i64;
    if scale < 0 || last - first + 1 > 20 || scale > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for i in first..=last {
        v = v.checked_mul(10)?.checked_add(u64::from(digit(i) - b'0'))?;
    }
    v.checked_mul(10u64.checked_pow(scale as u32)?)
}

/// Sets a field slot (each known field is marked seen by [`Parser::known`], so a second
/// occurrence never gets here).
#[inline]
pub(crate) fn set<T>(slot: &mut Option<T>, v: T) {
    *slot = Some(v);
}

#[cfg(test)]
mod tests;
