//! The Pingora side: which requests are checked, the body read and judged before any upstream
//! connection exists, and plain proxying for everything else.
//!
//! Why the body is read in `request_filter` and not in `request_body_filter`: Pingora's proxy
//! loop picks the peer, connects and writes the request header *before* the first body byte
//! reaches `request_body_filter`, so a body refused there has already reached the upstream.
//! Pingora can replay a body read early only through its retry buffer, capped at 64 KiB. So for
//! a checked `POST` the gateway reads the body itself in `request_filter`, piece by piece into
//! the parser, answers `400`/`413` on the spot, and only for a valid body opens the upstream
//! connection (with Pingora's connector and pool) and does the exchange itself
//! (the internal `exchange` module). Every other request takes Pingora's normal proxy path.

use std::sync::Arc;
use std::time::Duration;

use agui_wire::ParseOptions;
use async_trait::async_trait;
use bytes::Bytes;
use pingora_core::connectors::http::Connector;
use pingora_core::upstreams::peer::HttpPeer;
use pingora_core::{Error, ErrorType, Result};
use pingora_http::{RequestHeader, ResponseHeader};
use pingora_proxy::{ProxyHttp, Session};

use crate::body::BodyCheck;
use crate::config::{Config, Upstream};
use crate::policy::Policy;
use crate::reject::Rejection;
use crate::relay::RelayPolicy;

/// The gateway: Pingora's proxy service ([`ProxyHttp`]), shared by every request (per-request
/// state lives on the request's task). `Send + Sync`.
///
/// Which requests are checked: a `POST` with a JSON `Content-Type` (`application/json`,
/// `*+json`) or none. Other requests are proxied as they are, with the upstream's path prefix.
///
/// ```
/// use agui_gateway::{Config, Gateway};
/// use clap::Parser;
/// let config = Config::try_parse_from([
///     "agui-gateway", "--upstream", "http://127.0.0.1:9000/agent", "--drop-events", "RAW",
/// ])?;
/// let gateway = Gateway::new(&config)?;
/// # let _ = gateway;
/// // A bad flag is reported by name.
/// let bad = Config::try_parse_from(["agui-gateway", "--upstream", "https://example.com"])?;
/// assert!(Gateway::new(&bad).err().unwrap().starts_with("--upstream"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Gateway {
    pub(crate) options: ParseOptions,
    pub(crate) upstream: Upstream,
    pub(crate) policy: Arc<Policy>,
    pub(crate) relay: RelayPolicy,
    pub(crate) keepalive: Option<Duration>,
    pub(crate) read_timeout: Duration,
    pub(crate) connector: Arc<Connector>,
    pub(crate) handoff_after: Option<Duration>,
}

