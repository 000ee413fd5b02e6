//! The command line: what the gateway listens on, where it forwards, and its policies.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

use agui_wire::ParseOptions;
use clap::Parser;

/// `agui-gateway --listen ADDR --upstream URL [options]`.
///
/// Every `POST` whose body is JSON is parsed as a `RunAgentInput` while it streams in; a body
/// over a limit gets `413`, an invalid one `400` (both without contacting the upstream).
/// Valid bodies are forwarded (byte for byte unless a policy edits them) and the upstream's
/// `text/event-stream` answer is relayed event by event. Everything else passes through.
///
/// Parsed with clap ([`clap::Parser`]); `Send + Sync`.
///
/// ```
/// use agui_gateway::Config;
/// use clap::Parser;
/// let config = Config::try_parse_from([
///     "agui-gateway",
///     "--upstream", "http://127.0.0.1:9000/agent",
///     "--max-body", "1048576",
///     "--drop-events", "RAW,STATE_DELTA",
///     "--strip-encrypted",
/// ])?;
/// assert_eq!(config.listen, "127.0.0.1:8080"); // the default
/// assert_eq!(config.drop_events, ["RAW", "STATE_DELTA"]);
/// assert!(config.strip_encrypted);
/// // Flags that need each other are checked by the parser.
/// assert!(Config::try_parse_from(["agui-gateway", "--upstream", "http://h", "--media-dir", "/tmp"]).is_err());
/// # Ok::<(), clap::Error>(())
/// ```
#[derive(Parser, Debug, Clone)]
#[command(name = "agui-gateway", version, about, long_about = None)]
pub struct Config {
    /// Address to listen on (`IP:PORT`).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// The agent server, `http://HOST:PORT[/PREFIX]` (the prefix is put before every path).
    #[arg(long)]
    pub upstream: String,
    /// Largest request body accepted, in bytes (`413` past it, as soon as it is crossed).
    #[arg(long, default_value_t = 64 << 20)]
    pub max_body: usize,
    /// Deepest nesting of objects and arrays in a body (`413` past it).
    #[arg(long, default_value_t = 128)]
    pub max_depth: usize,
    /// Most messages in `messages`, and most entries in any other list (`413` past it).
    #[arg(long, default_value_t = 100_000)]
    pub max_messages: usize,
    /// Write inline media (base64 `data` sources and `data:` URLs) to files in this folder
    /// and forward `url` sources instead (needs `--media-base-url`).
    #[arg(long, requires = "media_base_url")]
    pub media_dir: Option<PathBuf>,
    /// The URL the files of `--media-dir` are served at; a part's new source is
    /// `URL/NAME` where NAME is the file's content hash and extension.
    #[arg(long, requires = "media_dir")]
    pub media_base_url: Option<String>,
    /// Remove `encryptedValue` from messages before forwarding.
    #[arg(long)]
    pub strip_encrypted: bool,
    /// Event types the client never sees, comma-separated (`RAW,STATE_DELTA`).
    #[arg(long, value_delimiter = ',')]
    pub drop_events: Vec<String>,
    /// Replace the payload of `RAW` events before they reach the client (`--drop-events RAW`
    /// drops them instead).
    #[arg(long)]
    pub redact_raw: bool,
    /// Send a `: ping` comment on an event stream idle this long (0: never).
    #[arg(long, default_value_t = 15)]
    pub keepalive_secs: u64,
    /// Read `null` in optional fields as absent (as the Python SDK does).
    #[arg(long)]
    pub lenient: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read buffer per client connection, in bytes (0: none, reads go straight to the socket;
    /// Pingora's default is 65536). Every open event stream keeps one.
    #[arg(long, default_value_t = 0)]
    pub read_buffer: usize,
    /// glibc only: allocations from this many bytes up get their own mapping (0: glibc's
    /// default). 32768 keeps the untouched part of Pingora's 64 KiB per-connection body buffers
    /// out of resident memory (about 48 -> 42 KiB per open idle event stream) at the price of
    /// page faults on every large buffer (more CPU per request).
    #[arg(long, default_value_t = 0)]
    pub mmap_threshold: usize,
    /// An event stream still open after this many milliseconds is handed from Pingora's
    /// per-connection state to a small task of its own (HTTP/1.1 clients): about 20 KiB less
    /// per open stream; the client's connection then closes when the stream ends instead of
    /// being reused. 0: never.
    #[arg(long, default_value_t = 1000)]
    pub handoff_after_ms: u64,
    /// Seconds a client may take between two pieces of its request body.
    #[arg(long, default_value_t = 60)]
    pub read_timeout_secs: u64,
}

/// Where the upstream is, resolved once at start.
#[derive(Debug, Clone)]
pub(crate) struct Upstream {
    /// The address connected to.
    pub addr: SocketAddr,
    /// Path prefix put before every request path (empty or starting with `/`, no trailing `/`).
    pub prefix: String,
}

impl Config {
    /// The parse limits the flags set (`--max-body`, `--max-depth`, `--max-messages`,
    /// `--lenient`).
    ///
    /// ```
    /// use clap::Parser;
    /// let config = agui_gateway::Config::try_parse_from([
    ///     "agui-gateway", "--upstream", "http://127.0.0.1:9000", "--max-body", "1000", "--max-depth", "16",
    /// ])?;
    /// let options = config.parse_options();
    /// assert_eq!((options.max_input_bytes, options.max_depth), (1000, 16));
    /// # Ok::<(), clap::Error>(())
    /// ```
    pub fn parse_options(&self) -> ParseOptions {
        let mut options = if self.lenient {
            ParseOptions::lenient()
        } else {
            ParseOptions::default()
        };
        options.max_input_bytes = self.max_body;
        options.max_depth = self.max_depth;
        options.max_messages = self.max_messages;
        options.max_list_items = self.max_messages;
        options
    }

