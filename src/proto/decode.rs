//! The borrowed event view and its JSON writer.

use bumpalo::Bump;

use super::schema::{self, BASE_EVENT, Desc, FieldDesc, Kind};
use super::value::{self, StructView, ValueView, utf8, write_json_str};
use super::wire::{Fields, RawField, RawValue};
use super::{DecodeOptions, ProtoError, ProtoErrorKind};
use crate::{Event, EventType};

/// One decoded protobuf event, borrowing the frame.
///
/// Decoding checks the envelope (exactly one event arm, a base event whose type agrees with
/// it); the rest is read when asked: the typed accessors read their field, and
/// [`ProtoEvent::write_json`] walks and checks everything.
///
/// ```
/// use agui_wire::proto::{encode_json, EncodeOptions, ProtoEvent};
/// use agui_wire::EventType;
/// let mut frame = Vec::new();
/// encode_json(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#,
///     &mut frame, &EncodeOptions::default())?;
/// let ev = ProtoEvent::decode(&frame[4..])?; // after the 4-byte length
/// assert_eq!(ev.event_type(), EventType::TextMessageContent);
/// assert_eq!(ev.str("delta")?, Some("Hi")); // a slice of `frame`
/// assert_eq!(ev.to_json(&Default::default())?,
///     r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProtoEvent<'a> {
    bytes: &'a [u8],
    event_type: EventType,
    desc: &'static Desc,
    body: &'a [u8],
    body_at: usize,
    base: &'a [u8],
    base_at: usize,
}

fn off(outer: &[u8], inner: &[u8]) -> usize {
    (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize)
}

impl<'a> ProtoEvent<'a> {
    /// Decodes the envelope of one `Event` message (a frame without its 4-byte length).
    pub fn decode(bytes: &'a [u8]) -> Result<Self, ProtoError> {
        let mut arm: Option<(u32, &'a [u8])> = None;
        let mut other_len = false;
        for f in Fields::new(bytes, 0) {
            let f = f?;
            match (f.number, f.value) {
                (1..=31, RawValue::Len(b)) => {
                    if arm.is_some() {
                        let what = if arm.map(|a| a.0) == Some(f.number) {
                            "the event arm appears twice (protobuf would merge them; not supported)"
                        } else {
                            "the frame holds two different events"
                        };
                        return Err(ProtoError::invalid(what, off(bytes, f.bytes)));
                    }
                    arm = Some((f.number, b));
                }
                (1..=31, _) => {
                    return Err(ProtoError::invalid(
                        "an event arm with a wire type other than length-delimited",
                        off(bytes, f.bytes),
                    ));
                }
                (_, RawValue::Len(_)) => other_len = true,
                _ => {}
            }
        }
        let Some((num, body)) = arm else {
            return Err(if other_len {
                ProtoError::new(ProtoErrorKind::UnknownEventType, 0)
            } else {
                ProtoError::invalid("no event in the frame", 0)
            });
        };
        let (_, event_type, enum_no, desc) = schema::ENVELOPE[(num - 1) as usize];
        let body_at = off(bytes, body);
        let mut base = None;
        for f in Fields::new(body, body_at) {
            let f = f?;
            if f.number == schema::BASE_FIELD
                && let RawValue::Len(b) = f.value
            {
                if base.is_some() {
                    return Err(ProtoError::invalid(
                        "the base event appears twice (protobuf would merge them; not supported)",
                        off(bytes, f.bytes),
                    ));
                }
                base = Some(b);
            }
        }
        let Some(base) = base else {
            return Err(ProtoError::invalid("the event has no base event", body_at));
        };
        let base_at = off(bytes, base);
        let mut declared = 0u64;
        for f in Fields::new(base, base_at) {
            let f = f?;
            if let (1, RawValue::Varint(v)) = (f.number, f.value) {
                declared = v;
            }
        }
        if declared != u64::from(enum_no) {
            return Err(ProtoError::invalid(
                "the base event's type disagrees with the event it is in",
                base_at,
            ));
        }
        Ok(ProtoEvent {
            bytes,
            event_type,
            desc,
            body,
            body_at,
            base,
            base_at,
        })
    }

    /// The event's type.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"RUN_ERROR","message":"x"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.event_type(), agui_wire::EventType::RunError);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn event_type(&self) -> EventType {
        self.event_type
    }

