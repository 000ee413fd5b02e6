//! The relay's stream positions: [`Cursor`], the `{runId}:{index}` of an `id:` line, read back
//! from a reconnecting client's `Last-Event-ID`.

use std::fmt;

/// Longest `Last-Event-ID` read as a cursor, in bytes. A run id is an id, not a document; a
/// longer value is not a cursor this relay wrote.
pub const MAX_CURSOR_BYTES: usize = 1024;

/// A position in a relayed event stream: the event with index [`index`](Cursor::index) in the
/// run [`run_id`](Cursor::run_id), as the relay writes it in `id: {runId}:{index}` lines
/// ([`RelayOptions::with_cursors`](super::RelayOptions::with_cursors)) and as a reconnecting
/// client sends it back in `Last-Event-ID`. `Send + Sync`.
///
/// The run id is kept as the relay wrote it: the raw text of the `RUN_STARTED` event's JSON
/// string (escapes such as `\u00e9` kept as written), compared byte for byte.
///
/// ```
/// use agui_wire::relay::Cursor;
/// let c = Cursor::parse("run-7:12").unwrap();
/// assert_eq!((c.run_id(), c.index()), ("run-7", 12));
/// assert_eq!(c.to_string(), "run-7:12");
/// // A run id may hold colons: the index is after the last one.
/// assert_eq!(Cursor::parse("urn:run:7:3").unwrap().run_id(), "urn:run:7");
/// // Not cursors: no index, an index that is not a plain decimal, no run id.
/// for bad in ["run-7", "run-7:", "run-7:-1", "run-7:+1", "run-7:1e3", ":4", "r:18446744073709551616"] {
///     assert!(Cursor::parse(bad).is_none(), "{bad}");
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cursor {
    run_id: String,
    index: u64,
}

impl Cursor {
    /// A cursor for event `index` of run `run_id` (`run_id` as it appears between the quotes
    /// of the run's JSON).
    ///
    /// ```
    /// use agui_wire::relay::Cursor;
    /// assert_eq!(Cursor::new("r1", 4), Cursor::parse("r1:4").unwrap());
    /// ```
    #[must_use]
    pub fn new(run_id: &str, index: u64) -> Self {
        Cursor {
            run_id: run_id.to_string(),
            index,
        }
    }

    /// Reads a `Last-Event-ID` value as a cursor: `{runId}:{index}`, the index a decimal
    /// number (digits only, fitting in a `u64`) after the last `:`, the run id not empty and
    /// free of control characters, at most [`MAX_CURSOR_BYTES`] bytes in all. Spaces around the
    /// value are ignored. `None` for anything else: such a value was not written by this relay
    /// (another server's ids, a client's own, garbage), so it says nothing about which events
    /// the client has; see [`RelayOptions::resume_after`](super::RelayOptions::resume_after)
    /// for what a gateway does then.
    ///
    /// ```
    /// use agui_wire::relay::Cursor;
    /// assert_eq!(Cursor::parse(" r:0 ").unwrap().index(), 0);
    /// assert!(Cursor::parse("r\n:0").is_none());
    /// assert!(Cursor::parse("").is_none());
    /// ```
    #[must_use]
    pub fn parse(last_event_id: &str) -> Option<Self> {
        let value = last_event_id.trim_matches(|c| c == ' ' || c == '\t');
        if value.len() > MAX_CURSOR_BYTES {
            return None;
        }
        let (run_id, index) = value.rsplit_once(':')?;
        if run_id.is_empty()
            || run_id.chars().any(char::is_control)
            || index.is_empty()
            || !index.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let index = index.parse().ok()?;
        Some(Cursor::new(run_id, index))
    }

    /// The run's id, as written in the cursor.
    ///
    /// ```
    /// use agui_wire::relay::Cursor;
    /// assert_eq!(Cursor::new("r1", 0).run_id(), "r1");
    /// ```
    #[must_use]
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The index of the event in its run (`RUN_STARTED` is 0).
    ///
    /// ```
    /// use agui_wire::relay::Cursor;
    /// assert_eq!(Cursor::new("r1", 9).index(), 9);
    /// ```
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }
}

/// `{runId}:{index}`, as in an `id:` line.
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.run_id, self.index)
    }
}
