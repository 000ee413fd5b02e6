//! The response side: the upstream's event stream, relayed through the library's relay stage
//! ([`agui_wire::relay::Relay`]): every event checked, policies applied, `id: {runId}:{index}`
//! cursors written, keep-alive pings when idle, and a well-formed `RUN_ERROR` when the
//! upstream sends something invalid or stops inside a run.

use agui_wire::relay::{Cursor, EventTypeSet, RawPolicy, Relay, RelayOptions, join};
use bytes::Bytes;

/// How events are relayed. Shared by all requests; `Send + Sync`.
///
/// ```
/// use agui_gateway::relay::RelayPolicy;
/// let policy = RelayPolicy::new(&["RAW".to_string(), "STATE_DELTA".to_string()], false)?;
/// # let _ = policy;
/// // Unknown event types are refused with the flag's name.
/// let err = RelayPolicy::new(&["NOPE".to_string()], false).unwrap_err();
/// assert!(err.starts_with("--drop-events"));
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone)]
pub struct RelayPolicy {
    options: RelayOptions,
}

impl RelayPolicy {
    /// From the command line's `--drop-events` list and `--redact-raw`.
    pub fn new(drop_events: &[String], redact_raw: bool) -> Result<RelayPolicy, String> {
        let drop = EventTypeSet::from_names(&drop_events.join(","))
            .map_err(|e| format!("--drop-events: {e}"))?;
        let raw = if redact_raw {
            RawPolicy::Redact
        } else {
            RawPolicy::Forward
        };
        Ok(RelayPolicy {
            options: RelayOptions::new()
                .with_drop_types(drop)
                .with_raw(raw)
                .with_cursors(true),
        })
    }
}

/// One response's relay. `Send`: it lives on the request's task across `.await`s; not `Sync`.
///
/// ```
/// use agui_gateway::relay::{EventRelay, RelayPolicy};
/// use bytes::Bytes;
/// let policy = RelayPolicy::new(&["RAW".to_string()], false)?;
/// let mut relay = EventRelay::new(&policy);
/// let out = relay
///     .feed(Bytes::from_static(b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
///     .unwrap();
/// // A cursor is added so a client can resume with `Last-Event-ID`.
/// assert!(out.starts_with(b"id: r:0\n"));
/// // Dropped types never reach the client.
/// assert!(relay.feed(Bytes::from_static(b"data: {\"type\":\"RAW\",\"event\":1}\n\n")).is_none());
/// // The upstream stopped inside the run: the client gets a RUN_ERROR.
/// let end = relay.finish().unwrap();
/// assert!(String::from_utf8_lossy(&end).contains("RUN_ERROR"));
/// # Ok::<(), String>(())
/// ```
pub struct EventRelay {
    relay: Relay,
    out: Vec<Bytes>,
}

impl EventRelay {
    /// A relay for one response.
    pub fn new(policy: &RelayPolicy) -> EventRelay {
        EventRelay {
            relay: Relay::new(policy.options.clone()),
            out: Vec::with_capacity(4),
        }
    }

    /// A relay for the response to a request that carried `Last-Event-ID: last_event_id` (a
    /// reconnecting client). When the value is a cursor the gateway wrote (`{runId}:{index}`,
    /// see [`Cursor::parse`]) and the upstream replays that run from its start, the events the
    /// client already has are checked but not forwarded
    /// ([`RelayOptions::resume_after`]). Any other value is not the gateway's business: the
    /// stream is relayed whole (and the header has gone upstream unchanged either way).
    ///
    /// ```
    /// use agui_gateway::relay::{EventRelay, RelayPolicy};
    /// use bytes::Bytes;
    /// let policy = RelayPolicy::new(&[], false)?;
    /// let replay = Bytes::from_static(
    ///     b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
    ///       data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
    /// let mut relay = EventRelay::resuming(&policy, "r:0");
    /// assert_eq!(relay.resumes_after().map(|c| c.to_string()).as_deref(), Some("r:0"));
    /// let out = relay.feed(replay.clone()).unwrap();
    /// assert!(out.starts_with(b"id: r:1\ndata: {\"type\":\"RUN_FINISHED\""));
    /// // Not a cursor: relayed whole, no error.
    /// let mut plain = EventRelay::resuming(&policy, "not a cursor");
    /// assert!(plain.resumes_after().is_none());
    /// assert!(plain.feed(replay).unwrap().starts_with(b"id: r:0\n"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn resuming(policy: &RelayPolicy, last_event_id: &str) -> EventRelay {
        let options = match Cursor::parse(last_event_id) {
            Some(cursor) => policy.options.clone().resume_after(cursor),
            None => policy.options.clone(),
        };
        EventRelay {
            relay: Relay::new(options),
            out: Vec::with_capacity(4),
        }
    }

    /// The cursor this relay resumes after, if the request carried one.
    pub fn resumes_after(&self) -> Option<&Cursor> {
        self.relay.options().resume()
    }

    /// The next piece of the upstream's body; returns what to send the client now (frames
    /// whole in the piece come out as slices of it, without a copy).
    pub fn feed(&mut self, chunk: Bytes) -> Option<Bytes> {
        self.relay.feed(chunk, &mut self.out);
        join(&mut self.out)
    }

    /// The stream has been idle: a keep-alive comment (nothing once the stream has ended).
    pub fn on_idle(&mut self) -> Option<Bytes> {
        self.relay.on_idle(&mut self.out);
        join(&mut self.out)
    }

    /// The upstream's body ended (cleanly or not): the last bytes, with a `RUN_ERROR` if the
    /// upstream stopped inside a run or inside a frame.
    pub fn finish(&mut self) -> Option<Bytes> {
        self.relay.finish(&mut self.out);
        join(&mut self.out)
    }

    /// Whether nothing more will be forwarded (a fault ended the stream): the upstream can be
    /// dropped.
    pub fn is_ended(&self) -> bool {
        self.relay.is_ended()
    }

    /// Whether the stream ended on a fault (then the upstream connection is not reused).
    pub fn faulted(&self) -> bool {
        self.relay.fault().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_and_cursors() {
        let policy = RelayPolicy::new(&["RAW".into()], false).unwrap();
        let mut r = EventRelay::new(&policy);
        let out = r
            .feed(Bytes::from_static(
                b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RAW\",\"event\":1}\n\n",
            ))
            .unwrap();
        assert_eq!(
            &out[..],
            b"id: r:0\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
        );
        let end = r.finish().unwrap();
        assert!(String::from_utf8_lossy(&end).contains("RUN_ERROR"));
        assert!(RelayPolicy::new(&["NOPE".into()], false).is_err());
    }
}