    /// The whole `Event` message as received (unknown fields included): forwarding it is
    /// writing these bytes back.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let bytes = [0x72, 4, 0x0a, 2, 0x08, 13, 0xb8, 0x3e, 1]; // RUN_ERROR + unknown field 999
    /// assert_eq!(ProtoEvent::decode(&bytes)?.bytes(), &bytes);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Fields no table of the `.proto` files names: of the envelope, the event message and its
    /// base event (nested messages keep theirs inside their bytes).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let bytes = [0x72, 4, 0x0a, 2, 0x08, 13, 0xb8, 0x3e, 1];
    /// let unknown: Vec<_> = ProtoEvent::decode(&bytes)?.unknown_fields().collect();
    /// assert_eq!(unknown.len(), 1);
    /// assert_eq!(unknown[0].number, 999);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn unknown_fields(&self) -> impl Iterator<Item = RawField<'a>> + '_ {
        let env = Fields::new(self.bytes, 0)
            .filter_map(Result::ok)
            .filter(|f| !(1..=31).contains(&f.number));
        let desc = self.desc;
        let body = Fields::new(self.body, self.body_at)
            .filter_map(Result::ok)
            .filter(move |f| {
                f.number != 1 && desc.field(f.number).is_none_or(|d| !wire_fits(d, &f.value))
            });
        let base = Fields::new(self.base, self.base_at)
            .filter_map(Result::ok)
            .filter(|f| {
                schema::BASE_EVENT
                    .field(f.number)
                    .is_none_or(|d| !wire_fits(d, &f.value))
            });
        env.chain(body).chain(base)
    }

    /// `timestamp`, when present.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"RUN_ERROR","message":"x","timestamp":17}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.timestamp()?, Some(17));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn timestamp(&self) -> Result<Option<i64>, ProtoError> {
        Ok(match last(self.base, self.base_at, 2)? {
            Some(RawValue::Varint(v)) => Some(v as i64),
            _ => None,
        })
    }

    /// `rawEvent`, when present.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"RUN_ERROR","message":"x","rawEvent":"up"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.raw_event()?, Some(ValueView::String("up")));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn raw_event(&self) -> Result<Option<ValueView<'a>>, ProtoError> {
        match last(self.base, self.base_at, 3)? {
            Some(RawValue::Len(b)) => {
                ValueView::parse_opt(b, 0).map_err(|e| e.at(off(self.bytes, b)))
            }
            _ => Ok(None),
        }
    }

    /// `metadata`, when present.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"RUN_ERROR","message":"x","metadata":{"k":1}}"#, &mut f, &EncodeOptions::default())?;
    /// let md = ProtoEvent::decode(&f[4..])?.metadata()?.unwrap();
    /// assert_eq!(md.get("k")?, Some(ValueView::Number(1.0)));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn metadata(&self) -> Result<Option<StructView<'a>>, ProtoError> {
        Ok(match last(self.base, self.base_at, 4)? {
            Some(RawValue::Len(b)) => Some(StructView::new(b)),
            _ => None,
        })
    }

    /// A string field of the event by its JSON name (`messageId`, `delta`, `toolCallId`, ...):
    /// a slice of the frame. `None` when absent; `Err` for a name that is not a string field of
    /// this event type, or a string that is not UTF-8. A proto3 field without presence that is
    /// absent reads as `Some("")`, as the official decoder reads it.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\""}"#, &mut f, &EncodeOptions::default())?;
    /// let ev = ProtoEvent::decode(&f[4..])?;
    /// assert_eq!(ev.str("toolCallId")?, Some("c1"));
    /// assert_eq!(ev.str("delta")?, Some(r#"{"a""#));
    /// assert!(ev.str("nope").is_err());
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn str(&self, name: &str) -> Result<Option<&'a str>, ProtoError> {
        let Some(fd) = self
            .desc
            .by_json(name)
            .filter(|f| f.kind == Kind::Str && !f.repeated)
        else {
            return Err(ProtoError::invalid(
                "not a string field of this event type",
                self.body_at,
            ));
        };
        match last(self.body, self.body_at, fd.num)? {
            Some(RawValue::Len(b)) => utf8(b, off(self.bytes, b)).map(Some),
            _ if !fd.optional => Ok(Some("")),
            _ => Ok(None),
        }
    }

    /// A `Value` field of the event by its JSON name (`snapshot`, `value`, `event`,
    /// `result`), or a `Struct` one (`content` of `ACTIVITY_SNAPSHOT`) as
    /// [`ValueView::Struct`].
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"STATE_SNAPSHOT","snapshot":{"n":[1,2]}}"#, &mut f, &EncodeOptions::default())?;
    /// let v = ProtoEvent::decode(&f[4..])?.value("snapshot")?.unwrap();
    /// assert_eq!(v.to_json(64)?, r#"{"n":[1,2]}"#);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn value(&self, name: &str) -> Result<Option<ValueView<'a>>, ProtoError> {
        let Some(fd) = self
            .desc
            .by_json(name)
            .filter(|f| matches!(f.kind, Kind::Value | Kind::Struct) && !f.repeated)
        else {
            return Err(ProtoError::invalid(
                "not a Value field of this event type",
                self.body_at,
            ));
        };
        match last(self.body, self.body_at, fd.num)? {
            Some(RawValue::Len(b)) if fd.kind == Kind::Struct => {
                Ok(Some(ValueView::Struct(StructView::new(b))))
            }
            Some(RawValue::Len(b)) => {
                ValueView::parse_opt(b, 0).map_err(|e| e.at(off(self.bytes, b)))
            }
            _ => Ok(None),
        }
    }

    /// `messageId` (of the events that have one).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"TEXT_MESSAGE_END","messageId":"m9"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.message_id(), Some("m9"));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn message_id(&self) -> Option<&'a str> {
        self.str("messageId").ok().flatten()
    }

    /// `delta` (of the content, args and chunk events).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"d"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.delta(), Some("d"));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn delta(&self) -> Option<&'a str> {
        self.str("delta").ok().flatten()
    }

    /// `toolCallId` (of the tool call events).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.tool_call_id(), Some("c"));
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn tool_call_id(&self) -> Option<&'a str> {
        self.str("toolCallId").ok().flatten()
    }

    /// Appends the event's AG-UI JSON (compact; `type` first, then `timestamp`, `rawEvent`,
    /// `metadata`, then the fields in `.proto` order). The whole event is checked on the way.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"STEP_STARTED","stepName":"plan","timestamp":5}"#, &mut f, &EncodeOptions::default())?;
    /// let mut out = Vec::new();
    /// ProtoEvent::decode(&f[4..])?.write_json(&mut out, &DecodeOptions::default())?;
    /// assert_eq!(out, br#"{"type":"STEP_STARTED","timestamp":5,"stepName":"plan"}"#);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn write_json(&self, out: &mut Vec<u8>, opts: &DecodeOptions) -> Result<(), ProtoError> {
        let start = out.len();
        let r = self.write_json_inner(out, opts);
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    fn write_json_inner(&self, out: &mut Vec<u8>, opts: &DecodeOptions) -> Result<(), ProtoError> {
        let mut w = W {
            out,
            frame: self.bytes,
            max_depth: opts.max_depth,
        };
        w.out.extend_from_slice(b"{\"type\":");
        write_json_str(w.out, self.event_type.as_str());
        let mut first = false;
        let base = Scan::new(&BASE_EVENT, self.base, self.base_at)?;
        w.fields(&BASE_EVENT, &base, &mut first, &[1])?;
        let body = Scan::new(self.desc, self.body, self.body_at)?;
        w.event_fields(self.desc, &body, &mut first)?;
        w.out.push(b'}');
        Ok(())
    }

    /// The event's AG-UI JSON as a `String` (see [`ProtoEvent::write_json`]).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"RUN_ERROR","message":"boom"}"#, &mut f, &EncodeOptions::default())?;
    /// assert_eq!(ProtoEvent::decode(&f[4..])?.to_json(&DecodeOptions::default())?,
    ///     r#"{"type":"RUN_ERROR","message":"boom"}"#);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn to_json(&self, opts: &DecodeOptions) -> Result<String, ProtoError> {
        let mut out = Vec::new();
        self.write_json(&mut out, opts)?;
        String::from_utf8(out).map_err(|_| ProtoError::new(ProtoErrorKind::InvalidUtf8, 0))
    }

    /// The event in the crate's model: its JSON is written into `arena` and parsed there, so
    /// the [`Event`]'s strings and `RawJson` fields borrow the arena. An event the official
    /// decoder accepts but the JSON validator does not (a required field left empty is
    /// fine, but say `interrupts: []`) is an [`ProtoErrorKind::Event`] error.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// # let mut f = Vec::new();
    /// # encode_json(br#"{"type":"CUSTOM","name":"n","value":[1,{"a":null}]}"#, &mut f, &EncodeOptions::default())?;
    /// let arena = agui_wire::Bump::new();
    /// let ev = ProtoEvent::decode(&f[4..])?.to_event(&arena, &DecodeOptions::default())?;
    /// let agui_wire::Event::Custom(c) = ev else { unreachable!() };
    /// assert_eq!(c.value.text(), r#"[1,{"a":null}]"#);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn to_event<'b>(
        &self,
        arena: &'b Bump,
        opts: &DecodeOptions,
    ) -> Result<Event<'b>, ProtoError> {
        let mut out = Vec::new();
        self.write_json(&mut out, opts)?;
        let text: &'b [u8] = arena.alloc_slice_copy(&out);
        Event::parse(text, arena)
            .map_err(|e| ProtoError::new(ProtoErrorKind::Event(e.to_string()), 0))
    }
}

