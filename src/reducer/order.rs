//! [`EventOrder`]: the event-order checks of the reducer on their own (chunk expansion and the
//! rules of the TypeScript client's `verifyEvents`), without building messages or state, for a
//! relay that checks every stream it forwards.

use super::chunks::{Expansion, Lanes};
use super::error::ReduceError;
use super::verify::Verifier;
use crate::events::Event;

/// Checks that a stream of events comes in an order the protocol allows, as the reducer does,
/// without keeping the conversation: `*_CHUNK` events are expanded (per subagent lane) and each
/// resulting event goes through the rules of the TypeScript client's `verifyEvents` (a run
/// starts before anything else, a message or tool call is started before its content and ended
/// once, steps and subagents open and close in pairs, nothing follows `RUN_FINISHED` but a new
/// run, subagent-tagged events agree with the owner of what they continue, ...).
///
/// The first violation is returned as a [`ReduceError`] naming the event's index (counted from
/// 0 over every event given to [`EventOrder::check`]) and what is wrong; from then on every call
/// returns that same error, as the client ends the run at its first error. Events of types the
/// protocol does not define pass (and are counted), as the client's enforcement drops them.
///
/// [`Reducer`](super::Reducer) runs exactly these checks before applying each event.
///
/// **Memory**: it keeps the ids of what is open (text and reasoning messages, tool calls,
/// reasoning spans, steps per owner, subagents, and at most one chunk stream per lane), and,
/// for the subagent ownership rules, the owner of each message, tool call, reasoning message
/// and activity id started or replayed in the current run, and the ids of finished subagents:
/// about 80 bytes plus the id's length per entry, all of it dropped when a new run starts after
/// the previous one ended. An idle `EventOrder` is under 1 KiB (`size_of`: 864 bytes on
/// x86-64) and allocates nothing. Every check is a few hash lookups: the time per event does
/// not grow with how many things are open.
///
/// `EventOrder` is `Send + Sync` (plain owned data), so one can live in each stream's state of
/// a multi-threaded gateway.
///
/// ```
/// use agui_wire::{Event, Bump, reducer::EventOrder};
/// let mut order = EventOrder::new();
/// let arena = Bump::new();
/// for frame in [
///     &br#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#[..],
///     br#"{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hi"}"#,
///     br#"{"type":"TEXT_MESSAGE_CHUNK","delta":" there"}"#,
///     br#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
/// ] {
///     order.check(&Event::parse(frame, &arena)?).unwrap();
/// }
/// // After RUN_FINISHED, only a new run may come:
/// let late = Event::parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"?"}"#, &arena)?;
/// let err = order.check(&late).unwrap_err();
/// assert_eq!(err.index(), 4);
/// assert_eq!(err.to_string(),
///     "event 4: TEXT_MESSAGE_CONTENT after RUN_FINISHED; a new run must start with RUN_STARTED");
/// assert_eq!(order.events_seen(), 5);
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct EventOrder {
    seen: usize,
    lanes: Lanes,
    verifier: Verifier,
    failed: Option<Box<ReduceError>>,
}

impl EventOrder {
    /// A checker at the start of a stream.
    ///
    /// ```
    /// use agui_wire::reducer::EventOrder;
    /// assert_eq!(EventOrder::new().events_seen(), 0);
    /// ```
    pub fn new() -> Self {
        EventOrder::default()
    }

    /// Checks the next event of the stream (see the [type docs](EventOrder)).
    ///
    /// ```
    /// use agui_wire::{Event, Bump, reducer::EventOrder};
    /// let arena = Bump::new();
    /// let mut order = EventOrder::new();
    /// let first = Event::parse(br#"{"type":"STEP_STARTED","stepName":"plan"}"#, &arena)?;
    /// assert_eq!(order.check(&first).unwrap_err().to_string(),
    ///     "event 0: the first event must be RUN_STARTED, found STEP_STARTED");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn check(&mut self, event: &Event<'_>) -> Result<(), ReduceError> {
        self.admit(event).map(|_| ())
    }

    /// How many events [`EventOrder::check`] has been given (while no error had occurred).
    ///
    /// ```
    /// use agui_wire::reducer::EventOrder;
    /// assert_eq!(EventOrder::new().events_seen(), 0);
    /// ```
    pub fn events_seen(&self) -> usize {
        self.seen
    }

    /// Checks `event` and gives the events it stands for after chunk expansion (`None` for an
    /// event of a type the protocol does not define, which is dropped).
    pub(crate) fn admit<'e, 'a>(
        &mut self,
        event: &'e Event<'a>,
    ) -> Result<Option<Steps<'e, 'a>>, ReduceError> {
        if let Some(err) = &self.failed {
            return Err((**err).clone());
        }
        let index = self.seen;
        self.seen += 1;
        if event.event_type().is_none() {
            return Ok(None);
        }
        let steps = match self.lanes.expand(event) {
            Ok(Expansion::Pass(closers)) => Steps::Pass(closers, event),
            Ok(Expansion::Replace(events)) => Steps::Replace(events),
            Err(kind) => return Err(self.fail(index, kind)),
        };
        for step in steps.iter() {
            if let Err(kind) = self.verifier.check(step) {
                return Err(self.fail(index, kind));
            }
        }
        Ok(Some(steps))
    }

    fn fail(&mut self, index: usize, kind: super::ReduceErrorKind) -> ReduceError {
        let err = ReduceError::new(index, kind);
        self.failed = Some(Box::new(err.clone()));
        err
    }
}

/// The events one input event stands for, in order.
pub(crate) enum Steps<'e, 'a> {
    /// Synthesized ends closing open chunk streams, then the event itself.
    Pass(Vec<Event<'static>>, &'e Event<'a>),
    /// A chunk's expansion.
    Replace(Vec<Event<'a>>),
}

impl<'e, 'a> Steps<'e, 'a> {
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Event<'a>> {
        let (pre, last): (&[Event<'static>], Option<&Event<'a>>) = match self {
            Steps::Pass(closers, ev) => (closers, Some(*ev)),
            Steps::Replace(_) => (&[], None),
        };
        let replaced: &[Event<'a>] = match self {
            Steps::Replace(events) => events,
            Steps::Pass(..) => &[],
        };
        let pre = pre.iter().map(|e| -> &Event<'a> { e });
        pre.chain(replaced.iter()).chain(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_when_idle() {
        let size = std::mem::size_of::<EventOrder>();
        eprintln!("EventOrder: {size} bytes");
        assert!(size <= 1024, "{size}");
    }

    #[test]
    fn send_sync() {
        fn both<T: Send + Sync>() {}
        both::<EventOrder>();
    }
}
