//! AG-UI events: the borrowed model of all 31 event types of protocol 1.0, their parser and
//! their writer.
//!
//! An agent streams its run as events, one JSON object per SSE frame (see [`crate::sse`] for the
//! framing). [`Event::parse`] reads one into the [`Event`] enum; the crate's writer
//! ([`WriteJson`](crate::WriteJson), implemented by [`Event`] and every event type) writes it
//! back as compact JSON, byte for byte when the input was compact. Parsing follows the rules of the rest of the crate: strings borrow from
//! the input (unescaped only on demand), JSON-valued fields (`snapshot`, `delta`, `patch`,
//! `rawEvent`, `value`, `event`, `result`, `content` of activities, `metadata`) are validated
//! [`RawJson`](crate::RawJson) slices, messages (`MESSAGES_SNAPSHOT`) and the `RunAgentInput`
//! (`RUN_STARTED.input`) are the crate's [`Message`](crate::Message) and
//! [`RunAgentInput`](crate::RunAgentInput), and unknown fields are kept in order.
//!
//! ```
//! use agui_wire::{Event, Bump};
//! let arena = Bump::new();
//! let frame = br#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1",
//!   "content":[{"type":"text","text":"72F"}],"x-trace":"abc"}"#;
//! let ev = Event::parse(frame, &arena)?;
//! let Event::ToolCallResult(r) = &ev else { unreachable!() };
//! assert_eq!(r.content.parts().len(), 1);
//! assert_eq!(ev.to_json(), r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":[{"type":"text","text":"72F"}],"x-trace":"abc"}"#);
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! ## What is checked
//! - `type` is required. A type AG-UI 1.0 does not define is **not** an error: the event is kept
//!   as [`Event::Unknown`] with all its fields. That includes the `THINKING_*` events, which 1.0
//!   removed (both 1.0 SDKs reject them; the TypeScript client translates them into
//!   `REASONING_*` events with invented ids); a caller that wants them can read them from the
//!   `Unknown` variant.
//! - Required fields, JSON types, discriminators (`role` of text messages: developer, system,
//!   assistant or user; `outcome.type`; `subtype`; patch `op`), `interrupts` not empty.
//! - `timestamp` is an integer within ±(2^53 − 1). Like both SDKs, any integral spelling is
//!   read (`1.0`, `1e3`; written back as `1`, `1000`); `1.5`, `2^53` and `"12"` are errors.
//! - `metadata` is an object; an optional field is absent or has a value, never `null`, unless
//!   [`ParseOptions::null_as_absent`](crate::ParseOptions::null_as_absent) is on (the Python
//!   SDK's leniency, which also covers the legacy `parentMessageId: null` and `outcome: null`).
//!   Required "any" fields (`snapshot`, `value`, `event`) may be `null` but must be present.
//! - `STATE_DELTA.delta` and `ACTIVITY_DELTA.patch` are RFC 6902 patches: arrays of objects with
//!   `op` in add/remove/replace/move/copy/test, `path` (and `from` for move/copy) JSON Pointers,
//!   `value` present for add/replace/test. They are kept raw; [`crate::reducer`] applies them.
//! - `subagentRunId` is read on every event but `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and
//!   `MESSAGES_SNAPSHOT`, where it is an unknown field (kept in `extra`), and is required on the
//!   `SUBAGENT_*` events.

mod event_type;
pub(crate) mod fast;
mod fields;
mod model;
mod outcome;
mod parse;
mod slot;
pub(crate) mod small;
mod write;

pub use event_type::EventType;
pub use model::*;
pub use outcome::{Interrupt, RunOutcome, SubagentOutcome, TokenUsage};
pub use parse::MAX_SAFE_INTEGER;
pub use slot::EventSlot;
