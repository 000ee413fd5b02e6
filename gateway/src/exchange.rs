//! One checked request's exchange with the upstream: the (possibly edited) body sent with an
//! exact `Content-Length`, the answer passed back, an event stream relayed through the relay
//! stage with keep-alive pings, and the upstream connection dropped as soon as the client goes.

use std::time::Duration;

use tokio::time::Instant;

use bytes::Bytes;
use pingora_core::protocols::http::client::HttpSession;
use pingora_core::upstreams::peer::HttpPeer;
use pingora_core::{Error, ErrorType, Result};
use pingora_http::{RequestHeader, ResponseHeader};
use pingora_proxy::Session;

use crate::proxy::Gateway;
use crate::relay::EventRelay;

/// How long an idle pooled upstream connection is kept.
const POOL_IDLE: Duration = Duration::from_secs(60);

/// Sends `body` upstream for the request in `session` and answers the client.
pub(crate) async fn forward(gw: &Gateway, session: &mut Session, body: Bytes) -> Result<()> {
    let peer = gw.peer();
    let mut req = owned_request(session.req_header())?;
    gw.rewrite(&mut req)?;
    req.remove_header(&http::header::TRANSFER_ENCODING);
    req.remove_header(&http::header::EXPECT);
    req.insert_header(http::header::CONTENT_LENGTH, body.len().to_string())?;
    let sent = send(gw, &peer, &req, &body).await;
    // The body (and the parse it may keep alive) is not needed while the answer streams.
    drop(body);
    drop(req);
    let mut up = match sent {
        Ok(up) => up,
        Err(e) => return reply_bad_gateway(session, &e).await,
    };
    let Some(head) = up.response_header() else {
        return Err(Error::explain(
            ErrorType::InvalidHTTPHeader,
            "no upstream header",
        ));
    };
    let mut head = head.clone();
    for h in [
        http::header::CONNECTION,
        http::header::HeaderName::from_static("keep-alive"),
    ] {
        head.remove_header(&h);
    }
    let is_events = head.status == http::StatusCode::OK
        && head
            .headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
    let release = if is_events {
        relay_events(gw, session, up, head).await?
    } else {
        pass_through(session, &mut up, head).await?;
        Some(up)
    };
    if let Some(mut up) = release
        && up.response_done()
    {
        gw.connector
            .release_http_session(up, &peer, Some(POOL_IDLE))
            .await;
    }
    Ok(())
}

/// A copy of the client's request head that shares no memory with it. Pingora's parsed header
/// values are slices of the connection's 4 KiB header buffer; the upstream session keeps the
/// head it sent for the whole exchange, so a plain clone would keep that buffer alive for as
/// long as an event stream is open, even after the stream is handed off (`handoff`). Header
/// names go upstream in lower case (HTTP/1 names are case-insensitive).
fn owned_request(src: &RequestHeader) -> Result<RequestHeader> {
    let mut req =
        RequestHeader::build_no_case(src.method.clone(), src.raw_path(), Some(src.headers.len()))?;
    req.set_version(src.version);
    for (name, value) in src.headers.iter() {
        let value = http::HeaderValue::from_bytes(value.as_bytes())
            .map_err(|e| Error::because(ErrorType::InvalidHTTPHeader, "header value", e))?;
        req.append_header(name.clone(), value)?;
    }
    Ok(req)
}

/// Connects (or takes a pooled connection), sends the request and reads the answer's head. A
/// pooled connection the upstream had closed is retried once on a fresh one.
async fn send(
    gw: &Gateway,
    peer: &HttpPeer,
    req: &RequestHeader,
    body: &Bytes,
) -> Result<HttpSession> {
    let mut tries = 0;
    loop {
        tries += 1;
        let (mut up, reused) = gw.connector.get_http_session(peer).await?;
        let sent = async {
            up.write_request_header(Box::new(req.clone())).await?;
            if !body.is_empty() {
                up.write_request_body(body.clone(), true).await?;
            }
            up.finish_request_body().await?;
            up.read_response_header().await
        }
        .await;
        match sent {
            Ok(()) => return Ok(up),
            Err(e) if reused && tries == 1 => drop(e),
            Err(e) => return Err(e),
        }
    }
}

/// An answer that is not an event stream, passed on as it comes.
async fn pass_through(
    session: &mut Session,
    up: &mut HttpSession,
    head: ResponseHeader,
) -> Result<()> {
    session.write_response_header(Box::new(head), false).await?;
    while let Some(chunk) = up.read_response_body().await? {
        session.write_response_body(Some(chunk), false).await?;
    }
    session.write_response_body(None, true).await?;
    Ok(())
}

