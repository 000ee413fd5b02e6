//! The event reducer: a run's events folded into the conversation (`messages`) and the shared
//! `state`, the way the official TypeScript client (`@ag-ui/client`, `defaultApplyEvents`)
//! builds them: checked against 1.0.4, with the differences listed below.
//!
//! ```
//! use agui_wire::{Event, Bump, reducer::Reducer};
//! let stream = [
//!     r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
//!     r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
//!     r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}"#,
//!     r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":", world"}"#,
//!     r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
//!     r#"{"type":"STATE_SNAPSHOT","snapshot":{"count":1}}"#,
//!     r#"{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","value":2}]}"#,
//!     r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
//! ];
//! let mut reducer = Reducer::new();
//! for frame in stream {
//!     let arena = Bump::new();
//!     reducer.apply(&Event::parse(frame.as_bytes(), &arena)?)?;
//! }
//! assert_eq!(reducer.to_json(),
//!     r#"{"messages":[{"id":"m1","role":"assistant","content":"Hello, world"}],"state":{"count":2}}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## What it does, event by event
//! Each event first goes through chunk expansion (`*_CHUNK` events become start, content and
//! end events, per subagent lane), then through the event-order checks of the client's
//! `verifyEvents` (a [`ReduceError`] names the offending event's index), then is applied:
//!
//! - `TEXT_MESSAGE_START` creates a message (role as given, `assistant` when absent, empty
//!   `content`) unless one with the id exists; `TEXT_MESSAGE_CONTENT` appends `delta`;
//!   `REASONING_MESSAGE_*` do the same with `role: "reasoning"`.
//! - `TOOL_CALL_START` adds `{id, type: "function", function: {name, arguments: ""}}` to the
//!   assistant message `parentMessageId` names (creating it, with that id, when absent; keyed by
//!   the tool call id when there is no parent); `TOOL_CALL_ARGS` appends to `arguments`;
//!   `TOOL_CALL_RESULT` inserts a tool message right after the assistant message that made the
//!   call (and the tool messages already there), or at the end.
//! - `STATE_SNAPSHOT` replaces the state; `STATE_DELTA` applies its RFC 6902 patch atomically
//!   (a patch that does not apply leaves the state as it was and is reported in
//!   [`Reducer::warnings`]).
//! - `MESSAGES_SNAPSHOT` replaces the messages with the snapshot's, keeping messages it does not
//!   mention only when they are activity messages (and the snapshot carries none, or its
//!   `metadata["@ag-ui/client"].authoritativeActivityTypes` does not claim their type) or
//!   reasoning messages (and the snapshot carries none); then a tool result that stands after
//!   a later turn than the assistant message whose call it answers moves back to that turn's
//!   end, before its trailing reasoning messages (as the client does from 1.0.4).
//! - `ACTIVITY_SNAPSHOT` creates or (unless `replace: false`) replaces an activity message;
//!   `ACTIVITY_DELTA` patches its content.
//! - `RUN_STARTED.input.messages` are appended when their id is new; `REASONING_ENCRYPTED_VALUE`
//!   sets `encryptedValue` on the message or tool call it names.
//! - `metadata` of the events that build a message or a tool call is merged into it by the
//!   protocol's rule: shallow, key by key, last write wins.
//!
//! Events arrive parsed ([`Reducer::apply`]) or as JSON text ([`Reducer::apply_json`], which
//! reads them as the client's enforcement stage does: a JSON Patch operation, message or
//! content part with an unknown `op`, `role` or `type` is dropped with a warning). The order
//! checks alone, without messages or state, are [`EventOrder`].
//!
//! ## Bounds
//! Every event costs time in proportion to its own size. A JSON Patch (`STATE_DELTA`,
//! `ACTIVITY_DELTA`) applies atomically, as the client's does, but in place with an undo log,
//! not on a copy of the document: it costs its own operations, plus what it copies, plus a walk
//! of what it removed or replaced once it has gone through (dropping that costs as much; a
//! failing patch is undone without it), plus, for a patch that moves a value deeper, one walk
//! of the result to check its depth. An insertion or removal before the end of an array moves
//! the elements after it (as the client's `splice` does): those moves, copies and depth walks
//! draw on an allowance that grows with each event ([`ReduceOptions::max_moved_per_event`]). Objects are indexed by key, messages and tool calls by
//! id, open streams live in hash sets. The state is bounded by [`ReduceOptions::max_state_bytes`], warnings by
//! [`ReduceOptions::max_warnings`], nesting by [`ReduceOptions::max_depth`]; no operation
//! recurses. A `TOOL_CALL_RESULT` for a call made before later messages goes before them
//! without moving them (the client `splice`s it in); the list is put in one piece when read
//! (see [`Reducer::messages`]). A `MESSAGES_SNAPSHOT` walks every message already there, as
//! the client does, including the activity and reasoning messages it keeps without carrying
//! them: what the snapshots walk beyond what they carry is drawn from an allowance that grows
//! with each event ([`ReduceOptions::max_kept_per_event`]), so a stream of small snapshots over
//! a long conversation is refused before its cost passes a fixed multiple of its length.
//!
//! ## Where it differs from the TypeScript client
//! - Unknown fields of messages (in snapshots, `RUN_STARTED.input` and tool results) are kept;
//!   the client's enforcement stage strips them. Set
//!   [`ReduceOptions::keep_unknown_fields`] to `false` for the client's output. Kept or not,
//!   they never change what known events do (a `toolCalls` field on a user message holds no
//!   tool call for `TOOL_CALL_*` events).
//! - `THINKING_*` events (removed in 1.0) are ignored like any unknown event; the client
//!   translates them to `REASONING_*` events with random ids.
//! - Legacy `binary` content parts are kept as they are; the client upgrades them to media parts.
//! - As 1.0.4 (1.0.0 differs): a new `TOOL_CALL_RESULT` goes after the latest assistant
//!   message calling for it with no result yet (else the latest calling for it) and the tool
//!   and activity messages after that one; one with the `messageId` and `toolCallId` of a
//!   result already there replaces it in place; a `TOOL_CALL_START` for a call already made
//!   starts it afresh (its next `TOOL_CALL_ARGS` replaces the arguments).
//! - `null` in an optional field: the client (1.0.4) reads it as absent, with a warning, in a
//!   fixed list of fields (`rawEvent` and `subagentRunId` of any event,
//!   `RUN_STARTED.parentRunId` and `input`, `RUN_FINISHED.outcome` and its
//!   `pendingToolCallIds`, `RUN_ERROR.usage`, `TOOL_CALL_RESULT.role`, among others) and
//!   rejects it elsewhere. Events parsed with the default [`ParseOptions`] reject every such
//!   `null`, as the protocol says; [`ParseOptions::lenient`] reads each one as absent, those
//!   of the client's list included.
//! - JSON Patch follows RFC 6902 where `fast-json-patch` is looser: array indices with leading
//!   zeros or empty, and `move`/`copy` to an index past the end, are errors here.
//! - Object members keep their insertion order; JavaScript lists integer-like keys (`"0"`,
//!   `"42"`) first, in numeric order, so the client's `JSON.stringify` may order such keys
//!   differently (the values are the same).
//! - The initial state is `{}` and the initial message list empty, as for a new `HttpAgent`;
//!   [`Reducer::with_state`] and [`Reducer::with_messages`] change them.

