//! What a [`Relay`](super::Relay) checks and changes: [`RelayOptions`], [`RawPolicy`],
//! [`EventTypeSet`].

use crate::events::EventType;
use crate::parser::ParseOptions;
use crate::sse::SseOptions;

use super::Cursor;

/// What the relay does with raw upstream data: `RAW` events, and the `rawEvent` field any event
/// may carry (both hold the provider's own event, which may include prompts, keys or personal
/// data that a front end should not see).
///
/// ```
/// use agui_wire::relay::{RawPolicy, RelayOptions};
/// let options = RelayOptions::new().with_raw(RawPolicy::Redact);
/// assert_eq!(options.raw(), RawPolicy::Redact);
/// assert_eq!(RelayOptions::new().raw(), RawPolicy::Forward);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RawPolicy {
    /// Forward everything as the upstream wrote it (the default).
    #[default]
    Forward,
    /// Drop `RAW` events, and remove the `rawEvent` field of every other event.
    Drop,
    /// Keep `RAW` events, so a client still sees that one happened and where from, with their
    /// `event` payload replaced by `null` (`source`, `timestamp`, `metadata` and unknown fields
    /// kept); remove the `rawEvent` field of every event.
    Redact,
}

/// A set of [`EventType`]s, for [`RelayOptions::with_drop_types`]. A bit mask: `Copy`, 4 bytes.
///
/// ```
/// use agui_wire::EventType;
/// use agui_wire::relay::EventTypeSet;
/// let set = EventTypeSet::new().with(EventType::StepStarted).with(EventType::StepFinished);
/// assert!(set.contains(EventType::StepStarted));
/// assert!(!set.contains(EventType::Raw));
/// let parsed = EventTypeSet::from_names("STEP_STARTED, STEP_FINISHED")?;
/// assert_eq!(parsed, set);
/// assert!(EventTypeSet::from_names("STEP_BEGUN").is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EventTypeSet(u32);

impl EventTypeSet {
    /// The empty set.
    ///
    /// ```
    /// use agui_wire::relay::EventTypeSet;
    /// assert!(EventTypeSet::new().is_empty());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        EventTypeSet(0)
    }

    fn bit(t: EventType) -> u32 {
        let i = EventType::ALL.iter().position(|x| *x == t).unwrap_or(31);
        1u32 << (i as u32 & 31)
    }

    /// The set with `t` added.
    ///
    /// ```
    /// use agui_wire::{EventType, relay::EventTypeSet};
    /// assert!(EventTypeSet::new().with(EventType::Custom).contains(EventType::Custom));
    /// ```
    #[must_use]
    pub fn with(self, t: EventType) -> Self {
        EventTypeSet(self.0 | Self::bit(t))
    }

    /// Whether `t` is in the set.
    ///
    /// ```
    /// use agui_wire::{EventType, relay::EventTypeSet};
    /// assert!(!EventTypeSet::new().contains(EventType::Custom));
    /// ```
    #[must_use]
    pub fn contains(&self, t: EventType) -> bool {
        self.0 & Self::bit(t) != 0
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use agui_wire::{EventType, relay::EventTypeSet};
    /// assert!(!EventTypeSet::new().with(EventType::Raw).is_empty());
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Parses a comma-separated list of wire names (`"STEP_STARTED,STEP_FINISHED"`; spaces
    /// around names and empty entries are ignored), as a command line gives it.
    ///
    /// # Errors
    ///
    /// A message naming the first entry that is not an AG-UI 1.0 event type.
    ///
    /// ```
    /// use agui_wire::relay::EventTypeSet;
    /// assert_eq!(EventTypeSet::from_names(""), Ok(EventTypeSet::new()));
    /// assert_eq!(
    ///     EventTypeSet::from_names("RAW,NOPE").unwrap_err(),
    ///     "`NOPE` is not an AG-UI event type"
    /// );
    /// ```
    pub fn from_names(names: &str) -> Result<Self, String> {
        let mut set = EventTypeSet::new();
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match EventType::from_name(name) {
                Some(t) => set = set.with(t),
                None => return Err(format!("`{name}` is not an AG-UI event type")),
            }
        }
        Ok(set)
    }
}

/// Settings of a [`Relay`](super::Relay). Everything is off by default except the checks: the
/// relay then forwards the upstream's bytes unchanged, and ends the stream with a `RUN_ERROR`
/// at the first invalid event.
///
/// ```
/// use agui_wire::EventType;
/// use agui_wire::relay::{EventTypeSet, RawPolicy, Relay, RelayOptions};
/// let options = RelayOptions::new()
///     .with_raw(RawPolicy::Drop)
///     .with_drop_types(EventTypeSet::new().with(EventType::StepStarted))
///     .with_cursors(true)
///     .with_max_frame_bytes(1 << 20);
/// let relay = Relay::new(options);
/// assert_eq!(relay.options().max_frame_bytes(), 1 << 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayOptions {
    pub(super) sse: SseOptions,
    pub(super) parse: ParseOptions,
    pub(super) raw: RawPolicy,
    pub(super) drop_types: EventTypeSet,
    pub(super) cursors: bool,
    pub(super) check_order: bool,
    pub(super) resume: Option<Cursor>,
}

