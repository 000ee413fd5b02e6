//! AG-UI JSON events to protobuf frames.

use bumpalo::Bump;

use super::json_in::{self, J};
use super::schema::{self, Desc, FieldDesc, Kind};
use super::value::{LossSink, encode_struct, encode_value, number_to_f64};
use super::wire::{self, WireType};
use super::{Loss, LossKind, ProtoError, ProtoErrorKind};
use crate::{Event, EventType};

/// What to do with a value protobuf cannot carry exactly.
///
/// ```
/// use agui_wire::proto::{encode_json, EncodeOptions, OnLoss, ProtoErrorKind};
/// let mut out = Vec::new();
/// let err = encode_json(br#"{"type":"CUSTOM","name":"n","value":1e400}"#, &mut out,
///     &EncodeOptions { on_loss: OnLoss::Error, ..EncodeOptions::default() }).unwrap_err();
/// assert!(matches!(err.kind(), ProtoErrorKind::Lossy(..)));
/// assert!(out.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnLoss {
    /// Refuse the event (the default): nothing is written.
    #[default]
    Error,
    /// Encode what protobuf can carry and return the list of what it could not.
    Report,
}

/// Options for encoding.
///
/// ```
/// use agui_wire::proto::{EncodeOptions, OnLoss};
/// let o = EncodeOptions::default();
/// assert_eq!((o.on_loss, o.max_depth), (OnLoss::Error, 512));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// What to do with what protobuf cannot carry (inexact numbers, unknown fields).
    pub on_loss: OnLoss,
    /// How deep JSON values may nest.
    pub max_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            on_loss: OnLoss::Error,
            max_depth: 512,
        }
    }
}