mod apply;
mod chunks;
mod enforce;
mod error;
mod index;
mod json;
mod list;
mod object;
mod order;
mod pairing;
mod patch;
mod stats;
mod strip;
mod verify;
mod walk;

pub use error::{Entity, ReduceError, ReduceErrorKind, ReduceWarning};
pub use json::Json;
pub use object::JsonObject;
pub use order::EventOrder;
pub use patch::{DEFAULT_MAX_BYTES, PatchError, apply_patch};

use std::collections::{HashMap, HashSet};

use list::At;
use verify::text;

use crate::ParseOptions;
use crate::events::*;
use crate::model::{Message, RawJson, Role};
use crate::writer::{Sink, WriteJson};

/// An allowance of `per_event` for each of the `seen` events applied, plus `credit` (at most
/// `i64::MAX`: a `per_event` of `usize::MAX`, "no limit", stays the largest).
fn allowance(per_event: usize, seen: usize, credit: i64) -> u64 {
    let wide = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    wide(per_event)
        .saturating_mul(wide(seen))
        .saturating_add(credit)
        .max(0)
        .unsigned_abs()
}

/// A small deterministic generator for the randomized unit tests (xorshift): each call gives a
/// number below its argument, so that a failing round is reproducible.
#[cfg(test)]
pub(crate) fn test_rng(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// Units of work (key comparisons, hash probes, tree nodes visited, messages scanned) the
/// reducer has done on the calling thread. For tests that check a path grows linearly by
/// comparing the counts at two input sizes; not a stable API.
///
/// ```
/// let before = agui_wire::reducer::work_done();
/// agui_wire::reducer::Json::parse("[1,2]").unwrap();
/// assert!(agui_wire::reducer::work_done() > before);
/// ```
#[doc(hidden)]
pub fn work_done() -> u64 {
    stats::total()
}

/// Settings of a [`Reducer`].
///
/// ```
/// use agui_wire::reducer::{Reducer, ReduceOptions};
/// let r = Reducer::with_options(ReduceOptions { keep_unknown_fields: false, ..Default::default() });
/// assert!(r.messages().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReduceOptions {
    /// Keep fields the protocol does not define on messages, tool calls and content parts
    /// (default `true`, agui-wire's rule everywhere). `false` drops them, as the TypeScript
    /// client's enforcement stage does.
    pub keep_unknown_fields: bool,
    /// The deepest nesting of any message or of the state (default 512, at most 1024).
    pub max_depth: usize,
    /// The largest state, and the largest content of an activity message, in bytes of memory
    /// as [`Json::approx_size`] estimates them (default 256 MiB, [`DEFAULT_MAX_BYTES`]). The size is kept up to date operation by operation, and a
    /// `STATE_SNAPSHOT`, `STATE_DELTA` or `ACTIVITY_DELTA` that would pass it is an error of
    /// that event ([`ReduceErrorKind::TooLarge`]); a `copy` is measured before it is made, so
    /// a small patch that doubles a value again and again fails without allocating.
    pub max_state_bytes: usize,
    /// How many warnings [`Reducer::warnings`] keeps (default 1000); later ones are only
    /// counted ([`Reducer::warnings_dropped`]), so a stream that keeps sending ignored events
    /// does not grow the reducer's memory.
    pub max_warnings: usize,
    /// For [`Reducer::apply_json`]: reject an event that holds a JSON Patch operation with an
    /// unknown `op`, a message with an unknown `role` or a content part with an unknown `type`
    /// (the parser's verdict), instead of dropping that item with a warning and applying the
    /// rest, as the TypeScript client's enforcement stage does (default `false`).
    pub strict_variants: bool,
    /// How many messages a `MESSAGES_SNAPSHOT` may keep beyond the ones it carries, on average
    /// per event applied (default 256). A snapshot keeps the activity and reasoning messages it
    /// does not carry, and every message sharing an id with one it carries, and walks all of
    /// them (as the client does), so a stream of small snapshots over many such messages would
    /// cost the square of its length. Each snapshot draws the messages already there beyond
    /// the ones it carries from an allowance of this many per event applied so far, plus one
    /// per message that entered the list otherwise (so a snapshot may drop what came before);
    /// one that would overdraw it is an error of that event ([`ReduceErrorKind::KeptTooMuch`]).
    /// A stream whose snapshots carry the conversation draws about the activity messages it
    /// has.
    pub max_kept_per_event: usize,
    /// How many values JSON Patch operations (`STATE_DELTA`, `ACTIVITY_DELTA`) may move or
    /// copy beyond what they carry, on average per event applied (default 16 384). An
    /// insertion or removal before the end of an array moves every element after it (as
    /// JavaScript's `splice` does), a `copy` copies its value, and the depth check after a
    /// `move` to a deeper path walks the document: a stream of small patches doing so over a
    /// big state would cost the square of its length. The allowance also grows by the bytes of
    /// the values snapshots and patches bring (so a big array may be edited right after the
    /// snapshot that brought it). A patch that would overdraw it is undone and is an error of
    /// its event ([`ReduceErrorKind::MovedTooMuch`]).
    pub max_moved_per_event: usize,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        ReduceOptions {
            keep_unknown_fields: true,
            max_depth: 512,
            max_state_bytes: DEFAULT_MAX_BYTES,
            max_warnings: 1000,
            strict_variants: false,
            max_kept_per_event: 256,
            max_moved_per_event: 16 << 10,
        }
    }
}

