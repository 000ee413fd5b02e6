//! The fast path of [`Event::parse_with`]: the events that make up nearly all of a stream
//! (text deltas, tool-call arguments, starts and ends, steps, state) read in one pass, with
//! no gathering of every possible field and no second look at the type.
//!
//! It reads the shape senders write: `type` first, then fields of the event's own type in
//! their canonical order (ascending field id, which is also the order both SDKs write), each
//! string-valued field a JSON string. Values are read by the very functions the general parser
//! uses, so what it accepts reads exactly as the general parser reads it. Anything else (a
//! field out of order, a duplicate, an unknown field, an escaped key, `null`, a missing
//! required field, an error of any kind, an event type it does not cover) makes it give up,
//! and [`Event::parse_with`] runs the general parser from the start, which then produces the
//! event or the error, with its offset and path. So the fast path changes no result, only the
//! cost; `fuzz/fuzz_targets/events.rs` and `tests/events_fast.rs` compare the two paths.

use bumpalo::Bump;

use super::fields::{self, F};
use super::parse::roles;
use super::*;
use crate::model::{Content, Extra, ExtraParts, JsonKind, List, RawJson, Role, Str};
use crate::parser::{ParseOptions, Parser};
use crate::scanner::{StrToken, simd};

/// The most type-specific fields a covered event type has (`TOOL_CALL_CHUNK`,
/// `TEXT_MESSAGE_CHUNK`: four; `RUN_STARTED`'s fifth, `input`, is not covered).
const SLOTS: usize = 4;

/// The id of the first type-specific field of `t` (after `type`, `timestamp`, `rawEvent`,
/// `metadata` and, on most types, `subagentRunId`), if the fast path covers `t`.
fn first_field(t: EventType) -> Option<usize> {
    use EventType as T;
    match t {
        T::RunStarted | T::RunFinished | T::RunError => Some(4),
        T::StepStarted
        | T::StepFinished
        | T::TextMessageStart
        | T::TextMessageContent
        | T::TextMessageEnd
        | T::TextMessageChunk
        | T::ToolCallStart
        | T::ToolCallArgs
        | T::ToolCallEnd
        | T::ToolCallChunk
        | T::StateSnapshot
        | T::StateDelta
        | T::ReasoningStart
        | T::ReasoningMessageStart
        | T::ReasoningMessageContent
        | T::ReasoningMessageEnd
        | T::ReasoningMessageChunk
        | T::ReasoningEnd => Some(5),
        _ => None,
    }
}

/// A string field as read: its raw text and whether it holds escapes (made a [`Str`] only
/// when the event is built, so that nothing here needs dropping).
type Tok<'a> = Option<(&'a str, bool)>;

/// The fields of an event the fast path read, before the event is built.
pub(crate) struct Fields<'a> {
    t: EventType,
    timestamp: Option<i64>,
    raw_event: Option<RawJson<'a>>,
    metadata: Option<RawJson<'a>>,
    subagent_run_id: Tok<'a>,
    /// The type-specific string fields, by id from [`first_field`].
    s: [Tok<'a>; SLOTS],
    /// `snapshot` of `STATE_SNAPSHOT`, `delta` of `STATE_DELTA`.
    json: Option<RawJson<'a>>,
    role: Option<Role>,
}

impl<'a> Fields<'a> {
    /// Nothing read yet.
    #[inline(always)]
    pub(crate) fn new() -> Fields<'a> {
        Fields {
            t: EventType::RunStarted,
            timestamp: None,
            raw_event: None,
            metadata: None,
            subagent_run_id: None,
            s: [None; SLOTS],
            json: None,
            role: None,
        }
    }
}

