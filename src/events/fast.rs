//! The fast path of [`Event::parse_with`]: the events that make up nearly all of a stream
//! (text deltas, tool-call arguments, starts and ends, steps, state) read in one pass, with
//! no gathering of every possible field and no second look at the type.
//!
//! It reads the shapes senders write: `type` first, then fields of the event's own type in
//! their canonical order (ascending field id, which is also the order both SDKs write); or
//! `type` last, the fields before it in any order, each once (keys sorted alphabetically, as
//! serde_json's `Value`, Go's maps and Python's `sort_keys=True` write them; the wire order
//! is recorded as the general parser records it). Each string-valued field a JSON string. Values are read by the very functions the general parser
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
use crate::scanner::{StrToken, holds, simd};

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
    /// The wire order, when it is not the canonical one.
    order: Option<&'a ExtraParts<'a>>,
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
            order: None,
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
static ROLE_FIRST_ORDER: ExtraParts<'static> = ExtraParts::order_only(&[0, 5, 6, 8, 7]);

/// The sorted shapes [`sorted_template`] reads start so: `delta` first, or the id.
const SORTED_DELTA: &[u8; 10] = b"{\"delta\":\"";
const SORTED_MESSAGE_ID: &[u8; 14] = b"{\"messageId\":\"";
const SORTED_TOOL_CALL_ID: &[u8; 15] = b"{\"toolCallId\":\"";
const MESSAGE_ID: &[u8; 14] = b",\"messageId\":\"";
/// The last members of those shapes, read by [`compact_type`].
const LAST_TEXT_CONTENT: &[u8; 31] = b",\"type\":\"TEXT_MESSAGE_CONTENT\"}";
const LAST_TOOL_ARGS: &[u8; 25] = b",\"type\":\"TOOL_CALL_ARGS\"}";
const LAST_TEXT_END: &[u8; 27] = b",\"type\":\"TEXT_MESSAGE_END\"}";
const LAST_TEXT_START: &[u8; 29] = b",\"type\":\"TEXT_MESSAGE_START\"}";
const LAST_TOOL_END: &[u8; 24] = b",\"type\":\"TOOL_CALL_END\"}";
/// An assistant's `TEXT_MESSAGE_START` between the id and the type.
const SORTED_ASSISTANT: &[u8; 19] = b",\"role\":\"assistant\"";
/// The wire orders of those shapes, as the general parser records them (field ids of
/// `EventType::fields`: `type` 0, the id 5, `delta` or `role` 6); constants, so nothing is
/// allocated.
static DELTA_ID_TYPE: ExtraParts<'static> = ExtraParts::order_only(&[6, 5, 0]);
static ID_TYPE: ExtraParts<'static> = ExtraParts::order_only(&[5, 0]);
static ID_ROLE_TYPE: ExtraParts<'static> = ExtraParts::order_only(&[5, 6, 0]);

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
    // Every template starts so: one compare turns away any other event (keys sorted, say).
    if !holds(input, 0, b"{\"type\":") {
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
    p.cur.skip_ws();
    let first_key = p.cur.pos;
    if next_key(&mut p)? != b"type" {
        // Keys sorted alphabetically put `type` last: read it there first.
        p.cur.pos = first_key;
        return read_sorted(&mut p, input, arena, first_key, out);
    }
    let name = string(&mut p)?;
    if name.escaped {
        return None;
    }
    let t = EventType::from_name(name.raw)?;
    let first = first_field(t)?;
    out.t = t;
    let mut unused = Wire::EMPTY;
    fields_loop::<false>(&mut p, t, first, 0, &mut unused, out)?;
    at_end(&mut p, input)
}

/// The most fields a covered event has: `type`, the four of every event and [`SLOTS`].
const MAX_FIELDS: usize = 5 + SLOTS;

/// The field ids of an event in the order they came.
struct Wire {
    ids: [u32; MAX_FIELDS],
    len: usize,
}

impl Wire {
    const EMPTY: Wire = Wire {
        ids: [0; MAX_FIELDS],
        len: 0,
    };
}

