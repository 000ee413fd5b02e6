//! The response side: the upstream's event stream, relayed through the library's relay stage
//! (checked event by event, policies applied, `id:` cursors written, keep-alive pings when idle,
//! `RUN_ERROR` when the upstream breaks).

use bytes::Bytes;

/// How events are relayed.
#[derive(Debug, Clone, Default)]
pub struct RelayPolicy {
    /// Event types never forwarded.
    pub drop_events: Vec<String>,
}

/// One response's relay state.
pub struct EventRelay {
    _policy: RelayPolicy,
}

impl EventRelay {
    /// A relay for one response; `last_event_id` is the request's `Last-Event-ID`, if any.
    pub fn new(policy: &RelayPolicy, _last_event_id: Option<&str>) -> EventRelay {
        EventRelay {
            _policy: policy.clone(),
        }
    }

    /// The next piece of the upstream's body; returns what to send the client (may be empty).
    pub fn feed(&mut self, chunk: Bytes) -> Bytes {
        chunk
    }

    /// The stream has been idle: a keep-alive comment.
    pub fn on_idle(&mut self) -> Bytes {
        Bytes::from_static(b": ping\n\n")
    }

    /// The upstream ended (`error`: how, if it broke); the last bytes to send.
    pub fn finish(&mut self, _error: Option<&str>) -> Bytes {
        Bytes::new()
    }
}
