//! A long event stream handed off from Pingora's per-connection state to a task of its own.
//!
//! While Pingora serves a request it keeps, for the connection, its boxed connection and
//! request futures, the request's header buffer and session state: about 20 KiB for every open
//! stream, most of what an idle event stream costs (measured in README, "Running a gateway").
//! An event stream still open after `--handoff-after-ms` therefore leaves Pingora: the client's
//! connection is taken out of the session (an in-memory stand-in takes its place, so Pingora
//! finishes the request normally and frees its state), and a small task relays the rest with
//! the same relay, keep-alive pings and client-gone detection, writing the HTTP/1.1 chunks
//! itself. The response header said `Transfer-Encoding: chunked` and was sent by Pingora before
//! the hand-off, so the client sees one unbroken response. What changes for the client: its
//! connection closes when such a stream ends (it is not reused for another request).
//!
//! Only HTTP/1.1 clients are handed off (HTTP/2 streams share a connection; HTTP/1.0 has no
//! chunks); the upstream side stays Pingora's HTTP/1 client session, released to the pool when
//! the stream ends cleanly, as on the normal path.

use std::io::Cursor;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use pingora_core::connectors::http::Connector;
use pingora_core::protocols::Stream;
use pingora_core::protocols::http::ServerSession;
use pingora_core::protocols::http::client::HttpSession;
use pingora_core::upstreams::peer::HttpPeer;
use pingora_proxy::Session;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

use crate::relay::EventRelay;

/// The request the in-memory stand-in answers to (so Pingora can log and finish it).
const STAND_IN_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: handoff\r\n\r\n";

/// How long an idle pooled upstream connection is kept (as on the normal path).
const POOL_IDLE: Duration = Duration::from_secs(60);

/// Takes the client's connection out of Pingora's session, leaving an in-memory stand-in that
/// Pingora finishes and drops without touching the client. `None` (session untouched) when the
/// client is not on HTTP/1.
pub(crate) async fn take_client(session: &mut Session) -> Option<Stream> {
    session.downstream_session.as_http1()?;
    let mut stand_in = ServerSession::new_http1(Box::new(Cursor::new(STAND_IN_REQUEST.to_vec())));
    // Reading a complete request from memory cannot wait; if it fails, no hand-off.
    if !matches!(stand_in.read_request().await, Ok(true)) {
        return None;
    }
    stand_in.set_keepalive(None);
    let real = std::mem::replace(&mut *session.downstream_session, stand_in);
    match real {
        ServerSession::H1(h1) => Some(h1.into_inner()),
        other => {
            // Not reached (checked above); put the session back rather than lose it.
            *session.downstream_session = other;
            None
        }
    }
}

/// Whether a trim is already scheduled.
static TRIM_SCHEDULED: AtomicBool = AtomicBool::new(false);

/// After a hand-off, the memory Pingora held for the connection is free but glibc's malloc
/// keeps it mapped (resident) in the middle of its heap. One second after the first hand-off
/// of a burst, `malloc_trim` gives the free pages of every arena back to the system; a burst
/// of hand-offs costs one trim. Other allocators return memory on their own: nothing to do.
pub(crate) fn schedule_trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !TRIM_SCHEDULED.swap(true, Ordering::AcqRel) {
        tokio::spawn(async {
            tokio::time::sleep(Duration::from_secs(1)).await;
            TRIM_SCHEDULED.store(false, Ordering::Release);
            let _ = tokio::task::spawn_blocking(|| {
                // SAFETY: malloc_trim only returns free memory of glibc's arenas to the system;
                // it takes the arenas' locks itself and touches no memory in use.
                unsafe { libc::malloc_trim(0) };
            })
            .await;
        });
    }
}

/// Where a cleanly ended upstream connection goes back to.
pub(crate) struct Pool {
    pub connector: Arc<Connector>,
    pub addr: SocketAddr,
}