/// [`read_fields`] for an event whose first key is not `type` (the cursor at that key), as
/// senders that sort their keys write every event (`type` then comes last but for a field
/// named after it): the type from the last member, `"type":"…"` before the closing brace,
/// then every field as [`read_fields`] reads it, in any order but each once, and `type` met
/// where it was read first. The wire order is recorded in `out.order` as the general parser
/// records it (the field ids as they came: every event here is out of the canonical order,
/// which has `type` first).
#[inline(never)]
fn read_sorted<'a>(
    p: &mut Parser<'a, '_>,
    input: &'a [u8],
    arena: &'a Bump,
    first_key: usize,
    out: &mut Fields<'a>,
) -> Option<()> {
    let (t, type_at) = match compact_type(input) {
        Some(found) => found,
        None => type_at_end(input)?,
    };
    let first = first_field(t)?;
    out.t = t;
    if sorted_template(p, input, t, type_at, out).is_some() {
        return Some(());
    }
    p.cur.pos = first_key;
    let mut wire = Wire::EMPTY;
    fields_loop::<true>(p, t, first, type_at, &mut wire, out)?;
    at_end(p, input)?;
    let ids = arena.alloc_slice_copy(wire.ids.get(..wire.len)?);
    out.order = Some(arena.alloc(ExtraParts::new(List::new(), List::borrowed(ids))));
    Some(())
}

/// The hottest events as writers that sort their keys write them compactly (serde_json's
/// `Value`, Go's maps): `TEXT_MESSAGE_CONTENT`, `REASONING_MESSAGE_CONTENT` and
/// `TOOL_CALL_ARGS` as `{"delta":…,"messageId":…,` (`"toolCallId"`), `TEXT_MESSAGE_START` as
/// `{"messageId":…,"role":"assistant",`, the ends as `{"messageId":…,` (`"toolCallId"`),
/// then the `"type"` member [`type_at_end`] read. Strings read by [`string`] as
/// [`fields_loop`] reads them, the wire order a constant. `None` for anything else (the
/// loop then reads the event from its first key).
#[inline(always)]
fn sorted_template<'a>(
    p: &mut Parser<'a, '_>,
    input: &'a [u8],
    t: EventType,
    type_at: usize,
    out: &mut Fields<'a>,
) -> Option<()> {
    use EventType as T;
    let tok = |v: StrToken<'a>| Some((v.raw, v.escaped));
    // The id after `delta`: `messageId` (true) or `toolCallId` (false), or none.
    let (id_key, tail): (Option<bool>, _) = match t {
        T::TextMessageContent | T::ReasoningMessageContent | T::ToolCallArgs => {
            if !holds(input, 0, SORTED_DELTA) {
                return None;
            }
            p.cur.pos = SORTED_DELTA.len() - 1;
            out.s[1] = tok(string(p)?);
            (Some(t != T::ToolCallArgs), &DELTA_ID_TYPE)
        }
        T::TextMessageStart | T::TextMessageEnd => {
            if !holds(input, 0, SORTED_MESSAGE_ID) {
                return None;
            }
            p.cur.pos = SORTED_MESSAGE_ID.len() - 1;
            out.s[0] = tok(string(p)?);
            if t == T::TextMessageEnd {
                (None, &ID_TYPE)
            } else if holds(input, p.cur.pos, SORTED_ASSISTANT) {
                p.cur.pos += SORTED_ASSISTANT.len();
                out.role = Some(Role::Assistant);
                (None, &ID_ROLE_TYPE)
            } else {
                return None;
            }
        }
        T::ToolCallEnd => {
            if !holds(input, 0, SORTED_TOOL_CALL_ID) {
                return None;
            }
            p.cur.pos = SORTED_TOOL_CALL_ID.len() - 1;
            out.s[0] = tok(string(p)?);
            (None, &ID_TYPE)
        }
        _ => return None,
    };
    if let Some(message) = id_key {
        let at = p.cur.pos;
        p.cur.pos += if message && holds(input, at, MESSAGE_ID) {
            MESSAGE_ID.len() - 1
        } else if !message && holds(input, at, TOOL_CALL_ID) {
            TOOL_CALL_ID.len() - 1
        } else {
            return None;
        };
        out.s[0] = tok(string(p)?);
    }
    if p.cur.pos + 1 != type_at || input.get(p.cur.pos) != Some(&b',') {
        return None;
    }
    out.order = Some(tail);
    Some(())
}