/// The hottest events of a stream, as compact writers put them (`JSON.stringify`,
/// `model_dump_json`, and this crate's writer): `type`, the id, then `delta` (the content
/// and arguments events), `role` (an assistant message's start) or nothing (the ends), no
/// whitespace. Each is a run of fixed bytes with one or two strings between.
const TEXT_CONTENT: &[u8; 44] = b"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"";
const TOOL_ARGS: &[u8; 39] = b"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"";
const TEXT_START: &[u8; 42] = b"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"";
const TEXT_END: &[u8; 40] = b"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"";
const TOOL_END: &[u8; 38] = b"{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"";
const DELTA: &[u8; 10] = b",\"delta\":\"";
/// A state patch: `type`, then `delta`, read by [`Parser::json_patch`] (its compact reader
/// first), then the `}`.
const STATE_DELTA: &[u8; 30] = b"{\"type\":\"STATE_DELTA\",\"delta\":";
const ASSISTANT: &[u8; 20] = b",\"role\":\"assistant\"}";
/// A tool's result: `type`, the message id, `toolCallId`, then the content (a string) and
/// `role` (`"tool"`, the one role allowed) in either order, or the content alone.
const TOOL_RESULT: &[u8; 40] = b"{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"";
const TOOL_CALL_ID: &[u8; 15] = b",\"toolCallId\":\"";
const ROLE_CONTENT: &[u8; 26] = b",\"role\":\"tool\",\"content\":\"";
const CONTENT: &[u8; 12] = b",\"content\":\"";
const TOOL_ROLE: &[u8; 15] = b",\"role\":\"tool\"}";
/// The wire order the general parser records for `TOOL_CALL_RESULT` with `role` before
/// `content` (field ids of `EventType::fields`: `type` 0, `messageId` 5, `toolCallId` 6,
/// `content` 7, `role` 8), out of the canonical order; a constant, so nothing is allocated.
static ROLE_FIRST_ORDER: ExtraParts<'static> =
    ExtraParts::new(List::new(), List::borrowed(&[0, 5, 6, 8, 7]));

/// Whether `input` holds `lit` at `at`.
#[inline(always)]
fn holds<const N: usize>(input: &[u8], at: usize, lit: &[u8; N]) -> bool {
    let Some(end) = at.checked_add(N) else {
        return false;
    };
    let Some(s) = input.get(at..end) else {
        return false;
    };
    if N < 16 {
        return s == lit;
    }
    // 16 bytes at a time (the last block ends at `N`, over the one before), as `u128`
    // compares inlined with the literal's blocks as constants, where an array compare of
    // more than 32 bytes calls `memcmp`.
    let block = |b: &[u8], k: usize| {
        b.get(k..k + 16)
            .and_then(|b| <[u8; 16]>::try_from(b).ok())
            .map(u128::from_ne_bytes)
    };
    let mut k = 0;
    loop {
        let k16 = if k + 16 > N { N - 16 } else { k };
        if block(s, k16) != block(lit, k16) {
            return false;
        }
        if k16 + 16 == N {
            return true;
        }
        k += 16;
    }
}

/// An event [`template`] read: its type, id and, for the content and arguments events, delta.
/// (For `STATE_DELTA`, `id` holds the patch's text and whether it is compact.)
pub(crate) struct Templated<'a> {
    t: EventType,
    id: (&'a str, bool),
    delta: (&'a str, bool),
}

/// Reads `input` when it is exactly one of the compact shapes above (bytes compared, no key
/// read or looked up); `None` for anything else, which [`read`] then reads from the start.
/// What it takes, [`read`] reads the same: the same option checks, the same string reads
/// ([`string`]), `type` first and the fields in canonical order, `role` read as
/// [`Parser::role_in`] reads `"assistant"` there, a state patch by [`Parser::json_patch`] at
/// the object's depth, nothing after the `}`.
#[inline(always)]
pub(crate) fn template<'a>(
    input: &'a [u8],
    arena: &'a Bump,
    opts: &ParseOptions,
) -> Option<Templated<'a>> {
    use EventType as T;
    if input.len() > opts.max_input_bytes || opts.max_depth == 0 {
        return None;
    }
    let (t, head) = if holds(input, 0, TEXT_CONTENT) {
        (T::TextMessageContent, TEXT_CONTENT.len())
    } else if holds(input, 0, TOOL_ARGS) {
        (T::ToolCallArgs, TOOL_ARGS.len())
    } else if holds(input, 0, TEXT_START) {
        (T::TextMessageStart, TEXT_START.len())
    } else if holds(input, 0, TEXT_END) {
        (T::TextMessageEnd, TEXT_END.len())
    } else if holds(input, 0, TOOL_END) {
        (T::ToolCallEnd, TOOL_END.len())
    } else if holds(input, 0, STATE_DELTA) {
        // As `read` reads it: the object is one level, `delta` by `json_patch`.
        let mut p = Parser::new(input, arena, opts);
        p.cur.pos = STATE_DELTA.len();
        p.depth = 1;
        let ws = p.cur.ws;
        // (`json_patch`'s value is the text read and whether it is compact, as here.)
        p.json_patch("delta").ok()?;
        if p.cur.pos + 1 != input.len() || input.last() != Some(&b'}') {
            return None;
        }
        return Some(Templated {
            t: T::StateDelta,
            id: (p.cur.text(STATE_DELTA.len(), p.cur.pos), p.cur.ws == ws),
            delta: ("", false),
        });
    } else {
        return None;
    };
    let mut p = Parser::new(input, arena, opts);
    // At the id's opening quote.
    p.cur.pos = head - 1;
    let id = string(&mut p)?;
    let delta = match t {
        T::TextMessageContent | T::ToolCallArgs => {
            if !holds(input, p.cur.pos, DELTA) {
                return None;
            }
            p.cur.pos += DELTA.len() - 1;
            let delta = string(&mut p)?;
            (delta.raw, delta.escaped)
        }
        T::TextMessageStart => {
            if !holds(input, p.cur.pos, ASSISTANT) {
                return None;
            }
            p.cur.pos += ASSISTANT.len() - 1;
            ("", false)
        }
        _ => ("", false),
    };
    if p.cur.pos + 1 != input.len() || input.last() != Some(&b'}') {
        return None;
    }
    Some(Templated {
        t,
        id: (id.raw, id.escaped),
        delta,
    })
}