/// An event stream handed off: everything its task needs, in one allocation.
pub(crate) struct HandedOff {
    /// The client's connection; its response header (chunked) is already sent.
    pub client: Stream,
    /// The upstream's answer, its header read.
    pub up: HttpSession,
    /// The stream's relay, as the normal path left it.
    pub relay: EventRelay,
    /// Keep-alive ping interval.
    pub keepalive: Option<Duration>,
    /// When the client was last sent something (pings count from there).
    pub last_write: Instant,
    /// Where the upstream connection goes back to.
    pub pool: Pool,
}

/// Relays the rest of a handed-off event stream, then ends the client's response and closes
/// its connection. The state is boxed so the task's future stays small (its own frame holds
/// little more than the pending reads).
pub(crate) async fn relay(mut state: Box<HandedOff>) {
    let s = &mut *state;
    if s.client.flush().await.is_err() {
        return;
    }
    let mut probe = [0u8; 16];
    let clean = loop {
        let idle_at = s.keepalive.map(|d| s.last_write + d);
        let idle = async move {
            match idle_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let step = tokio::select! {
            r = s.up.read_response_body() => Step::Upstream(r.map_err(drop)),
            () = idle => Step::Idle,
            // A request body was read to its end: anything the client sends now (or its FIN, or
            // an error) means it is done with this stream.
            _ = s.client.read(&mut probe) => Step::ClientGone,
        };
        let out = match step {
            Step::Upstream(Ok(Some(chunk))) => s.relay.feed(chunk),
            Step::Upstream(Ok(None)) => break true,
            Step::Upstream(Err(())) => break false,
            Step::Idle => s.relay.on_idle(),
            // Dropping both ends closes the upstream connection too.
            Step::ClientGone => return,
        };
        if let Some(out) = out {
            if write_chunk(&mut s.client, &out).await.is_err() {
                return;
            }
            s.last_write = Instant::now();
        }
        if s.relay.is_ended() {
            break false;
        }
    };
    let tail = s.relay.finish();
    if let Some(tail) = tail
        && write_chunk(&mut s.client, &tail).await.is_err()
    {
        return;
    }
    if s.client.write_all(b"0\r\n\r\n").await.is_err() || s.client.flush().await.is_err() {
        return;
    }
    AsyncWriteExt::shutdown(&mut s.client).await.ok();
    if clean && !s.relay.faulted() && s.up.response_done() {
        let HandedOff { up, pool, .. } = *state;
        let peer = HttpPeer::new(pool.addr, false, String::new());
        // Boxed: the pool's future is large and would otherwise be part of every idle stream.
        Box::pin(
            pool.connector
                .release_http_session(up, &peer, Some(POOL_IDLE)),
        )
        .await;
    }
}

/// One HTTP/1.1 chunk, flushed (the client sees each event as it is relayed).
async fn write_chunk(client: &mut Stream, data: &Bytes) -> std::io::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    let (line, from) = size_line(data.len());
    client
        .write_all(line.get(from..).unwrap_or_default())
        .await?;
    client.write_all(data).await?;
    client.write_all(b"\r\n").await?;
    client.flush().await
}

/// A chunk's size line (upper-case hex digits, CRLF), written without allocating: the line is
/// `buffer[from..]`. A `u64` has at most 16 hex digits.
fn size_line(len: usize) -> ([u8; 18], usize) {
    let mut line = [0u8; 18];
    line[16..].copy_from_slice(b"\r\n");
    let mut from = 16;
    let mut n = len as u64;
    loop {
        from -= 1;
        line[from] = b"0123456789ABCDEF"[(n & 15) as usize];
        n >>= 4;
        if n == 0 {
            return (line, from);
        }
    }
}

enum Step {
    Upstream(Result<Option<Bytes>, ()>),
    Idle,
    ClientGone,
}

#[cfg(test)]
mod tests {
    use super::size_line;

    #[test]
    fn size_lines_are_hex_and_crlf() {
        for len in [
            1usize,
            9,
            10,
            15,
            16,
            255,
            4096,
            65_535,
            1 << 40,
            usize::MAX,
        ] {
            let (line, from) = size_line(len);
            assert_eq!(&line[from..], format!("{len:X}\r\n").as_bytes());
        }
    }
}
