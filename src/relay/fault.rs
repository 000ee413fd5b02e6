//! Why a relay ended a stream early: [`RelayFault`], and the `RUN_ERROR` frame that says so.

use std::fmt;

use crate::Str;
use crate::events::{Event, EventBase, RunErrorEvent};
use crate::writer::to_vec;

/// What kind of upstream fault ended a relayed stream; its [`code`](FaultKind::code) is the
/// `code` of the `RUN_ERROR` the client receives.
///
/// ```
/// use agui_wire::relay::FaultKind;
/// assert_eq!(FaultKind::InvalidEvent.code(), "UPSTREAM_INVALID_EVENT");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    /// The SSE framing is broken: a frame longer than the limit, an `event` or `id` value that
    /// is not UTF-8, or (with a strict end of stream) a last frame without its blank line.
    InvalidSse,
    /// A frame's data is not a valid AG-UI event (JSON grammar, UTF-8, or the event's schema).
    InvalidEvent,
    /// The event breaks an event-order rule ([`EventOrder`](crate::reducer::EventOrder)).
    EventOrder,
    /// The upstream ended before the run did: no `RUN_FINISHED` or `RUN_ERROR` after the last
    /// `RUN_STARTED`, or no event at all.
    Truncated,
}

impl FaultKind {
    /// The `RUN_ERROR` `code`: `UPSTREAM_INVALID_SSE`, `UPSTREAM_INVALID_EVENT`,
    /// `UPSTREAM_EVENT_ORDER` or `UPSTREAM_TRUNCATED`.
    ///
    /// ```
    /// use agui_wire::relay::FaultKind;
    /// assert_eq!(FaultKind::Truncated.code(), "UPSTREAM_TRUNCATED");
    /// ```
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            FaultKind::InvalidSse => "UPSTREAM_INVALID_SSE",
            FaultKind::InvalidEvent => "UPSTREAM_INVALID_EVENT",
            FaultKind::EventOrder => "UPSTREAM_EVENT_ORDER",
            FaultKind::Truncated => "UPSTREAM_TRUNCATED",
        }
    }
}

/// An upstream fault that made a relay end the stream: its kind, the index of the upstream
/// event concerned (counted from 0 over every event the upstream sent, dropped ones included;
/// for a truncation, the number of events received), the stream byte offset, and the message
/// of the `RUN_ERROR` that was sent.
///
/// ```
/// use bytes::Bytes;
/// use agui_wire::relay::{FaultKind, Relay, RelayOptions};
/// let mut relay = Relay::new(RelayOptions::new());
/// let mut out = Vec::new();
/// relay.feed(Bytes::from_static(b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: nope\n\n"), &mut out);
/// let fault = relay.fault().unwrap();
/// assert_eq!((fault.kind(), fault.index(), fault.offset()), (FaultKind::InvalidEvent, 1, 57));
/// assert!(fault.message().starts_with("upstream event 1 (byte 57) is invalid: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayFault {
    pub(super) kind: FaultKind,
    pub(super) index: usize,
    pub(super) offset: u64,
    pub(super) message: String,
}

impl RelayFault {
    /// The kind of fault.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use agui_wire::relay::{FaultKind, Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// relay.finish(&mut Vec::new());
    /// assert_eq!(relay.fault().unwrap().kind(), FaultKind::Truncated);
    /// ```
    #[must_use]
    pub fn kind(&self) -> FaultKind {
        self.kind
    }

    /// The index of the upstream event concerned (see the type's docs).
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// relay.finish(&mut Vec::new());
    /// assert_eq!(relay.fault().unwrap().index(), 0);
    /// ```
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The upstream stream byte offset: the first byte of the faulty frame, or the end of the
    /// stream for a truncation.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// relay.finish(&mut Vec::new());
    /// assert_eq!(relay.fault().unwrap().offset(), 0);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The `RUN_ERROR` message sent to the client.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// relay.finish(&mut Vec::new());
    /// assert_eq!(relay.fault().unwrap().message(), "upstream ended without any event (byte 0)");
    /// ```
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The SSE frame of the `RUN_ERROR` event: `data: {"type":"RUN_ERROR","message":...,"code":...}`
    /// and a blank line.
    pub(super) fn frame(&self) -> Vec<u8> {
        let event = Event::RunError(RunErrorEvent {
            base: EventBase::default(),
            message: Str::new(&self.message),
            code: Some(Str::new(self.kind.code())),
            usage: None,
        });
        let json = to_vec(&event);
        let mut out = Vec::with_capacity(json.len() + 8);
        crate::sse::encode_frame(&mut out, &json);
        out
    }
}

impl fmt::Display for RelayFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.kind.code())
    }
}

impl std::error::Error for RelayFault {}