/// The `TOOL_CALL_RESULT` template, tried after [`template`] (apart from it, so that the
/// hot templates' code stays as small as it was): `type`, the message id, `,"toolCallId":`
/// and a string, then `,"role":"tool","content":` and a string, or `,"content":` and a
/// string followed by `,"role":"tool"` or nothing, then the `}` ending the input; `None` for
/// anything else. As [`read`] and the general parser read them: the same option checks,
/// strings by [`string`], `content` a string ([`Parser::content`] reads it so), `role` as
/// [`Parser::role_in`] reads `"tool"` there; `role` before `content` is out of the canonical
/// order, and the event records the wire order as the general parser does.
#[inline(never)]
pub(crate) fn tool_result<'a>(
    input: &'a [u8],
    arena: &'a Bump,
    opts: &ParseOptions,
) -> Option<Event<'a>> {
    if input.len() > opts.max_input_bytes || opts.max_depth == 0 || !holds(input, 0, TOOL_RESULT) {
        return None;
    }
    let mut p = Parser::new(input, arena, opts);
    p.cur.pos = TOOL_RESULT.len() - 1;
    let id = string(&mut p)?;
    if !holds(input, p.cur.pos, TOOL_CALL_ID) {
        return None;
    }
    p.cur.pos += TOOL_CALL_ID.len() - 1;
    let call = string(&mut p)?;
    let role_first = holds(input, p.cur.pos, ROLE_CONTENT);
    if role_first {
        p.cur.pos += ROLE_CONTENT.len() - 1;
    } else if holds(input, p.cur.pos, CONTENT) {
        p.cur.pos += CONTENT.len() - 1;
    } else {
        return None;
    }
    let content = string(&mut p)?;
    let role_after = !role_first && holds(input, p.cur.pos, TOOL_ROLE);
    if role_after {
        p.cur.pos += TOOL_ROLE.len() - 1;
    }
    if p.cur.pos + 1 != input.len() || input.last() != Some(&b'}') {
        return None;
    }
    let extra = if role_first {
        Extra::shared(&ROLE_FIRST_ORDER)
    } else {
        Extra::default()
    };
    Some(Event::ToolCallResult(ToolCallResultEvent {
        base: EventBase {
            timestamp: None,
            raw_event: None,
            metadata: None,
            subagent_run_id: None,
            extra,
        },
        message_id: Str::from_validated(id.raw, id.escaped),
        tool_call_id: Str::from_validated(call.raw, call.escaped),
        content: Content::Text(Str::from_validated(content.raw, content.escaped)),
        role: (role_first || role_after).then_some(Role::Tool),
    }))
}