/// Folds events into `messages` and `state`. See the [module docs](self). `Reducer` is
/// `Send + Sync`.
///
/// ```
/// use agui_wire::{Event, Bump, reducer::Reducer};
/// let arena = Bump::new();
/// let mut r = Reducer::new();
/// for frame in [
///     &br#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#[..],
///     br#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"search","delta":"{\"q\":"}"#,
///     br#"{"type":"TOOL_CALL_CHUNK","delta":"\"lyon\"}"}"#,
///     br#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"3 hotels"}"#,
/// ] {
///     r.apply(&Event::parse(frame, &arena)?)?;
/// }
/// let call = &r.messages()[0].get("toolCalls").unwrap().as_array().unwrap()[0];
/// assert_eq!(call.get("function").unwrap().get("arguments").unwrap().as_str(), Some(r#"{"q":"lyon"}"#));
/// assert_eq!(r.messages()[1].get("role").unwrap().as_str(), Some("tool"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reducer {
    messages: list::Messages,
    state: Json,
    opts: ReduceOptions,
    seen: usize,
    order: EventOrder,
    warnings: Vec<ReduceWarning>,
    warnings_dropped: usize,
    /// The state's [`Json::approx_size`], kept up to date.
    state_bytes: usize,
    failed: Option<ReduceError>,
    /// The [`Json::approx_size`] of activity messages' content, by message id, once an
    /// `ACTIVITY_DELTA` or `ACTIVITY_SNAPSHOT` has measured it (so that a delta does not walk
    /// the whole content again).
    activity_bytes: HashMap<String, usize>,
    /// [`ReduceOptions::max_kept_per_event`]'s allowance beyond its per-event part: one per
    /// message that entered the list other than by a snapshot (appended, placed, or given to
    /// [`Reducer::with_messages`]: a snapshot may drop each once), less what snapshots drew.
    kept_credit: i64,
    /// [`ReduceOptions::max_moved_per_event`]'s allowance beyond its per-event part: the bytes
    /// of the JSON values snapshots and patches carried in (so that a patch right after a big
    /// snapshot may move as much as it brought), less what patches drew.
    moved_credit: i64,
    /// Tool calls started again after they were made (by an earlier start, a snapshot or the
    /// run's input): their next `TOOL_CALL_ARGS` replaces the arguments.
    restarted: HashSet<String>,
}