/// The last occurrence of field `num` in a message.
fn last<'a>(bytes: &'a [u8], at: usize, num: u32) -> Result<Option<RawValue<'a>>, ProtoError> {
    let mut found = None;
    for f in Fields::new(bytes, at) {
        let f = f?;
        if f.number == num {
            found = Some(f.value);
        }
    }
    Ok(found)
}

/// One message's known fields, read once: the last occurrence of each singular field and
/// whether each repeated field occurs.
struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
    last: [Option<RawValue<'a>>; 16],
}

/// Whether a field's wire type is the one its schema declares. A field that does not fit is an
/// unknown field, as protobuf readers treat it: not read, and listed by `unknown_fields`.
fn wire_fits(fd: &FieldDesc, v: &RawValue<'_>) -> bool {
    let (kind, repeated) = (fd.kind, fd.repeated);
    match (kind, v) {
        (Kind::I64 | Kind::Bool, RawValue::Varint(_)) => true,
        // The special enums (`type`, `op`); the other special fields are strings or lists.
        (Kind::Special, RawValue::Varint(_)) => !repeated && schema::is_enum(fd),
        (_, RawValue::Len(_)) => !matches!(kind, Kind::I64 | Kind::Bool) || repeated,
        _ => false,
    }
}

impl<'a> Scan<'a> {
    fn new(desc: &'static Desc, bytes: &'a [u8], at: usize) -> Result<Self, ProtoError> {
        let mut last = [None; 16];
        for f in Fields::new(bytes, at) {
            let f = f?;
            let Some(i) = desc.index_of(f.number) else {
                continue;
            };
            let d = &desc.fields[i];
            if !wire_fits(d, &f.value) {
                continue; // wrong wire type: an unknown field, as protobuf readers treat it
            }
            let is_message = matches!(d.kind, Kind::Msg(_) | Kind::Value | Kind::Struct)
                || (d.kind == Kind::Special && matches!(f.value, RawValue::Len(_)));
            if !d.repeated && is_message && last[i].is_some() && d.kind != Kind::Special {
                return Err(ProtoError::invalid(
                    "a singular message field appears twice (protobuf would merge them; not supported)",
                    at + off(bytes, f.bytes),
                ));
            }
            last[i] = Some(f.value);
        }
        Ok(Scan { bytes, at, last })
    }

