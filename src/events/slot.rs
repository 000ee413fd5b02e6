//! [`EventSlot`]: a place the caller keeps, where an event is parsed and stays.

use std::mem::ManuallyDrop;

use bumpalo::Bump;

use super::Event;
use super::fast;
use crate::error::Error;
use crate::parser::ParseOptions;

/// A place for one parsed event, owned by the caller: [`EventSlot::parse`] builds the event
/// in the slot and lends it, where [`Event::parse`] returns it in a `Result` the caller moves
/// it out of.
///
/// An [`Event`] is up to 192 bytes. Taking it out of a `Result` copies it (a `memcpy` of the
/// whole enum, often twice in a loop), and dropping it runs through every field that could own
/// memory; for the small events that make up a stream each costs about as much as finding the
/// SSE frame. In a slot the event is built where it stays, and an event that owns nothing
/// (every event the one-pass readers take, nearly all of a stream) is not walked to be
/// dropped. Results, errors included, are those of [`Event::parse_with`].
///
/// The slot lends the event shared (`&Event`): an event changed in place could come to own
/// memory the slot would not know to free. [`EventSlot::take`] moves it out.
///
/// The event borrows the input and the arena, so a slot lives inside the loop that resets
/// the arena:
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseOptions};
/// use agui_wire::{Bump, EventSlot, ParseOptions};
/// let mut arena = Bump::new();
/// let options = ParseOptions::default();
/// let mut decoder = SseDecoder::new(SseOptions::default());
/// let mut types = Vec::new();
/// let mut feed = decoder.feed(b"data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\n");
/// while let Some(frame) = feed.next() {
///     {
///         let mut slot = EventSlot::new();
///         let ev = slot.parse(frame?.data, &arena, &options)?;
///         types.push(ev.type_name().to_string());
///     }
///     arena.reset();
/// }
/// assert_eq!(types, ["TEXT_MESSAGE_END"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EventSlot<'a> {
    event: ManuallyDrop<Option<Event<'a>>>,
    /// Whether `event` may own heap memory, and so must be dropped. `false` only for events
    /// built by the one-pass readers (`fast.rs`), whose strings and JSON values all borrow
    /// from the input and whose unknown fields are the empty default (with, for a
    /// `TOOL_CALL_RESULT` written `role` first, a wire order borrowed from a constant).
    owns: bool,
}

impl<'a> EventSlot<'a> {
    /// An empty slot.
    ///
    /// ```
    /// use agui_wire::EventSlot;
    /// assert!(EventSlot::new().get().is_none());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        EventSlot {
            event: ManuallyDrop::new(None),
            owns: false,
        }
    }

    /// Parses one event into the slot, as [`Event::parse_with`] does, and lends it. An event
    /// the slot held before is dropped first, also when this fails (the slot is then empty).
    ///
    /// # Errors
    ///
    /// Those of [`Event::parse_with`], with the same offsets and paths.
    ///
    /// ```
    /// use agui_wire::{Bump, Event, EventSlot, ParseOptions};
    /// let arena = Bump::new();
    /// let mut slot = EventSlot::new();
    /// let ev = slot.parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Hi"}"#,
    ///     &arena, &ParseOptions::default())?;
    /// let Event::TextMessageContent(c) = ev else { panic!() };
    /// assert_eq!(c.delta.raw(), "Hi");
    /// let err = slot.parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}"#,
    ///     &arena, &ParseOptions::default()).unwrap_err();
    /// assert_eq!(err.to_string(), "missing required field `delta` at the document root (byte 0)");
    /// assert!(slot.get().is_none());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse(
        &mut self,
        input: &'a [u8],
        arena: &'a Bump,
        options: &ParseOptions,
    ) -> Result<&Event<'a>, Error> {
        self.clear();
        // As `Event::parse_with`; each path builds the event where it stays.
        if let Some(q) = fast::template(input, arena, options) {
            return Ok(self.event.insert(fast::build_templated(q)));
        }
        if let Some(ev) = fast::tool_result(input, arena, options) {
            return Ok(self.event.insert(ev));
        }
        let mut fields = fast::Fields::new();
        if fast::read(input, arena, options, &mut fields) {
            return Ok(self.event.insert(fast::build(fields)));
        }
        // The general path (a few percent of a stream's events) moves its event once, and
        // its event may own memory (a boxed `RUN_STARTED` input).
        let ev = Event::parse_general(input, arena, options)?;
        self.owns = true;
        Ok(self.event.insert(ev))
    }

    /// The event the slot holds, if any.
    ///
    /// ```
    /// use agui_wire::{Bump, EventSlot, ParseOptions};
    /// let arena = Bump::new();
    /// let mut slot = EventSlot::new();
    /// slot.parse(br#"{"type":"STEP_STARTED","stepName":"plan"}"#, &arena, &ParseOptions::default())?;
    /// assert_eq!(slot.get().unwrap().type_name(), "STEP_STARTED");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    #[must_use]
    pub fn get(&self) -> Option<&Event<'a>> {
        self.event.as_ref()
    }

    /// Moves the event out (the slot is then empty), to keep it or change it.
    ///
    /// ```
    /// use agui_wire::{Bump, Event, EventSlot, ParseOptions};
    /// let arena = Bump::new();
    /// let mut slot = EventSlot::new();
    /// slot.parse(br#"{"type":"STEP_STARTED","stepName":"plan"}"#, &arena, &ParseOptions::default())?;
    /// let ev: Event<'_> = slot.take().unwrap();
    /// assert!(slot.get().is_none());
    /// assert_eq!(ev.type_name(), "STEP_STARTED");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn take(&mut self) -> Option<Event<'a>> {
        self.owns = false;
        self.event.take()
    }

    /// Empties the slot, dropping its event when it may own memory.
    fn clear(&mut self) {
        if self.owns {
            drop(self.take());
        } else {
            // Owns nothing: forgetting it frees nothing and leaks nothing.
            self.event = ManuallyDrop::new(None);
        }
    }
}

impl Default for EventSlot<'_> {
    fn default() -> Self {
        EventSlot::new()
    }
}

impl Drop for EventSlot<'_> {
    fn drop(&mut self) {
        self.clear();
    }
}

impl std::fmt::Debug for EventSlot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("EventSlot").field(&self.get()).finish()
    }
}