    /// The upstream URL, checked and resolved.
    pub(crate) fn upstream(&self) -> Result<Upstream, String> {
        let url = self.upstream.trim();
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("--upstream {url:?}: only http:// URLs are supported"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.is_empty() {
            return Err(format!("--upstream {url:?}: no host"));
        }
        let with_port = if authority
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        let addr = with_port
            .to_socket_addrs()
            .map_err(|e| format!("--upstream {url:?}: {e}"))?
            .next()
            .ok_or_else(|| format!("--upstream {url:?}: the host has no address"))?;
        Ok(Upstream {
            addr,
            prefix: path.trim_end_matches('/').to_string(),
        })
    }

    /// The `--listen` address, checked (an `IP:PORT`, no host names).
    ///
    /// ```
    /// use clap::Parser;
    /// use agui_gateway::Config;
    /// let config = Config::try_parse_from(["agui-gateway", "--upstream", "http://127.0.0.1:9000"])?;
    /// assert_eq!(config.listen_addr()?.port(), 8080);
    /// let bad = Config::try_parse_from(["agui-gateway", "--listen", "localhost", "--upstream", "http://h"])?;
    /// assert!(bad.listen_addr().unwrap_err().starts_with("--listen"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn listen_addr(&self) -> Result<SocketAddr, String> {
        self.listen
            .parse()
            .map_err(|e| format!("--listen {:?}: {e}", self.listen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(args: &[&str]) -> Config {
        let mut all = vec!["agui-gateway"];
        all.extend_from_slice(args);
        Config::try_parse_from(all).unwrap()
    }

    #[test]
    fn flags_parse() {
        let c = config(&[
            "--upstream",
            "http://127.0.0.1:9000/agent/",
            "--drop-events",
            "RAW,STATE_DELTA",
            "--max-body",
            "1000",
        ]);
        assert_eq!(c.drop_events, ["RAW", "STATE_DELTA"]);
        let u = c.upstream().unwrap();
        assert_eq!(u.addr.port(), 9000);
        assert_eq!(u.prefix, "/agent");
        assert_eq!(c.parse_options().max_input_bytes, 1000);
        assert!(config(&["--upstream", "https://x"]).upstream().is_err());
    }

    #[test]
    fn media_flags_come_together() {
        let args = [
            "agui-gateway",
            "--upstream",
            "http://127.0.0.1:1",
            "--media-dir",
            "/tmp",
        ];
        assert!(Config::try_parse_from(args).is_err());
    }
}