    fn get(&self, desc: &Desc, num: u32) -> Option<RawValue<'a>> {
        desc.index_of(num).and_then(|i| self.last[i])
    }

    fn has_repeated(&self, desc: &Desc, num: u32) -> bool {
        self.get(desc, num).is_some()
    }

    /// Every occurrence of a repeated length-delimited field, in order.
    fn each(&self, num: u32) -> impl Iterator<Item = Result<&'a [u8], ProtoError>> + 'a {
        Fields::new(self.bytes, self.at).filter_map(move |f| match f {
            Err(e) => Some(Err(e.into())),
            Ok(f) if f.number == num => match f.value {
                RawValue::Len(b) => Some(Ok(b)),
                _ => None,
            },
            Ok(_) => None,
        })
    }
}

struct W<'o, 'f> {
    out: &'o mut Vec<u8>,
    frame: &'f [u8],
    max_depth: usize,
}

impl W<'_, '_> {
    fn at(&self, b: &[u8]) -> usize {
        off(self.frame, b)
    }

    fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.out.push(b',');
        }
        *first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    fn string(&mut self, b: &[u8]) -> Result<(), ProtoError> {
        let s = utf8(b, self.at(b))?;
        write_json_str(self.out, s);
        Ok(())
    }

    /// Writes a `Value` field's JSON; `false` when the value has no kind (the field is left
    /// out, so the caller writes the key only after this says yes).
    fn value_json(&mut self, b: &[u8], first: &mut bool, name: &str) -> Result<(), ProtoError> {
        let at = self.at(b);
        let v = ValueView::parse_opt(b, self.max_depth).map_err(|e| e.at(at))?;
        if let Some(v) = v {
            self.key(first, name);
            value::write_value_view(v, self.out, self.max_depth, self.frame)?;
        }
        Ok(())
    }

    fn struct_json(&mut self, b: &[u8]) -> Result<(), ProtoError> {
        value::write_value_view(
            ValueView::Struct(StructView::new(b)),
            self.out,
            self.max_depth,
            self.frame,
        )
    }

    /// The fields of `desc` in table order, but for the numbers in `skip` and the special
    /// ones (which the caller writes).
    fn fields(
        &mut self,
        desc: &'static Desc,
        scan: &Scan<'_>,
        first: &mut bool,
        skip: &[u32],
    ) -> Result<(), ProtoError> {
        for fd in desc.fields {
            if skip.contains(&fd.num) || fd.kind == Kind::Special {
                continue;
            }
            self.field(desc, fd, scan, first)?;
        }
        Ok(())
    }

    fn field(
        &mut self,
        desc: &'static Desc,
        fd: &FieldDesc,
        scan: &Scan<'_>,
        first: &mut bool,
    ) -> Result<(), ProtoError> {
        if fd.repeated {
            let omit_empty = fd.json == "usage"
                || (std::ptr::eq(desc, &schema::MESSAGE) && fd.json == "toolCalls");
            if omit_empty && !scan.has_repeated(desc, fd.num) {
                return Ok(());
            }
            self.key(first, fd.json);
            self.out.push(b'[');
            for (n, item) in scan.each(fd.num).enumerate() {
                let item = item?;
                if n > 0 {
                    self.out.push(b',');
                }
                match fd.kind {
                    Kind::Msg(d) => self.message(d, item)?,
                    _ => self.string(item)?,
                }
            }
            self.out.push(b']');
            return Ok(());
        }
        let v = scan.get(desc, fd.num);
        match (fd.kind, v) {
            (Kind::Str, Some(RawValue::Len(b))) => {
                self.key(first, fd.json);
                self.string(b)?;
            }
            (Kind::Str, None) if !fd.optional => {
                self.key(first, fd.json);
                self.out.extend_from_slice(b"\"\"");
            }
            (Kind::I64, Some(RawValue::Varint(x))) => {
                self.key(first, fd.json);
                self.out
                    .extend_from_slice(itoa::Buffer::new().format(x as i64).as_bytes());
            }
            (Kind::Bool, Some(RawValue::Varint(x))) => {
                self.key(first, fd.json);
                self.out
                    .extend_from_slice(if x != 0 { b"true" } else { b"false" });
            }
            (Kind::Value, Some(RawValue::Len(b))) => self.value_json(b, first, fd.json)?,
            (Kind::Struct, Some(RawValue::Len(b))) => {
                self.key(first, fd.json);
                self.struct_json(b)?;
            }
            (Kind::Msg(d), Some(RawValue::Len(b))) => {
                self.key(first, fd.json);
                self.message(d, b)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// A nested message as a JSON object.
    fn message(&mut self, desc: &'static Desc, b: &[u8]) -> Result<(), ProtoError> {
        let at = self.at(b);
        if std::ptr::eq(desc, &schema::CONTENT_PART) {
            return self.content_part(b);
        }
        let scan = Scan::new(desc, b, at)?;
        self.out.push(b'{');
        let mut first = true;
        if std::ptr::eq(desc, &schema::MESSAGE) {
            self.message_fields(&scan, &mut first)?;
        } else if std::ptr::eq(desc, &schema::PATCH_OP) {
            self.key(&mut first, "op");
            let op = match scan.get(desc, 1) {
                Some(RawValue::Varint(n)) => n,
                _ => 0,
            };
            match schema::PATCH_OPS.get(op as usize) {
                Some(name) => write_json_str(self.out, name),
                // The official decoder writes an unknown op's number as a string.
                None => write_json_str(self.out, &(op as i32).to_string()),
            }
            self.fields(desc, &scan, &mut first, &[])?;
        } else {
            self.fields(desc, &scan, &mut first, &[])?;
        }
        self.out.push(b'}');
        Ok(())
    }

    /// Picks the one arm of a oneof message; several arms are an error.
    fn one_arm<'b>(
        &self,
        desc: &'static Desc,
        b: &'b [u8],
        what: &'static str,
    ) -> Result<Option<(&'static FieldDesc, &'b [u8])>, ProtoError> {
        let scan = Scan::new(desc, b, self.at(b))?;
        let mut arm = None;
        for (i, fd) in desc.fields.iter().enumerate() {
            if let Some(RawValue::Len(x)) = scan.last[i] {
                if arm.is_some() {
                    return Err(ProtoError::invalid(what, self.at(b)));
                }
                arm = Some((fd, x));
            }
        }
        Ok(arm)
    }

    fn content_part(&mut self, b: &[u8]) -> Result<(), ProtoError> {
        let Some((arm, inner)) = self.one_arm(
            &schema::CONTENT_PART,
            b,
            "a content part has more than one kind",
        )?
        else {
            return Err(ProtoError::invalid(
                "a content part of no kind this version knows",
                self.at(b),
            ));
        };
        let Kind::Msg(d) = arm.kind else {
            return Ok(());
        };
        let scan = Scan::new(d, inner, self.at(inner))?;
        self.out.extend_from_slice(b"{\"type\":");
        write_json_str(self.out, arm.json);
        let mut first = false;
        self.fields(d, &scan, &mut first, &[])?;
        if let Some(RawValue::Len(src)) = scan
            .get(d, 1)
            .filter(|_| std::ptr::eq(d, &schema::MEDIA_PART))
        {
            let Some((sarm, sin)) =
                self.one_arm(&schema::SOURCE, src, "a source has more than one kind")?
            else {
                return Err(ProtoError::invalid(
                    "a source of no kind this version knows",
                    self.at(src),
                ));
            };
            self.key(&mut first, "source");
            self.out.extend_from_slice(b"{\"type\":");
            write_json_str(self.out, sarm.json);
            let Kind::Msg(sd) = sarm.kind else {
                return Ok(());
            };
            let sscan = Scan::new(sd, sin, self.at(sin))?;
            let mut sfirst = false;
            self.fields(sd, &sscan, &mut sfirst, &[])?;
            self.out.push(b'}');
        }
        self.out.push(b'}');
        Ok(())
    }

    fn parts(&mut self, scan: &Scan<'_>, num: u32) -> Result<(), ProtoError> {
        self.out.push(b'[');
        for (n, p) in scan.each(num).enumerate() {
            let p = p?;
            if n > 0 {
                self.out.push(b',');
            }
            self.content_part(p)?;
        }
        self.out.push(b']');
        Ok(())
    }

    /// A `Message`: `content` comes from field 3, 8 or 13 by role.
    fn message_fields(&mut self, scan: &Scan<'_>, first: &mut bool) -> Result<(), ProtoError> {
        let d = &schema::MESSAGE;
        let role = match scan.get(d, 2) {
            Some(RawValue::Len(r)) => utf8(r, self.at(r))?,
            _ => "",
        };
        let text = scan.get(d, 3);
        let parts = scan.has_repeated(d, 8);
        let map = scan.get(d, 13);
        let at = scan.at;
        let known = schema::is_known_role(role);
        let (uses_parts, uses_map) = if known {
            (matches!(role, "user" | "tool"), role == "activity")
        } else {
            (parts, !parts && map.is_some())
        };
        if !known
            && usize::from(text.is_some()) + usize::from(parts) + usize::from(map.is_some()) > 1
        {
            return Err(ProtoError::invalid(
                "a message carries more than one content form",
                at,
            ));
        }
        if known {
            if !uses_parts && parts {
                return Err(ProtoError::invalid(
                    "a message carries content parts for a role that has none",
                    at,
                ));
            }
            if map.is_some() && !uses_map {
                return Err(ProtoError::invalid(
                    "a message carries activity content for a non-activity role",
                    at,
                ));
            }
            if uses_map && text.is_some() {
                return Err(ProtoError::invalid(
                    "activity content rides with another content form",
                    at,
                ));
            }
            if uses_parts && text.is_some() && parts {
                return Err(ProtoError::invalid(
                    "a message carries both string content and content parts",
                    at,
                ));
            }
        }
        for fd in d.fields {
            match fd.num {
                3 => {
                    if uses_parts && text.is_none() {
                        self.key(first, "content");
                        self.parts(scan, 8)?;
                    } else if uses_map {
                        if let Some(RawValue::Len(m)) = map {
                            self.key(first, "content");
                            self.struct_json(m)?;
                        }
                    } else if let Some(RawValue::Len(t)) = text {
                        self.key(first, "content");
                        self.string(t)?;
                    }
                }
                8 | 13 => {}
                _ => self.field(d, fd, scan, first)?,
            }
        }
        Ok(())
    }

    /// The fields of an event message, the special shapes included.
    fn event_fields(
        &mut self,
        desc: &'static Desc,
        scan: &Scan<'_>,
        first: &mut bool,
    ) -> Result<(), ProtoError> {
        if std::ptr::eq(desc, &schema::TOOL_CALL_RESULT) {
            let text = scan.get(desc, 5);
            let parts = scan.has_repeated(desc, 7);
            if text.is_some() && parts {
                return Err(ProtoError::invalid(
                    "content carries both string content and content parts",
                    scan.at,
                ));
            }
            for fd in desc.fields {
                match fd.num {
                    5 => {
                        self.key(first, "content");
                        match text {
                            Some(RawValue::Len(t)) => self.string(t)?,
                            _ => self.parts(scan, 7)?,
                        }
                    }
                    7 => {}
                    _ => self.field(desc, fd, scan, first)?,
                }
            }
            return Ok(());
        }
        if std::ptr::eq(desc, &schema::RUN_FINISHED) {
            self.fields(desc, scan, first, &[6, 7, 8])?;
            self.outcome(
                scan,
                desc,
                5,
                &[(8, "pendingToolCallIds", false), (6, "interrupts", true)],
                "interrupt",
            )?;
            // `usage` after `outcome`, as the SDKs write it.
            let usage = desc.field(7).ok_or(ProtoError::invalid("usage", 0))?;
            let mut later = false;
            return self.field(desc, usage, scan, &mut later);
        }
        if std::ptr::eq(desc, &schema::SUBAGENT_FINISHED) {
            self.fields(desc, scan, first, &[5])?;
            return self.outcome(scan, desc, 4, &[(5, "interruptIds", false)], "");
        }
        self.fields(desc, scan, first, &[])
    }

    /// `outcome` rebuilt from its type string and the lists that ride beside it, as the
    /// official decoder does: with no type, non-empty lists stay top-level fields.
    /// `always` is the outcome type whose `interrupts` list is written even when empty.
    fn outcome(
        &mut self,
        scan: &Scan<'_>,
        desc: &'static Desc,
        type_no: u32,
        lists: &[(u32, &str, bool)],
        always: &str,
    ) -> Result<(), ProtoError> {
        let ty = match scan.get(desc, type_no) {
            Some(RawValue::Len(t)) => utf8(t, self.at(t))?,
            _ => "",
        };
        // `first` is false here: `type` was written before any field.
        let mut first = false;
        let write_list = |w: &mut Self, num: u32, is_msg: bool| -> Result<(), ProtoError> {
            w.out.push(b'[');
            for (n, item) in scan.each(num).enumerate() {
                let item = item?;
                if n > 0 {
                    w.out.push(b',');
                }
                if is_msg {
                    w.message(&schema::INTERRUPT, item)?;
                } else {
                    w.string(item)?;
                }
            }
            w.out.push(b']');
            Ok(())
        };
        // Order as the official decoder builds the object: for `interrupt`, interrupts first.
        let mut order: Vec<&(u32, &str, bool)> = lists.iter().collect();
        if ty == always {
            order.sort_by_key(|l| !l.2);
        }
        if ty.is_empty() {
            for &&(num, name, is_msg) in &order {
                if scan.has_repeated(desc, num) {
                    self.key(&mut first, name);
                    write_list(self, num, is_msg)?;
                }
            }
            return Ok(());
        }
        self.key(&mut first, "outcome");
        self.out.extend_from_slice(b"{\"type\":");
        write_json_str(self.out, ty);
        let mut ofirst = false;
        for &&(num, name, is_msg) in &order {
            if scan.has_repeated(desc, num) || (ty == always && is_msg) {
                self.key(&mut ofirst, name);
                write_list(self, num, is_msg)?;
            }
        }
        self.out.push(b'}');
        Ok(())
    }
}