/// Encodes one AG-UI JSON event as a frame (4-byte big-endian length and the `Event`
/// message), appended to `out`. Returns what could not be carried (always empty with
/// [`OnLoss::Error`], which fails instead). On error nothing is appended.
///
/// The JSON should be a valid event ([`Event::parse`] accepts it); the encoder checks the
/// shapes it relies on and reports anything else as an error.
///
/// ```
/// use agui_wire::proto::{encode_json, EncodeOptions};
/// let mut out = Vec::new();
/// encode_json(br#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#, &mut out, &EncodeOptions::default())?;
/// // length 10; Event.textMessageEnd (3) { baseEvent (1) { type: 2 }, messageId (2): "m1" }
/// assert_eq!(out, [0, 0, 0, 10, 0x1a, 8, 0x0a, 2, 0x08, 2, 0x12, 2, b'm', b'1']);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
pub fn encode_json(
    json: &[u8],
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<Vec<Loss>, ProtoError> {
    encode_json_in(json, out, opts, &Bump::new())
}

/// [`encode_json`] with the JSON tree (and any unescaped strings) in `arena`, which a caller
/// encoding many events resets between them.
pub(crate) fn encode_json_in(
    json: &[u8],
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
    arena: &Bump,
) -> Result<Vec<Loss>, ProtoError> {
    let text = std::str::from_utf8(json)
        .map_err(|e| ProtoError::new(ProtoErrorKind::Json("not UTF-8"), e.valid_up_to()))?;
    let j = json_in::parse(text, opts.max_depth, arena)?;
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut losses = Vec::new();
    let r = Enc {
        out,
        sink: LossSink {
            fail: opts.on_loss == OnLoss::Error,
            losses: &mut losses,
        },
        max_depth: opts.max_depth,
        arena,
    }
    .event(&j);
    match r {
        Ok(()) => {
            let len = out.len() - start - 4;
            match u32::try_from(len) {
                Ok(n) => {
                    out[start..start + 4].copy_from_slice(&n.to_be_bytes());
                    Ok(losses)
                }
                Err(_) => {
                    out.truncate(start);
                    Err(ProtoError::new(
                        ProtoErrorKind::FrameTooLarge {
                            len: len as u64,
                            max: u32::MAX as usize,
                        },
                        0,
                    ))
                }
            }
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// Encodes an event of the crate's model (parsed or built by hand) as a frame: the event is
/// written as JSON into a scratch buffer, then encoded as [`encode_json`] does.
///
/// ```
/// use agui_wire::{Bump, Event};
/// use agui_wire::proto::{encode_event, EncodeOptions, ProtoEvent};
/// let arena = Bump::new();
/// let ev = Event::parse(br#"{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}"#, &arena)?;
/// let mut out = Vec::new();
/// encode_event(&ev, &mut out, &EncodeOptions::default())?;
/// assert_eq!(ProtoEvent::decode(&out[4..])?.to_json(&Default::default())?,
///     r#"{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_event(
    event: &Event<'_>,
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<Vec<Loss>, ProtoError> {
    let json = crate::to_vec(event);
    encode_json(&json, out, opts)
}

/// The value the protocol gives a required protobuf field that the JSON may leave out: a
/// `REASONING_MESSAGE_START`'s `role` defaults to `"reasoning"` (its only value) in both
/// SDKs, so a frame carries it, as the SDKs' encoders write it. Written as the empty string
/// (protobuf's default for an absent field), it would decode to `"role":""`, which no
/// reader accepts.
fn protocol_default(desc: &'static Desc, fd: &FieldDesc) -> Option<&'static str> {
    (std::ptr::eq(desc, &schema::REASONING_MESSAGE_START) && fd.json == "role")
        .then_some("reasoning")
}

struct Enc<'o, 'r, 'b> {
    out: &'o mut Vec<u8>,
    sink: LossSink<'r>,
    max_depth: usize,
    /// Where escaped strings are unescaped.
    arena: &'b Bump,
}

/// Where a value is in the event, as a chain of borrowed steps: written out as a JSON path
/// (`messages[2].content`) only when a loss is reported, so encoding builds no strings.
#[derive(Clone, Copy)]
pub(crate) struct Path<'p> {
    parent: Option<&'p Path<'p>>,
    step: Step<'p>,
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Root,
    Key(&'p str),
    Index(usize),
}

impl Path<'_> {
    /// The event itself (the empty path).
    pub(crate) const ROOT: Path<'static> = Path {
        parent: None,
        step: Step::Root,
    };

    /// The member `k` of this value.
    pub(crate) fn key<'q>(&'q self, k: &'q str) -> Path<'q> {
        Path {
            parent: Some(self),
            step: Step::Key(k),
        }
    }

    /// Item `i` of this list.
    pub(crate) fn index(&self, i: usize) -> Path<'_> {
        Path {
            parent: Some(self),
            step: Step::Index(i),
        }
    }

    /// The JSON path: keys joined with `.`, indexes as `[i]`.
    pub(crate) fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            steps.push(p.step);
            at = p.parent;
        }
        let mut s = String::new();
        for step in steps.iter().rev() {
            match step {
                Step::Root => {}
                Step::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Step::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }
}

fn bad(what: &'static str) -> ProtoError {
    ProtoError::new(ProtoErrorKind::Json(what), 0)
}

impl Enc<'_, '_, '_> {
    fn lose(&mut self, kind: LossKind, path: &Path<'_>) -> Result<(), ProtoError> {
        self.sink.lose(kind, &|| path.render())
    }

    fn event(&mut self, j: &J<'_, '_>) -> Result<(), ProtoError> {
        let J::Obj(members) = j else {
            return Err(bad("an event must be a JSON object"));
        };
        let ty = j
            .get("type")
            .and_then(J::as_str)
            .ok_or(bad("the event has no string `type`"))?;
        let Some(t) = EventType::from_name(&ty) else {
            return Err(ProtoError::new(
                ProtoErrorKind::Event(format!(
                    "`{ty}` is not an AG-UI 1.0 event type; protobuf has no arm for it"
                )),
                0,
            ));
        };
        let &(arm, _, enum_no, desc) = schema::envelope_of(t);
        let m = wire::begin_message(self.out, arm);
        // BaseEvent (field 1)
        let b = wire::begin_message(self.out, schema::BASE_FIELD);
        if enum_no != 0 {
            wire::put_tag(self.out, 1, WireType::Varint);
            wire::put_varint(self.out, u64::from(enum_no));
        }
        for (num, name) in [(2, "timestamp"), (3, "rawEvent"), (4, "metadata")] {
            if let Some(v) = j.get(name) {
                let fd = schema::BASE_EVENT.field(num).ok_or(bad("schema"))?;
                self.field(fd, v, &Path::ROOT.key(name))?;
            }
        }
        wire::end_message(self.out, b);
        for (k, _) in members.iter() {
            let k = k.text();
            if !matches!(&*k, "type" | "timestamp" | "rawEvent" | "metadata")
                && !known_key(desc, &k)
            {
                self.lose(LossKind::UnknownField(k.to_string()), &Path::ROOT.key(&k))?;
            }
        }
        self.body(desc, j, &Path::ROOT)?;
        wire::end_message(self.out, m);
        Ok(())
    }

    /// The fields of `desc` from object `j`, in field-number order.
    fn body(
        &mut self,
        desc: &'static Desc,
        j: &J<'_, '_>,
        path: &Path<'_>,
    ) -> Result<(), ProtoError> {
        if std::ptr::eq(desc, &schema::RUN_FINISHED) {
            return self.outcome_event(
                desc,
                j,
                path,
                5,
                &[
                    ("success", 8, "pendingToolCallIds"),
                    ("interrupt", 6, "interrupts"),
                ],
            );
        }
        if std::ptr::eq(desc, &schema::SUBAGENT_FINISHED) {
            return self.outcome_event(desc, j, path, 4, &[("suspended", 5, "interruptIds")]);
        }
        for fd in by_number(desc) {
            if fd.kind == Kind::Special {
                self.special(desc, fd, j, path)?;
                continue;
            }
            match j.get(fd.json) {
                Some(v) => self.field(fd, v, &path.key(fd.json))?,
                None => {
                    if let Some(default) = protocol_default(desc, fd) {
                        wire::put_bytes(self.out, fd.num, default.as_bytes());
                    }
                }
            }
        }
        Ok(())
    }

    fn field(&mut self, fd: &FieldDesc, v: &J<'_, '_>, path: &Path<'_>) -> Result<(), ProtoError> {
        if fd.repeated {
            let J::Arr(items) = v else {
                return self.lose(
                    LossKind::Unrepresentable("a list field that is not an array"),
                    path,
                );
            };
            for (i, item) in items.iter().enumerate() {
                let p = path.index(i);
                match fd.kind {
                    Kind::Msg(d) => self.message(fd.num, d, item, &p)?,
                    _ => match item {
                        J::Str(s) => s.put(self.out, fd.num, self.arena),
                        _ => self.lose(
                            LossKind::Unrepresentable("a list item that is not a string"),
                            &p,
                        )?,
                    },
                }
            }
            return Ok(());
        }
        match (fd.kind, v) {
            (Kind::Str, J::Str(s)) => {
                // An escaped string is never empty.
                if fd.optional || !s.raw.is_empty() {
                    s.put(self.out, fd.num, self.arena);
                }
            }
            (Kind::I64, J::Num(t)) => {
                let (x, exact) = number_to_f64(t);
                let n = t.parse::<i64>().ok().or_else(|| {
                    (exact && x.fract() == 0.0 && x.abs() < 9.2e18).then_some(x as i64)
                });
                match n {
                    Some(n) => {
                        wire::put_tag(self.out, fd.num, WireType::Varint);
                        wire::put_varint(self.out, n as u64);
                    }
                    None => self.lose(LossKind::InexactNumber((*t).to_string()), path)?,
                }
            }
            (Kind::Bool, J::Bool(b)) => {
                wire::put_tag(self.out, fd.num, WireType::Varint);
                self.out.push(u8::from(*b));
            }
            (Kind::Value, _) => {
                let m = wire::begin_message(self.out, fd.num);
                encode_value(
                    v,
                    self.out,
                    self.max_depth,
                    &mut self.sink,
                    &|| path.render(),
                    self.arena,
                )?;
                wire::end_message(self.out, m);
            }
            (Kind::Struct, J::Obj(_)) => {
                let m = wire::begin_message(self.out, fd.num);
                encode_struct(
                    v,
                    self.out,
                    self.max_depth,
                    &mut self.sink,
                    &|| path.render(),
                    self.arena,
                )?;
                wire::end_message(self.out, m);
            }
            (Kind::Msg(d), J::Obj(_)) => self.message(fd.num, d, v, path)?,
            (_, J::Null) => {} // an optional field given as null (lenient input): absent
            _ => self.lose(
                LossKind::Unrepresentable("a value whose JSON type the proto field cannot hold"),
                path,
            )?,
        }
        Ok(())
    }

    fn message(
        &mut self,
        num: u32,
        d: &'static Desc,
        v: &J<'_, '_>,
        path: &Path<'_>,
    ) -> Result<(), ProtoError> {
        if !matches!(v, J::Obj(_)) {
            return self.lose(
                LossKind::Unrepresentable("a message field that is not an object"),
                path,
            );
        }
        if std::ptr::eq(d, &schema::CONTENT_PART) {
            return self.content_part(num, v, path);
        }
        self.unknown_keys(d, v, path, &[])?;
        let m = wire::begin_message(self.out, num);
        if std::ptr::eq(d, &schema::MESSAGE) {
            self.message_body(v, path)?;
        } else {
            self.body(d, v, path)?;
        }
        wire::end_message(self.out, m);
        Ok(())
    }

    fn unknown_keys(
        &mut self,
        d: &Desc,
        v: &J<'_, '_>,
        path: &Path<'_>,
        also: &[&str],
    ) -> Result<(), ProtoError> {
        if let J::Obj(members) = v {
            for (k, _) in members.iter() {
                let k = k.text();
                if !known_key(d, &k) && !also.contains(&&*k) {
                    self.lose(LossKind::UnknownField(k.to_string()), &path.key(&k))?;
                }
            }
        }
        Ok(())
    }

    fn special(
        &mut self,
        desc: &'static Desc,
        fd: &FieldDesc,
        j: &J<'_, '_>,
        path: &Path<'_>,
    ) -> Result<(), ProtoError> {
        if std::ptr::eq(desc, &schema::PATCH_OP) {
            let op = j.get("op").and_then(J::as_str).unwrap_or_default();
            let n = match schema::PATCH_OPS.iter().position(|o| **o == *op) {
                Some(n) => n as i64,
                // The decoder writes an enum number it does not know as its decimal string
                // (as the official decoder does); that string, written exactly so, goes back
                // to the same number. A number that names a known op never comes as a string.
                None => match op.parse::<i32>() {
                    Ok(n)
                        if n.to_string() == *op
                            && !(0..schema::PATCH_OPS.len() as i32).contains(&n) =>
                    {
                        i64::from(n)
                    }
                    _ => {
                        return self.lose(
                            LossKind::Unrepresentable("a patch op that is not an RFC 6902 op"),
                            &path.key("op"),
                        );
                    }
                },
            };
            if n != 0 {
                wire::put_tag(self.out, 1, WireType::Varint);
                // An `int32` enum: negative values are sign-extended to ten bytes.
                wire::put_varint(self.out, n as u64);
            }
            return Ok(());
        }
        if std::ptr::eq(desc, &schema::TOOL_CALL_RESULT) && fd.num == 5 {
            let p = path.key("content");
            match j.get("content") {
                Some(J::Str(s)) => s.put(self.out, 5, self.arena),
                Some(J::Arr(parts)) => {
                    for (i, part) in parts.iter().enumerate() {
                        self.content_part(7, part, &p.index(i))?;
                    }
                }
                Some(_) => self.lose(
                    LossKind::Unrepresentable("content that is neither a string nor an array"),
                    &p,
                )?,
                None => {}
            }
            return Ok(());
        }
        if std::ptr::eq(desc, &schema::MEDIA_PART) {
            let Some(src) = j.get("source") else {
                return Ok(());
            };
            let p = path.key("source");
            let ty = src.get("type").and_then(J::as_str).unwrap_or_default();
            let Some(arm) = schema::SOURCE.fields.iter().find(|f| f.json == ty) else {
                return self.lose(
                    LossKind::Unrepresentable("a source of a type protobuf has no arm for"),
                    &p,
                );
            };
            let Kind::Msg(sd) = arm.kind else {
                return Ok(());
            };
            self.unknown_keys(sd, src, &p, &["type"])?;
            let m = wire::begin_message(self.out, 1);
            let s = wire::begin_message(self.out, arm.num);
            self.body(sd, src, &p)?;
            wire::end_message(self.out, s);
            wire::end_message(self.out, m);
            return Ok(());
        }
        // Message content forms and the outcome lists are written by their owners.
        Ok(())
    }

    fn content_part(
        &mut self,
        num: u32,
        part: &J<'_, '_>,
        path: &Path<'_>,
    ) -> Result<(), ProtoError> {
        let ty = part.get("type").and_then(J::as_str).unwrap_or_default();
        let Some(arm) = schema::CONTENT_PART.fields.iter().find(|f| f.json == ty) else {
            return self.lose(
                LossKind::Unrepresentable("a content part of a type protobuf has no arm for"),
                path,
            );
        };
        let Kind::Msg(d) = arm.kind else {
            return Ok(());
        };
        self.unknown_keys(d, part, path, &["type"])?;
        let m = wire::begin_message(self.out, num);
        let a = wire::begin_message(self.out, arm.num);
        self.body(d, part, path)?;
        wire::end_message(self.out, a);
        wire::end_message(self.out, m);
        Ok(())
    }

    /// A `Message`: `content` goes to field 3, 8 or 13 by its JSON type and the role.
    fn message_body(&mut self, v: &J<'_, '_>, path: &Path<'_>) -> Result<(), ProtoError> {
        let d = &schema::MESSAGE;
        let role = v.get("role").and_then(J::as_str).unwrap_or_default();
        let p = path.key("content");
        let content = v.get("content");
        // A role the schema does not know keeps object content in field 13, where the decoder
        // reads it back for such a role (the only field an object fits).
        let known = schema::is_known_role(&role);
        let takes_map = role == "activity" || !known;
        // Field-number order, as the official encoder writes: string content is field 3,
        // parts field 8, activity content field 13.
        for fd in d.fields.iter() {
            match (fd.num, content) {
                (3, Some(J::Str(s))) if role != "activity" => s.put(self.out, 3, self.arena),
                (3, None | Some(J::Null | J::Arr(_))) => {}
                (3, Some(J::Obj(_))) if takes_map => {}
                (3, Some(_)) => self.lose(
                    LossKind::Unrepresentable(
                        "message content of a shape protobuf has no field for",
                    ),
                    &p,
                )?,
                (8, Some(J::Arr(parts))) => {
                    for (i, part) in parts.iter().enumerate() {
                        self.content_part(8, part, &p.index(i))?;
                    }
                }
                (13, Some(c @ J::Obj(_))) if takes_map => {
                    let m = wire::begin_message(self.out, 13);
                    encode_struct(
                        c,
                        self.out,
                        self.max_depth,
                        &mut self.sink,
                        &|| p.render(),
                        self.arena,
                    )?;
                    wire::end_message(self.out, m);
                }
                (8 | 13, _) => {}
                _ => {
                    if let Some(x) = v.get(fd.json) {
                        self.field(fd, x, &path.key(fd.json))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `RUN_FINISHED` / `SUBAGENT_FINISHED`: `outcome` becomes its type string and the list
    /// its type carries.
    fn outcome_event(
        &mut self,
        desc: &'static Desc,
        j: &J<'_, '_>,
        path: &Path<'_>,
        type_no: u32,
        arms: &[(&str, u32, &str)],
    ) -> Result<(), ProtoError> {
        let outcome = j.get("outcome").filter(|o| !matches!(o, J::Null));
        let ty = outcome.and_then(|o| o.get("type")).and_then(J::as_str);
        let po = path.key("outcome");
        if let Some(o) = outcome {
            if let J::Obj(members) = o {
                for (k, _) in members.iter() {
                    let k = k.text();
                    let carried = k == "type" || arms.iter().any(|a| a.2 == k);
                    if !carried {
                        self.lose(LossKind::UnknownField(k.to_string()), &po.key(&k))?;
                    }
                }
            } else {
                self.lose(
                    LossKind::Unrepresentable("an outcome that is not an object"),
                    &po,
                )?;
            }
        }
        for fd in by_number(desc) {
            if fd.num == type_no {
                if let Some(t) = &ty
                    && !t.is_empty()
                {
                    wire::put_bytes(self.out, type_no, t.as_bytes());
                }
                continue;
            }
            if let Some(&(_, _, name)) = arms.iter().find(|a| a.1 == fd.num) {
                // The list rides beside the type string whatever the type is (the official
                // decoder puts it back into any outcome), so nothing is lost.
                if let Some(list) = outcome.and_then(|o| o.get(name)) {
                    self.field(fd, list, &po.key(name))?;
                    if j.get(name).is_some() {
                        self.lose(LossKind::UnknownField(name.to_string()), &path.key(name))?;
                    }
                } else if let Some(list) = j.get(name) {
                    // With no outcome type the official decoder leaves a non-empty list at the
                    // top level; it is read back from there. Beside a typed outcome it would
                    // change meaning by moving into it, so it is reported instead.
                    if ty.as_ref().is_some_and(|t| !t.is_empty()) {
                        self.lose(LossKind::UnknownField(name.to_string()), &path.key(name))?;
                    } else {
                        self.field(fd, list, &path.key(name))?;
                    }
                }
                continue;
            }
            match j.get(fd.json) {
                Some(v) => self.field(fd, v, &path.key(fd.json))?,
                None => {
                    if let Some(default) = protocol_default(desc, fd) {
                        wire::put_bytes(self.out, fd.num, default.as_bytes());
                    }
                }
            }
        }
        Ok(())
    }
}

/// The fields of `desc` in field-number order (sorted on the stack; no table has more than
/// 32 fields).
fn by_number(desc: &'static Desc) -> impl Iterator<Item = &'static FieldDesc> {
    let mut order = [0u8; 32];
    debug_assert!(desc.fields.len() <= order.len(), "{}", desc.name);
    let n = desc.fields.len().min(order.len());
    for (i, o) in order.iter_mut().enumerate().take(n) {
        *o = i as u8;
    }
    order[..n].sort_unstable_by_key(|&i| desc.fields[usize::from(i)].num);
    (0..n).map(move |i| &desc.fields[usize::from(order[i])])
}

fn known_key(d: &Desc, k: &str) -> bool {
    if std::ptr::eq(d, &schema::RUN_FINISHED) || std::ptr::eq(d, &schema::SUBAGENT_FINISHED) {
        // The outcome lists are judged where they are read (`outcome_event`).
        return k == "outcome" || d.by_json(k).is_some();
    }
    if std::ptr::eq(d, &schema::MESSAGE) {
        return k == "content"
            || d.fields
                .iter()
                .any(|f| f.json == k && f.kind != Kind::Special);
    }
    if std::ptr::eq(d, &schema::TOOL_CALL_RESULT) {
        return k == "content"
            || d.fields
                .iter()
                .any(|f| f.json == k && f.kind != Kind::Special);
    }
    d.by_json(k).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_written_only_when_asked_and_as_before() {
        let messages = Path::ROOT.key("messages");
        let second = messages.index(2);
        let content = second.key("content");
        assert_eq!(content.render(), "messages[2].content");
        assert_eq!(Path::ROOT.key("value").render(), "value");
        assert_eq!(Path::ROOT.render(), "");
    }

    #[test]
    fn fields_come_in_number_order() {
        for t in EventType::ALL {
            let desc = schema::envelope_of(t).3;
            let nums: Vec<u32> = by_number(desc).map(|f| f.num).collect();
            assert_eq!(nums.len(), desc.fields.len());
            assert!(
                nums.windows(2).all(|w| w[0] < w[1]),
                "{}: {nums:?}",
                desc.name
            );
        }
    }
}