/// The event [`template`] read, as [`build`] makes it from the same fields.
#[inline(always)]
pub(crate) fn build_templated(q: Templated<'_>) -> Event<'_> {
    use EventType as T;
    let base = EventBase {
        timestamp: None,
        raw_event: None,
        metadata: None,
        subagent_run_id: None,
        extra: Default::default(),
    };
    let id = Str::from_validated(q.id.0, q.id.1);
    let delta = Str::from_validated(q.delta.0, q.delta.1);
    match q.t {
        T::TextMessageContent => Event::TextMessageContent(TextMessageContentEvent {
            base,
            message_id: id,
            delta,
        }),
        T::ToolCallArgs => Event::ToolCallArgs(ToolCallArgsEvent {
            base,
            tool_call_id: id,
            delta,
        }),
        T::TextMessageStart => Event::TextMessageStart(TextMessageStartEvent {
            base,
            message_id: id,
            role: Some(Role::Assistant),
            name: None,
        }),
        T::TextMessageEnd => Event::TextMessageEnd(TextMessageEndEvent {
            base,
            message_id: id,
        }),
        T::StateDelta => Event::StateDelta(StateDeltaEvent {
            base,
            delta: RawJson::from_validated(q.id.0, JsonKind::Array, q.id.1),
        }),
        // `TOOL_CALL_END`, the only other type `template` reads.
        _ => Event::ToolCallEnd(ToolCallEndEvent {
            base,
            tool_call_id: id,
        }),
    }
}

/// Reads `input` as one event of the common shape into `out`, or gives up (`false`): see the
/// module documentation. `false` says nothing about the input's validity. On `true` every
/// required field of `out.t` is there, and [`build`] makes the event.
#[inline(always)]
pub(crate) fn read<'a>(
    input: &'a [u8],
    arena: &'a Bump,
    opts: &ParseOptions,
    out: &mut Fields<'a>,
) -> bool {
    read_fields(input, arena, opts, out).is_some() && complete(out)
}

#[inline(always)]
fn read_fields<'a>(
    input: &'a [u8],
    arena: &'a Bump,
    opts: &ParseOptions,
    out: &mut Fields<'a>,
) -> Option<()> {
    // (The general parser checks the size first and counts the object as one level.)
    if input.len() > opts.max_input_bytes || opts.max_depth == 0 {
        return None;
    }
    let mut p = Parser::new(input, arena, opts);
    p.cur.skip_ws();
    if p.cur.peek() != Some(b'{') {
        return None;
    }
    p.cur.pos += 1;
    p.depth = 1;
    if next_key(&mut p)? != b"type" {
        return None;
    }
    let name = string(&mut p)?;
    if name.escaped {
        return None;
    }
    let t = EventType::from_name(name.raw)?;
    let first = first_field(t)?;
    out.t = t;
    // `type` is field 0; each field must come after the last one.
    let mut last = 0;
    loop {
        p.cur.skip_ws();
        match p.cur.peek() {
            Some(b',') => p.cur.pos += 1,
            Some(b'}') => {
                p.cur.pos += 1;
                break;
            }
            _ => return None,
        }
        let f = fields::field(next_key(&mut p)?)?;
        let id = fields::id(t, f)?;
        if id <= last {
            return None;
        }
        last = id;
        // As `Parser::event_field` reads each field of these types.
        match f {
            F::Timestamp => out.timestamp = p.timestamp().ok()?,
            F::RawEvent => out.raw_event = p.opt_any("rawEvent").ok()?,
            F::Metadata => out.metadata = p.metadata(false).ok()?,
            F::Role => {
                let (allowed, expected) = roles(t);
                out.role = p.role_in(allowed, expected).ok()?;
            }
            F::Snapshot => out.json = Some(p.raw().ok()?),
            F::Delta if t == EventType::StateDelta => out.json = Some(p.json_patch("delta").ok()?),
            F::SubagentRunId
            | F::ThreadId
            | F::RunId
            | F::ProtocolVersion
            | F::ParentRunId
            | F::Message
            | F::Code
            | F::StepName
            | F::MessageId
            | F::Name
            | F::Delta
            | F::ToolCallId
            | F::ToolCallName
            | F::ParentMessageId => {
                // A string, never `null` (whose reading depends on the field and options).
                let v = string(&mut p)?;
                let v = Some((v.raw, v.escaped));
                if f == F::SubagentRunId {
                    out.subagent_run_id = v;
                } else {
                    *out.s.get_mut(id.checked_sub(first)?)? = v;
                }
            }
            _ => return None,
        }
    }
    if p.cur.pos != input.len() {
        p.cur.skip_ws();
    }
    (p.cur.pos == input.len()).then_some(())
}