impl Default for RelayOptions {
    fn default() -> Self {
        RelayOptions::new()
    }
}

impl RelayOptions {
    /// The defaults: SSE read with [`SseOptions::default`] (frames up to 16 MiB, an unterminated
    /// last frame delivered as the official client does), events parsed with
    /// [`ParseOptions::default`], order checked, nothing dropped, redacted or added.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(RelayOptions::new().check_order());
    /// assert!(!RelayOptions::new().cursors());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        RelayOptions {
            sse: SseOptions::new(),
            parse: ParseOptions::default(),
            raw: RawPolicy::Forward,
            drop_types: EventTypeSet::new(),
            cursors: false,
            check_order: true,
            resume: None,
        }
    }

    /// The SSE reading of the upstream: its frame size bound (the relay's buffering bound) and
    /// its end-of-stream reading ([`SseOptions::with_strict_end`]).
    ///
    /// ```
    /// use agui_wire::{relay::RelayOptions, sse::SseOptions};
    /// let o = RelayOptions::new().with_sse(SseOptions::new().with_strict_end(true));
    /// assert!(o.sse().strict_end());
    /// ```
    #[must_use]
    pub fn with_sse(mut self, sse: SseOptions) -> Self {
        self.sse = sse;
        self
    }

    /// The SSE options.
    ///
    /// ```
    /// use agui_wire::{relay::RelayOptions, sse::SseOptions};
    /// assert_eq!(RelayOptions::new().sse(), SseOptions::new());
    /// ```
    #[must_use]
    pub fn sse(&self) -> SseOptions {
        self.sse
    }

    /// The longest upstream frame accepted, in bytes (see [`SseOptions::with_max_frame_bytes`]).
    /// It bounds what the relay buffers for a frame split across chunks; a longer frame ends
    /// the stream with a `RUN_ERROR`.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert_eq!(RelayOptions::new().with_max_frame_bytes(4096).max_frame_bytes(), 4096);
    /// ```
    #[must_use]
    pub fn with_max_frame_bytes(mut self, max: usize) -> Self {
        self.sse = self.sse.with_max_frame_bytes(max);
        self
    }

    /// The longest upstream frame accepted.
    ///
    /// ```
    /// use agui_wire::{relay::RelayOptions, sse::DEFAULT_MAX_FRAME_BYTES};
    /// assert_eq!(RelayOptions::new().max_frame_bytes(), DEFAULT_MAX_FRAME_BYTES);
    /// ```
    #[must_use]
    pub fn max_frame_bytes(&self) -> usize {
        self.sse.max_frame_bytes()
    }

    /// The limits each event is parsed with ([`Event::parse_with`](crate::Event::parse_with)).
    ///
    /// ```
    /// use agui_wire::{ParseOptions, relay::RelayOptions};
    /// let parse = ParseOptions { max_depth: 64, ..ParseOptions::default() };
    /// assert_eq!(RelayOptions::new().with_parse(parse).parse().max_depth, 64);
    /// ```
    #[must_use]
    pub fn with_parse(mut self, parse: ParseOptions) -> Self {
        self.parse = parse;
        self
    }

    /// The parse options.
    ///
    /// ```
    /// use agui_wire::{ParseOptions, relay::RelayOptions};
    /// assert_eq!(RelayOptions::new().parse(), &ParseOptions::default());
    /// ```
    #[must_use]
    pub fn parse(&self) -> &ParseOptions {
        &self.parse
    }

    /// What to do with raw upstream data; see [`RawPolicy`].
    ///
    /// ```
    /// use agui_wire::relay::{RawPolicy, RelayOptions};
    /// assert_eq!(RelayOptions::new().with_raw(RawPolicy::Drop).raw(), RawPolicy::Drop);
    /// ```
    #[must_use]
    pub fn with_raw(mut self, raw: RawPolicy) -> Self {
        self.raw = raw;
        self
    }

    /// The raw-data policy.
    ///
    /// ```
    /// use agui_wire::relay::{RawPolicy, RelayOptions};
    /// assert_eq!(RelayOptions::new().raw(), RawPolicy::Forward);
    /// ```
    #[must_use]
    pub fn raw(&self) -> RawPolicy {
        self.raw
    }

    /// Event types not to forward. They are still checked (order rules are the upstream's
    /// duty); dropping a type that others depend on (`TEXT_MESSAGE_START` but not its content)
    /// gives the client a stream it will reject.
    ///
    /// ```
    /// use agui_wire::{EventType, relay::{EventTypeSet, RelayOptions}};
    /// let set = EventTypeSet::new().with(EventType::Custom);
    /// assert_eq!(RelayOptions::new().with_drop_types(set).drop_types(), set);
    /// ```
    #[must_use]
    pub fn with_drop_types(mut self, types: EventTypeSet) -> Self {
        self.drop_types = types;
        self
    }

    /// The event types dropped.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(RelayOptions::new().drop_types().is_empty());
    /// ```
    #[must_use]
    pub fn drop_types(&self) -> EventTypeSet {
        self.drop_types
    }

    /// Write an `id: {runId}:{index}` line on every forwarded event, so that a reconnecting
    /// client sends the last one it saw as `Last-Event-ID` (see the [module docs](super)).
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(RelayOptions::new().with_cursors(true).cursors());
    /// ```
    #[must_use]
    pub fn with_cursors(mut self, on: bool) -> Self {
        self.cursors = on;
        self
    }

    /// Whether cursors are written.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(!RelayOptions::new().cursors());
    /// ```
    #[must_use]
    pub fn cursors(&self) -> bool {
        self.cursors
    }

    /// Check the event-order rules ([`EventOrder`](crate::reducer::EventOrder)); on by default.
    /// Off, only the SSE framing, the JSON and each event's schema are checked, and a stream
    /// still ends with a `RUN_ERROR` if the upstream stops inside a run.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(!RelayOptions::new().with_check_order(false).check_order());
    /// ```
    #[must_use]
    pub fn with_check_order(mut self, on: bool) -> Self {
        self.check_order = on;
        self
    }

    /// Whether the event order is checked.
    ///
    /// ```
    /// use agui_wire::relay::RelayOptions;
    /// assert!(RelayOptions::new().check_order());
    /// ```
    #[must_use]
    pub fn check_order(&self) -> bool {
        self.check_order
    }

    /// Resume a stream after `cursor`, the `Last-Event-ID` of a reconnecting client read with
    /// [`Cursor::parse`]. When the upstream replays the run `cursor.run_id()` from its start,
    /// the events of that run with an index up to and including `cursor.index()` are read,
    /// checked and counted as usual (so the order rules hold and the cursors of later events
    /// are the ones the first connection wrote) but not forwarded: the client has them. Later
    /// events are forwarded, with their cursors when [`with_cursors`](Self::with_cursors) is
    /// on. [`Relay::skipped`](super::Relay::skipped) counts the events left out.
    ///
    /// What is not skipped, and why:
    /// * **Events of other runs.** A cursor says only how far the client got in its own run.
    ///   If the stream holds another run first (the upstream started a new one, or replays the
    ///   thread), that run is forwarded whole; skipping starts at the named run's
    ///   `RUN_STARTED` and applies to the first run of that id only.
    /// * **A run that never comes.** If the upstream does not replay the named run, nothing is
    ///   skipped: without the run's own events the relay cannot know what the client has, and
    ///   forwarding is the choice that loses nothing.
    ///
    /// **An upstream that resumes by itself** (it reads the `Last-Event-ID` a gateway forwards,
    /// and its stream begins with the event after the cursor, not with `RUN_STARTED`) is
    /// relayed as the rest of the named run: its events are forwarded, with cursors numbered on
    /// from `cursor.index() + 1`, each still read and checked as an event, and a stream that
    /// ends inside the run still gets its `RUN_ERROR`. The order rules are not checked until
    /// the next `RUN_STARTED`: the run's earlier events (which messages and tool calls are
    /// open) were on the first connection, so this relay cannot judge them.
    ///
    /// A `Last-Event-ID` that is not a cursor (`Cursor::parse` gives `None`) is simply not
    /// passed here: the stream is relayed whole, and the request does not fail.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use agui_wire::relay::{Cursor, Relay, RelayOptions};
    /// let replay = Bytes::from_static(
    ///     b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
    ///       data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n\
    ///       data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"hi\"}\n\n");
    /// // The client had events 0 and 1 of run r.
    /// let cursor = Cursor::parse("r:1").unwrap();
    /// let mut relay = Relay::new(RelayOptions::new().with_cursors(true).resume_after(cursor));
    /// let mut out = Vec::new();
    /// relay.feed(replay, &mut out);
    /// let text = String::from_utf8(out.concat()).unwrap();
    /// assert!(text.starts_with("id: r:2\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\""));
    /// assert_eq!((relay.skipped(), relay.relayed()), (2, 1));
    /// ```
    #[must_use]
    pub fn resume_after(mut self, cursor: Cursor) -> Self {
        self.resume = Some(cursor);
        self
    }

    /// The cursor the stream resumes after, if any.
    ///
    /// ```
    /// use agui_wire::relay::{Cursor, RelayOptions};
    /// assert!(RelayOptions::new().resume().is_none());
    /// let o = RelayOptions::new().resume_after(Cursor::new("r", 3));
    /// assert_eq!(o.resume().map(Cursor::index), Some(3));
    /// ```
    #[must_use]
    pub fn resume(&self) -> Option<&Cursor> {
        self.resume.as_ref()
    }
}