/// Writes `{"messages":[...],"state":...}` as compact JSON.
///
/// ```
/// use agui_wire::{WriteJson, reducer::Reducer};
/// assert_eq!(Reducer::new().to_json_vec(), br#"{"messages":[],"state":{}}"#);
/// ```
impl WriteJson for Reducer {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        out.push(b"{\"messages\":[");
        for (i, m) in self.messages.read().iter().enumerate() {
            if i > 0 {
                out.push(b",");
            }
            m.write_json(out);
        }
        out.push(b"],\"state\":");
        self.state.write_json(out);
        out.push(b"}");
    }
}

impl Default for Reducer {
    fn default() -> Self {
        Reducer::new()
    }
}

impl Reducer {
    /// A reducer with no messages, the state `{}` and the default options.
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert_eq!(Reducer::new().to_json(), r#"{"messages":[],"state":{}}"#);
    /// ```
    pub fn new() -> Reducer {
        Reducer::with_options(ReduceOptions::default())
    }

    /// A reducer with the given options.
    ///
    /// ```
    /// # use agui_wire::reducer::{Reducer, ReduceOptions};
    /// let r = Reducer::with_options(ReduceOptions::default());
    /// assert_eq!(r.events_seen(), 0);
    /// ```
    pub fn with_options(mut opts: ReduceOptions) -> Reducer {
        opts.max_depth = opts.max_depth.min(1024);
        Reducer {
            messages: list::Messages::default(),
            state: Json::object(),
            opts,
            seen: 0,
            order: EventOrder::new(),
            warnings: Vec::new(),
            warnings_dropped: 0,
            state_bytes: Json::object().approx_size(),
            failed: None,
            activity_bytes: HashMap::new(),
            kept_credit: 0,
            moved_credit: 0,
            restarted: HashSet::new(),
        }
    }

    /// Starts from `state` instead of `{}` (the agent's state before the run).
    ///
    /// ```
    /// # use agui_wire::reducer::{Reducer, Json};
    /// let r = Reducer::new().with_state(Json::Null);
    /// assert_eq!(r.state(), &Json::Null);
    /// ```
    pub fn with_state(mut self, state: Json) -> Reducer {
        self.state_bytes = state.approx_size();
        self.state = state;
        self
    }

    /// Starts from `messages` (the conversation before the run, as JSON objects).
    ///
    /// ```
    /// # use agui_wire::reducer::{Reducer, Json};
    /// let m = Json::parse(r#"{"id":"u1","role":"user","content":"hi"}"#).unwrap();
    /// assert_eq!(Reducer::new().with_messages(vec![m]).messages().len(), 1);
    /// ```
    pub fn with_messages(mut self, messages: Vec<Json>) -> Reducer {
        self.kept_credit = self.kept_credit.saturating_add(messages.len() as i64);
        self.list().set_all(messages);
        self.activity_bytes = HashMap::new();
        self
    }

    /// The messages so far, as JSON objects.
    ///
    /// A tool result for a call made before later messages is kept aside until the list is
    /// read (so that placing it does not move the messages after it); the first read after
    /// such results puts the list in one piece, a pass over it. Other reads cost nothing.
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert!(Reducer::new().messages().is_empty());
    /// ```
    pub fn messages(&self) -> &[Json] {
        self.messages.read()
    }

    /// The state so far.
    ///
    /// ```
    /// # use agui_wire::reducer::{Reducer, Json};
    /// assert_eq!(Reducer::new().state(), &Json::object());
    /// ```
    pub fn state(&self) -> &Json {
        &self.state
    }

    /// What the reducer ignored or applied only in part, in order.
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert!(Reducer::new().warnings().is_empty());
    /// ```
    pub fn warnings(&self) -> &[ReduceWarning] {
        &self.warnings
    }

    /// How many warnings were counted but not kept, past
    /// [`ReduceOptions::max_warnings`].
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert_eq!(Reducer::new().warnings_dropped(), 0);
    /// ```
    pub fn warnings_dropped(&self) -> usize {
        self.warnings_dropped
    }

    /// How many events [`Reducer::apply`] has been given.
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert_eq!(Reducer::new().events_seen(), 0);
    /// ```
    pub fn events_seen(&self) -> usize {
        self.seen
    }

    /// Applies one event.
    ///
    /// On an error the messages and state are left as they were before the event, and the
    /// reducer stops: every later call returns the same error (the TypeScript client ends the
    /// run at the first error too).
    ///
    /// ```
    /// use agui_wire::{Event, Bump, reducer::Reducer};
    /// let arena = Bump::new();
    /// let mut r = Reducer::new();
    /// r.apply(&Event::parse(br#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#, &arena)?).unwrap();
    /// let err = r.apply(&Event::parse(br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c9","delta":"{}"}"#, &arena)?).unwrap_err();
    /// assert_eq!(err.to_string(), "event 1: TOOL_CALL_ARGS for tool call \"c9\", which is not in progress");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn apply(&mut self, event: &Event<'_>) -> Result<(), ReduceError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let index = self.seen;
        self.seen += 1;
        let fail = |this: &mut Reducer, kind| {
            let err = ReduceError::new(index, kind);
            this.failed = Some(err.clone());
            Err(err)
        };
        // Chunk expansion and the order checks; events of types 1.0 does not define are
        // dropped, as by the client's enforcement.
        let steps = match self.order.admit(event) {
            Ok(Some(steps)) => steps,
            Ok(None) => return Ok(()),
            Err(err) => {
                self.failed = Some(err.clone());
                return Err(err);
            }
        };
        // `reduce` does everything that can fail before it changes anything, and the events
        // before the last of an expansion are synthesized ends (which carry no values), so a
        // failure leaves the messages and the state as they were.
        for step in steps.iter() {
            if let Err(kind) = self.reduce(index, step) {
                return fail(self, kind);
            }
        }
        Ok(())
    }