impl Gateway {
    /// A gateway for a parsed command line: checks the upstream URL (resolving its host once),
    /// the `--drop-events` names, and creates `--media-dir`. Connects nowhere.
    pub fn new(config: &Config) -> std::result::Result<Gateway, String> {
        let media = match (&config.media_dir, &config.media_base_url) {
            (Some(dir), Some(url)) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("--media-dir {}: {e}", dir.display()))?;
                Some((dir.clone(), url.trim_end_matches('/').to_string()))
            }
            _ => None,
        };
        Ok(Gateway {
            options: config.parse_options(),
            upstream: config.upstream()?,
            policy: Arc::new(Policy {
                media,
                strip_encrypted: config.strip_encrypted,
            }),
            relay: RelayPolicy::new(&config.drop_events, config.redact_raw)?,
            keepalive: (config.keepalive_secs > 0)
                .then(|| Duration::from_secs(config.keepalive_secs)),
            read_timeout: Duration::from_secs(config.read_timeout_secs.max(1)),
            connector: Arc::new(Connector::new(None)),
            handoff_after: (config.handoff_after_ms > 0)
                .then(|| Duration::from_millis(config.handoff_after_ms)),
        })
    }

    pub(crate) fn peer(&self) -> HttpPeer {
        HttpPeer::new(self.upstream.addr, false, String::new())
    }

    /// Puts the upstream's path prefix before the request's path.
    pub(crate) fn rewrite(&self, req: &mut RequestHeader) -> Result<()> {
        if self.upstream.prefix.is_empty() {
            return Ok(());
        }
        let path = req.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
        let uri = format!("{}{}", self.upstream.prefix, path)
            .parse()
            .map_err(|_| Error::explain(ErrorType::InvalidHTTPHeader, "rewritten path"))?;
        req.set_uri(uri);
        Ok(())
    }

    /// Reads and judges a checked request's body; forwards it when valid.
    async fn check_and_forward(&self, session: &mut Session) -> Result<()> {
        let declared = content_length(session.req_header());
        let mut check = match BodyCheck::new(self.options.clone(), declared) {
            Ok(c) => c,
            Err(r) => return reply_rejection(session, &r, false).await,
        };
        session.set_read_timeout(Some(self.read_timeout));
        while let Some(chunk) = session.read_request_body().await? {
            if let Err(r) = check.feed(&chunk) {
                return reply_rejection(session, &r, false).await;
            }
        }
        let checked = match check.finish() {
            Ok(c) => c,
            Err(r) => return reply_rejection(session, &r, true).await,
        };
        let body = if self.policy.edits() {
            let policy = self.policy.clone();
            match tokio::task::spawn_blocking(move || policy.apply(checked)).await {
                Ok(Ok(body)) => body,
                Ok(Err(r)) => return reply_rejection(session, &r, true).await,
                Err(e) => return Err(Error::because(ErrorType::InternalError, "policy", e)),
            }
        } else {
            checked.into_bytes()
        };
        crate::exchange::forward(self, session, body).await
    }
}

/// Whether a request's body is checked: a `POST` with a JSON body (or no `Content-Type`).
pub(crate) fn is_checked(req: &RequestHeader) -> bool {
    if req.method != http::Method::POST {
        return false;
    }
    let Some(ct) = req.headers.get(http::header::CONTENT_TYPE) else {
        return true;
    };
    let Ok(ct) = ct.to_str() else {
        return false;
    };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json")
}

fn content_length(req: &RequestHeader) -> Option<usize> {
    req.headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Answers `400`/`413` with the JSON body. When the request body was not read to its end the
/// connection is closed after the answer (its remaining bytes are never read).
async fn reply_rejection(session: &mut Session, r: &Rejection, body_read: bool) -> Result<()> {
    let body = Bytes::from(r.to_json());
    let mut resp = ResponseHeader::build(r.status, Some(3))?;
    resp.insert_header(http::header::CONTENT_TYPE, "application/json")?;
    resp.insert_header(http::header::CONTENT_LENGTH, body.len().to_string())?;
    if !body_read {
        resp.insert_header(http::header::CONNECTION, "close")?;
        session.set_keepalive(None);
    }
    session.write_response_header(Box::new(resp), false).await?;
    session.write_response_body(Some(body), true).await?;
    Ok(())
}

#[async_trait]
impl ProxyHttp for Gateway {
    type CTX = ();

    fn new_ctx(&self) {}

    async fn request_filter(&self, session: &mut Session, _ctx: &mut ()) -> Result<bool> {
        if !is_checked(session.req_header()) {
            return Ok(false);
        }
        self.check_and_forward(session).await?;
        Ok(true)
    }

    async fn upstream_peer(&self, _session: &mut Session, _ctx: &mut ()) -> Result<Box<HttpPeer>> {
        Ok(Box::new(self.peer()))
    }

    async fn upstream_request_filter(
        &self,
        _session: &mut Session,
        upstream_request: &mut RequestHeader,
        _ctx: &mut (),
    ) -> Result<()> {
        self.rewrite(upstream_request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_requests_are_checked() {
        let mut req = RequestHeader::build("POST", b"/", None).unwrap();
        assert!(is_checked(&req));
        req.insert_header("content-type", "application/json; charset=utf-8")
            .unwrap();
        assert!(is_checked(&req));
        req.insert_header("content-type", "multipart/form-data")
            .unwrap();
        assert!(!is_checked(&req));
        let get = RequestHeader::build("GET", b"/", None).unwrap();
        assert!(!is_checked(&get));
    }
}