/// [`type_at_end`] for the shapes [`sorted_template`] reads, by their first key and the
/// whole of their last member, `,"type":"…"}`, compared as bytes; `None` for any other.
#[inline(always)]
fn compact_type(input: &[u8]) -> Option<(EventType, usize)> {
    use EventType as T;
    #[inline(always)]
    fn ends<const N: usize>(input: &[u8], last: &[u8; N], t: T) -> Option<(T, usize)> {
        // The `type` key starts after the comma.
        let at = input.len().checked_sub(N)?;
        holds(input, at, last).then_some((t, at + 1))
    }
    if holds(input, 0, SORTED_DELTA) {
        ends(input, LAST_TEXT_CONTENT, T::TextMessageContent)
            .or_else(|| ends(input, LAST_TOOL_ARGS, T::ToolCallArgs))
    } else if holds(input, 0, SORTED_MESSAGE_ID) {
        ends(input, LAST_TEXT_END, T::TextMessageEnd)
            .or_else(|| ends(input, LAST_TEXT_START, T::TextMessageStart))
    } else if holds(input, 0, SORTED_TOOL_CALL_ID) {
        ends(input, LAST_TOOL_END, T::ToolCallEnd)
    } else {
        None
    }
}

/// The type named by the last member of the object `input` holds, `"type":"…"` (spaces
/// around the colon and before the comma allowed, no escapes), and where its key starts;
/// `None` when the object ends otherwise. Only bytes are looked at: [`fields_loop`] then
/// reads every member, and takes the type only if it meets this key there.
fn type_at_end(input: &[u8]) -> Option<(EventType, usize)> {
    let mut i = input.len();
    #[inline(always)]
    fn back(input: &[u8], i: &mut usize, want: u8) -> Option<()> {
        while *i > 0 && matches!(input[*i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            *i -= 1;
        }
        (*i > 0 && input[*i - 1] == want).then(|| *i -= 1)
    }
    let back = |i: &mut usize, want: u8| back(input, i, want);
    back(&mut i, b'}')?;
    back(&mut i, b'"')?;
    // Type names are capitals and underscores, at most 32 of them (any other bytes name no
    // type).
    let name_end = i;
    let from = name_end.saturating_sub(33);
    i = from + memchr::memrchr(b'"', input.get(from..name_end)?)?;
    let t = EventType::from_name_bytes(input.get(i + 1..name_end)?)?;
    back(&mut i, b':')?;
    back(&mut i, b'"')?;
    let key = i.checked_sub(5)?;
    (input.get(key..i)? == b"\"type").then_some(())?;
    i = key;
    let at = i;
    back(&mut i, b',')?;
    Some((t, at))
}

/// The fields after the first member (`ANY_ORDER`: from the first key, the cursor at it),
/// read into `out` until the closing brace. In the canonical order only, each after the
/// last (a duplicate or any other order gives up); or (`ANY_ORDER`) in any order, each once,
/// recorded in `wire`, `type` only as the key at `type_at`.
#[inline(always)]
fn fields_loop<'a, const ANY_ORDER: bool>(
    p: &mut Parser<'a, '_>,
    t: EventType,
    first: usize,
    type_at: usize,
    wire: &mut Wire,
    out: &mut Fields<'a>,
) -> Option<()> {
    // `type` is field 0; each field must come after the last one.
    let mut last = 0;
    let mut seen = 0u64;
    let mut first_member = ANY_ORDER;
    loop {
        if first_member {
            first_member = false;
        } else {
            p.cur.skip_ws();
            match p.cur.peek() {
                Some(b',') => p.cur.pos += 1,
                Some(b'}') => {
                    p.cur.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        p.cur.skip_ws();
        let key_at = p.cur.pos;
        let f = fields::field(next_key(p)?)?;
        let id = fields::id(t, f)?;
        if ANY_ORDER {
            let bit = 1u64.checked_shl(id as u32)?;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            *wire.ids.get_mut(wire.len)? = id as u32;
            wire.len += 1;
            if f == F::Type {
                if key_at != type_at {
                    return None;
                }
                // The name [`type_at_end`] read, now read as a string.
                string(p)?;
                continue;
            }
        } else {
            if id <= last {
                return None;
            }
            last = id;
        }
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
                let v = string(p)?;
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
    // (`ANY_ORDER`: the `type` read first, met.)
    (!ANY_ORDER || seen & 1 != 0).then_some(())
}

/// Nothing but whitespace after the object.
#[inline(always)]
fn at_end(p: &mut Parser<'_, '_>, input: &[u8]) -> Option<()> {
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
        order,
    } = f;
    let opt = |t: Tok<'a>| t.map(|(raw, escaped)| Str::from_validated(raw, escaped));
    let base = EventBase {
        timestamp,
        raw_event,
        metadata,
        subagent_run_id: opt(subagent_run_id),
        extra: order.map_or_else(Default::default, Extra::shared),
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