    /// Parses one event from its JSON text (an SSE frame's data) and applies it, reading it
    /// the way the TypeScript client does: a JSON Patch operation with an unknown `op` (in
    /// `STATE_DELTA` or `ACTIVITY_DELTA`), a message with an unknown `role` (in
    /// `MESSAGES_SNAPSHOT` or `RUN_STARTED.input`) or a content part with an unknown `type`
    /// is dropped, with a warning naming the event and the item, and the rest of the event
    /// applies. With [`ReduceOptions::strict_variants`] such an event is an error, as is any
    /// event the parser rejects ([`ReduceErrorKind::Invalid`]).
    ///
    /// ```
    /// use agui_wire::{ParseOptions, reducer::Reducer};
    /// let mut r = Reducer::new();
    /// let opts = ParseOptions::default();
    /// r.apply_json(br#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#, &opts).unwrap();
    /// r.apply_json(br#"{"type":"STATE_DELTA","delta":[{"op":"merge","path":"/a","value":1},
    ///                 {"op":"add","path":"/b","value":2}]}"#, &opts).unwrap();
    /// assert_eq!(r.state().to_string(), r#"{"b":2}"#);
    /// assert_eq!(r.warnings()[0].to_string(),
    ///     "event 1: STATE_DELTA: dropped delta[0] (unknown op \"merge\"), as the TypeScript client does");
    /// assert!(r.apply_json(b"not json", &opts).is_err());
    /// ```
    pub fn apply_json(&mut self, frame: &[u8], options: &ParseOptions) -> Result<(), ReduceError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let arena = bumpalo::Bump::new();
        let parsed = if self.opts.strict_variants {
            Event::parse_with(frame, &arena, options).map(|ev| (ev, Vec::new()))
        } else {
            enforce::parse(frame, &arena, options)
        };
        match parsed {
            Ok((event, dropped)) => {
                let name = event.type_name().into_owned();
                for d in dropped {
                    let message = format!(
                        "{name}: dropped {} ({}), as the TypeScript client does",
                        d.path, d.why
                    );
                    self.warn(self.seen, message);
                }
                self.apply(&event)
            }
            Err(error) => {
                let err = ReduceError::new(self.seen, ReduceErrorKind::Invalid { error });
                self.seen += 1;
                self.failed = Some(err.clone());
                Err(err)
            }
        }
    }

    /// `{"messages":[...],"state":...}` as a compact JSON string (the bytes of
    /// [`WriteJson::to_json_vec`]).
    ///
    /// ```
    /// # use agui_wire::reducer::Reducer;
    /// assert!(Reducer::new().to_json().starts_with(r#"{"messages":"#));
    /// ```
    pub fn to_json(&self) -> String {
        String::from_utf8_lossy(&self.to_json_vec()).into_owned()
    }

    /// The messages and the state, taken out.
    ///
    /// ```
    /// # use agui_wire::reducer::{Reducer, Json};
    /// let (messages, state) = Reducer::new().into_parts();
    /// assert!(messages.is_empty() && state == Json::object());
    /// ```
    pub fn into_parts(self) -> (Vec<Json>, Json) {
        (self.messages.into_vec(), self.state)
    }

    fn warn(&mut self, index: usize, message: String) {
        if self.warnings.len() < self.opts.max_warnings {
            self.warnings.push(ReduceWarning { index, message });
        } else {
            self.warnings_dropped += 1;
        }
    }

    fn patch_limits(&self, max_depth: usize) -> patch::Limits {
        patch::Limits {
            max_depth,
            max_bytes: self.opts.max_state_bytes,
            max_moved: allowance(self.opts.max_moved_per_event, self.seen, self.moved_credit),
            moved: std::cell::Cell::new(0),
        }
    }

    /// Adds the bytes of a JSON value an event carried in to the moved-values allowance.
    fn carry(&mut self, bytes: usize) {
        self.moved_credit = self.moved_credit.saturating_add(bytes as i64);
    }

    /// Takes what a patch drew from the allowance, and the error of a patch that overdrew it
    /// or passed the size limit (the patch is undone either way).
    fn patch_done(
        &mut self,
        limits: &patch::Limits,
        result: &Result<usize, PatchError>,
    ) -> Result<(), ReduceErrorKind> {
        self.moved_credit = self.moved_credit.saturating_sub(limits.moved.get() as i64);
        match result {
            Err(err) if err.reason == patch::TOO_LARGE => Err(self.too_large()),
            Err(err) if err.reason == patch::TOO_MUCH_MOVED => Err(ReduceErrorKind::MovedTooMuch {
                per_event: self.opts.max_moved_per_event,
            }),
            _ => Ok(()),
        }
    }

    fn too_large(&self) -> ReduceErrorKind {
        ReduceErrorKind::TooLarge {
            limit: self.opts.max_state_bytes,
        }
    }

    fn tree(&self, raw: &RawJson<'_>) -> Result<Json, ReduceErrorKind> {
        self.tree_within(raw, self.opts.max_depth)
    }

    fn tree_within(&self, raw: &RawJson<'_>, depth: usize) -> Result<Json, ReduceErrorKind> {
        Json::from_validated(raw.as_bytes(), depth).map_err(|_| ReduceErrorKind::TooDeep {
            limit: self.opts.max_depth,
        })
    }

    /// A patch: its values may be as deep as the document (the array and the operation add
    /// two levels).
    fn patch_tree(&self, raw: &RawJson<'_>) -> Result<Json, ReduceErrorKind> {
        self.tree_within(raw, self.opts.max_depth + 2)
    }

    /// The tree of a model value, as the crate's writer writes it.
    fn tree_of(&self, value: &impl WriteJson) -> Result<Json, ReduceErrorKind> {
        Json::from_validated(&value.to_json_vec(), self.opts.max_depth).map_err(|_| {
            ReduceErrorKind::TooDeep {
                limit: self.opts.max_depth,
            }
        })
    }

    fn message_tree(&self, m: &Message<'_>) -> Result<Json, ReduceErrorKind> {
        let mut tree = self.tree_of(m)?;
        if !self.opts.keep_unknown_fields {
            strip::message(&mut tree);
        }
        Ok(tree)
    }

    /// The message list, to change.
    fn list(&mut self) -> &mut list::List {
        self.messages.list()
    }

    fn find(&mut self, id: &str) -> Option<At> {
        self.list().find(id)
    }

    /// Appends a message (keeping the index up to date); returns its place.
    fn push(&mut self, m: Json) -> At {
        self.kept_credit += 1;
        self.list().push(m)
    }

    /// Merges an event's `metadata` into `target` (shallow, last write wins).
    fn merge_metadata(target: &mut Json, incoming: Option<Json>) {
        match (target.get_mut("metadata"), incoming) {
            (_, None) => {}
            (Some(Json::Object(existing)), Some(Json::Object(ref mut members))) => {
                for (k, v) in members.take_members() {
                    existing.insert(k, v);
                }
            }
            (_, Some(new)) => target.set("metadata", new),
        }
    }

    /// The message and tool-call index of the tool call `id`.
    fn find_tool_call(&mut self, id: &str) -> Option<(usize, usize)> {
        self.list().tool_call(id)
    }

    /// The first assistant message holding tool call `id` (only assistant messages hold tool
    /// calls, see the index).
    fn find_assistant_call(&mut self, id: &str) -> Option<(usize, usize)> {
        self.find_tool_call(id)
    }

    fn tool_call_mut(&mut self, (mi, ci): (usize, usize)) -> Option<&mut Json> {
        self.list()[(mi, list::BASE)]
            .get_mut("toolCalls")?
            .as_array_mut()?
            .get_mut(ci)
    }
}