/// An event stream, relayed. Returns the upstream session when it may go back to the pool (the
/// upstream ended the stream cleanly); a stream still open after `--handoff-after-ms` is handed
/// to a task of its own (the `handoff` module) and `None` is returned at once.
async fn relay_events(
    gw: &Gateway,
    session: &mut Session,
    mut up: HttpSession,
    mut head: ResponseHeader,
) -> Result<Option<HttpSession>> {
    // The relay may change the length; the client gets chunks (HTTP/1.1) or frames (HTTP/2).
    head.remove_header(&http::header::CONTENT_LENGTH);
    let chunked = session.req_header().version == http::Version::HTTP_11;
    if chunked {
        head.insert_header(http::header::TRANSFER_ENCODING, "chunked")?;
    }
    session.write_response_header(Box::new(head), false).await?;
    // A reconnecting client's cursor (the header itself went upstream unchanged).
    let mut relay = match session
        .req_header()
        .headers
        .get("last-event-id")
        .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
    {
        Some(last) => EventRelay::resuming(&gw.relay, last),
        None => EventRelay::new(&gw.relay),
    };
    // Only HTTP/1.1 clients of an HTTP/1 upstream are handed off (see `handoff`).
    let mut can_hand_off = chunked && up.as_http1().is_some() && gw.handoff_after.is_some();
    let handoff = tokio::time::sleep(gw.handoff_after.unwrap_or(Duration::MAX / 4));
    tokio::pin!(handoff);
    // Pings go out when the client has been sent nothing for the keep-alive interval.
    let mut last_write = Instant::now();
    let clean = loop {
        let idle_at = gw.keepalive.map(|d| last_write + d);
        let idle = async move {
            match idle_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let step = tokio::select! {
            r = up.read_response_body() => Step::Upstream(r),
            () = idle => Step::Idle,
            r = session.downstream_session.read_body_or_idle(true) => Step::Client(r.err()),
            () = &mut handoff, if can_hand_off => Step::HandOff,
        };
        match step {
            Step::Upstream(Ok(Some(chunk))) => {
                if let Some(out) = relay.feed(chunk) {
                    session.write_response_body(Some(out), false).await?;
                    last_write = Instant::now();
                }
                if relay.is_ended() {
                    // A fault: the RUN_ERROR is out, the rest of the upstream's answer is not wanted.
                    break false;
                }
            }
            Step::Upstream(Ok(None)) => break true,
            // The upstream broke off: the relay's finish says so to the client.
            Step::Upstream(Err(_)) => break false,
            Step::Idle => {
                if let Some(ping) = relay.on_idle() {
                    session.write_response_body(Some(ping), false).await?;
                }
                last_write = Instant::now();
            }
            Step::Client(e) => {
                // The client went away: dropping the upstream session closes that connection.
                return Err(e.unwrap_or_else(|| {
                    Error::explain(
                        ErrorType::ConnectionClosed,
                        "client closed the event stream",
                    )
                }));
            }
            Step::HandOff => {
                can_hand_off = false;
                if let Some(client) = crate::handoff::take_client(session).await {
                    let pool = crate::handoff::Pool {
                        connector: gw.connector.clone(),
                        addr: gw.upstream.addr,
                    };
                    tokio::spawn(crate::handoff::relay(Box::new(crate::handoff::HandedOff {
                        client,
                        up,
                        relay,
                        keepalive: gw.keepalive,
                        last_write,
                        pool,
                    })));
                    crate::handoff::schedule_trim();
                    return Ok(None);
                }
            }
        }
    };
    let tail = relay.finish();
    let faulted = relay.faulted();
    session.write_response_body(tail, true).await?;
    Ok((clean && !faulted).then_some(up))
}

enum Step {
    Upstream(Result<Option<Bytes>>),
    Idle,
    Client(Option<Box<Error>>),
    HandOff,
}

/// `502` with a JSON body when the upstream cannot be reached or answers nonsense.
async fn reply_bad_gateway(session: &mut Session, e: &Error) -> Result<()> {
    let body = Bytes::from(
        serde_json::to_vec(&serde_json::json!({ "error": format!("upstream: {e}") }))
            .unwrap_or_default(),
    );
    let mut resp = ResponseHeader::build(502, Some(2))?;
    resp.insert_header(http::header::CONTENT_TYPE, "application/json")?;
    resp.insert_header(http::header::CONTENT_LENGTH, body.len().to_string())?;
    session.write_response_header(Box::new(resp), false).await?;
    session.write_response_body(Some(body), true).await?;
    Ok(())
}