/// A string value (the cursor at it), or `None` for anything else or an error.
#[inline(always)]
fn string<'a>(p: &mut Parser<'a, '_>) -> Option<StrToken<'a>> {
    if p.cur.peek() != Some(b'"') {
        return None;
    }
    match p.cur.short_string() {
        Some(s) => Some(s),
        None => p.cur.string().ok(),
    }
}

/// Whether the required fields of `f.t` are all there.
#[inline(always)]
fn complete(f: &Fields<'_>) -> bool {
    use EventType as T;
    let [a, b, ..] = &f.s;
    match f.t {
        T::RunStarted | T::RunFinished | T::ToolCallStart => a.is_some() && b.is_some(),
        T::TextMessageContent | T::ToolCallArgs | T::ReasoningMessageContent => {
            a.is_some() && b.is_some()
        }
        T::RunError
        | T::StepStarted
        | T::StepFinished
        | T::TextMessageStart
        | T::TextMessageEnd
        | T::ToolCallEnd
        | T::ReasoningStart
        | T::ReasoningMessageStart
        | T::ReasoningMessageEnd
        | T::ReasoningEnd => a.is_some(),
        T::StateSnapshot | T::StateDelta => f.json.is_some(),
        T::TextMessageChunk | T::ToolCallChunk | T::ReasoningMessageChunk => true,
        _ => false,
    }
}

/// A key and its colon, the cursor then at the value: the key's bytes when it is a plain key
/// that ends within 16 bytes (every field name of a covered type does), `None` for anything
/// else. The bytes are only compared with field names, so they need no UTF-8 check: a key
/// with other bytes names no field, and the general parser then reads it.
#[inline(always)]
fn next_key<'a>(p: &mut Parser<'a, '_>) -> Option<&'a [u8]> {
    p.cur.skip_ws();
    if p.cur.peek() != Some(b'"') {
        return None;
    }
    let bytes = p.cur.bytes;
    let start = p.cur.pos + 1;
    let (special, _, _) = simd::window16(bytes, start)?;
    if special == 0 {
        return None;
    }
    let end = start + special.trailing_zeros() as usize;
    if bytes.get(end) != Some(&b'"') {
        return None;
    }
    let key = bytes.get(start..end)?;
    p.cur.pos = end + 1;
    p.cur.skip_ws();
    if p.cur.peek() != Some(b':') {
        return None;
    }
    p.cur.pos += 1;
    p.cur.skip_ws();
    Some(key)
}

/// The event from the fields [`read`] found, as `parse::build` makes it. (A required field
/// is always there after `read`; the defaults below are never used.)
#[inline(always)]
pub(crate) fn build<'a>(f: Fields<'a>) -> Event<'a> {
    use EventType as T;
    let Fields {
        t,
        timestamp,
        raw_event,
        metadata,
        subagent_run_id,
        s,
        json,
        role,
    } = f;
    let opt = |t: Tok<'a>| t.map(|(raw, escaped)| Str::from_validated(raw, escaped));
    let base = EventBase {
        timestamp,
        raw_event,
        metadata,
        subagent_run_id: opt(subagent_run_id),
        extra: Default::default(),
    };
    let [a, b, c, d] = s;
    let req = |t: Tok<'a>| opt(t).unwrap_or_default();
    let json = || json.unwrap_or_else(|| RawJson::from_validated("null", JsonKind::Null, true));
    match t {
        T::RunStarted => Event::RunStarted(RunStartedEvent {
            base,
            thread_id: req(a),
            run_id: req(b),
            protocol_version: opt(c),
            parent_run_id: opt(d),
            input: None,
        }),
        T::RunFinished => Event::RunFinished(RunFinishedEvent {
            base,
            thread_id: req(a),
            run_id: req(b),
            result: None,
            outcome: None,
            usage: None,
        }),
        T::RunError => Event::RunError(RunErrorEvent {
            base,
            message: req(a),
            code: opt(b),
            usage: None,
        }),
        T::StepStarted => Event::StepStarted(StepStartedEvent {
            base,
            step_name: req(a),
        }),
        T::StepFinished => Event::StepFinished(StepFinishedEvent {
            base,
            step_name: req(a),
        }),
        T::TextMessageStart => Event::TextMessageStart(TextMessageStartEvent {
            base,
            message_id: req(a),
            role,
            name: opt(c),
        }),
        T::TextMessageContent => Event::TextMessageContent(TextMessageContentEvent {
            base,
            message_id: req(a),
            delta: req(b),
        }),
        T::TextMessageEnd => Event::TextMessageEnd(TextMessageEndEvent {
            base,
            message_id: req(a),
        }),
        T::TextMessageChunk => Event::TextMessageChunk(TextMessageChunkEvent {
            base,
            message_id: opt(a),
            role,
            delta: opt(c),
            name: opt(d),
        }),
        T::ToolCallStart => Event::ToolCallStart(ToolCallStartEvent {
            base,
            tool_call_id: req(a),
            tool_call_name: req(b),
            parent_message_id: opt(c),
        }),
        T::ToolCallArgs => Event::ToolCallArgs(ToolCallArgsEvent {
            base,
            tool_call_id: req(a),
            delta: req(b),
        }),
        T::ToolCallEnd => Event::ToolCallEnd(ToolCallEndEvent {
            base,
            tool_call_id: req(a),
        }),
        T::ToolCallChunk => Event::ToolCallChunk(ToolCallChunkEvent {
            base,
            tool_call_id: opt(a),
            tool_call_name: opt(b),
            parent_message_id: opt(c),
            delta: opt(d),
        }),
        T::StateSnapshot => Event::StateSnapshot(StateSnapshotEvent {
            base,
            snapshot: json(),
        }),
        T::StateDelta => Event::StateDelta(StateDeltaEvent {
            base,
            delta: json(),
        }),
        T::ReasoningStart => Event::ReasoningStart(ReasoningStartEvent {
            base,
            message_id: req(a),
        }),
        T::ReasoningMessageStart => Event::ReasoningMessageStart(ReasoningMessageStartEvent {
            base,
            message_id: req(a),
            role,
        }),
        T::ReasoningMessageContent => {
            Event::ReasoningMessageContent(ReasoningMessageContentEvent {
                base,
                message_id: req(a),
                delta: req(b),
            })
        }
        T::ReasoningMessageEnd => Event::ReasoningMessageEnd(ReasoningMessageEndEvent {
            base,
            message_id: req(a),
        }),
        T::ReasoningMessageChunk => Event::ReasoningMessageChunk(ReasoningMessageChunkEvent {
            base,
            message_id: opt(a),
            delta: opt(b),
        }),
        // `REASONING_END` (and the types `read` does not cover, which it never hands out).
        _ => Event::ReasoningEnd(ReasoningEndEvent {
            base,
            message_id: req(a),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `holds` by blocks against a plain slice compare: every literal, at several offsets,
    /// whole, cut, and with each byte changed.
    fn check<const N: usize>(lit: &[u8; N]) {
        for at in 0..3 {
            let mut input = vec![b'x'; at];
            input.extend_from_slice(lit);
            input.extend_from_slice(b"tail");
            assert!(holds(&input, at, lit));
            for cut in at..at + N {
                assert!(!holds(&input[..cut], at, lit));
            }
            for i in at..at + N {
                let mut changed = input.clone();
                changed[i] ^= 0x20;
                assert_eq!(
                    holds(&changed, at, lit),
                    changed.get(at..at + N) == Some(&lit[..])
                );
                assert!(!holds(&changed, at, lit));
            }
        }
        assert!(!holds(lit, usize::MAX, lit));
    }

    #[test]
    fn holds_compares_every_byte() {
        check(TEXT_CONTENT);
        check(TOOL_ARGS);
        check(TEXT_START);
        check(TEXT_END);
        check(TOOL_END);
        check(STATE_DELTA);
        check(DELTA);
        check(ASSISTANT);
        check(TOOL_RESULT);
        check(TOOL_CALL_ID);
        check(ROLE_CONTENT);
        check(CONTENT);
        check(TOOL_ROLE);
        check(b"0123456789abcdef");
        check(b"0123456789abcdef0");
        check(b"0123456789abcdef0123456789abcdef");
    }
}
