//! `agui-gateway`: an AG-UI reverse proxy on Pingora.
//!
//! Every `POST` with a JSON body is parsed as a `RunAgentInput` while it streams in and
//! refused (`413` past a limit, `400` with `{"error","path","offset"}` when invalid) before
//! any upstream connection is made; valid bodies are forwarded byte for byte unless a policy
//! edits them (media offloaded to files, encrypted values stripped), and the upstream's event
//! stream is relayed through `agui-wire`'s relay stage. Other requests pass through.
//!
//! The gateway keeps no state between requests: any number of instances can stand behind a
//! load balancer. A resumed event stream carries all the gateway needs in its `Last-Event-ID`
//! (the `{runId}:{index}` cursor the relay wrote): the header goes upstream unchanged, and when
//! the upstream replays the run the events up to the cursor are left out.
//!
//! ```
//! use agui_gateway::{Config, Gateway};
//! use clap::Parser;
//! let config = Config::try_parse_from(["agui-gateway", "--upstream", "http://127.0.0.1:9000"])?;
//! let gateway = Gateway::new(&config)?; // checks the flags; connects nowhere yet
//! # let _ = gateway;
//! // agui_gateway::run(config) would now serve until the process is stopped.
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Map of the crate
//! | module | what it holds |
//! |---|---|
//! | [`config`] | the command line: [`Config`] (clap), its parse limits and addresses |
//! | [`proxy`] | the Pingora side: [`Gateway`], which requests are checked, plain proxying for the rest |
//! | [`body`] | a request body judged as it streams in: [`body::BodyCheck`] into [`body::Checked`] |
//! | [`policy`] | edits to a valid body before forwarding: [`policy::Policy`] (media offload, encrypted values stripped) |
//! | [`reject`] | the `400`/`413` answer: [`reject::Rejection`] and its JSON body |
//! | [`relay`] | the response side: [`relay::RelayPolicy`] (shared) and [`relay::EventRelay`] (one per response) |
//! | `exchange` | the upstream exchange for a checked body (internal) |
//! | `handoff` | a long event stream moved off Pingora's per-connection state onto a small task (internal) |
//!
//! ## Threads: `Send` and `Sync`
//! | type | `Send` | `Sync` | lifetime |
//! |---|---|---|---|
//! | [`Config`], [`Gateway`], [`policy::Policy`], [`relay::RelayPolicy`], [`reject::Rejection`] | yes | yes | shared by every request (`Gateway` is Pingora's service) |
//! | [`body::BodyCheck`] | yes | no | one per request, lives on the request's task across `.await`s |
//! | [`body::Checked`] | yes | yes | one per request; may move to a blocking thread ([`policy::Policy::apply`]) |
//! | [`relay::EventRelay`] | yes | no | one per response, on the response's task (its relay holds an arena) |
//!
//! These are checked at compile time by the crate's tests.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod body;
pub mod config;
mod exchange;
mod handoff;
pub mod policy;
pub mod proxy;
pub mod reject;
pub mod relay;

pub use config::Config;
pub use proxy::Gateway;

use pingora_core::listeners::{L4BufferSettings, ListenerConfig};
use pingora_core::server::Server;
use pingora_core::server::configuration::ServerConf;

/// Builds the Pingora server for `config` and runs it until the process is stopped.
///
/// Returns only on a bad flag (the message names it); otherwise it serves until the process
/// is stopped. This is what the `agui-gateway` binary calls.
///
/// ```no_run
/// use clap::Parser;
/// let config = agui_gateway::Config::try_parse_from([
///     "agui-gateway", "--listen", "127.0.0.1:8080", "--upstream", "http://127.0.0.1:9000",
/// ])?;
/// agui_gateway::run(config)?; // binds 127.0.0.1:8080 and serves
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(config: Config) -> Result<(), String> {
    let listen = config.listen_addr()?;
    let gateway = Gateway::new(&config)?;
    let threads = config.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let conf = ServerConf {
        threads: threads.max(1),
        pid_file: format!("/tmp/agui-gateway-{}.pid", std::process::id()),
        upgrade_sock: format!("/tmp/agui-gateway-{}.sock", std::process::id()),
        ..ServerConf::default()
    };
    let mut server = Server::new_with_opt_and_conf(None, conf);
    server.bootstrap();
    let mut service = pingora_proxy::http_proxy_service(&server.configuration, gateway);
    let endpoint = ListenerConfig::tcp(listen.to_string()).l4_buffer(L4BufferSettings {
        read: Some(config.read_buffer),
        write: None,
    });
    service.add_listener(endpoint);
    server.add_service(service);
    server.run_forever()
}

#[cfg(test)]
mod threads {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}

    #[test]
    fn send_and_sync_as_documented() {
        send_sync::<crate::Config>();
        send_sync::<crate::Gateway>();
        send_sync::<crate::policy::Policy>();
        send_sync::<crate::relay::RelayPolicy>();
        send_sync::<crate::reject::Rejection>();
        send::<crate::body::BodyCheck>();
        send_sync::<crate::body::Checked>();
        send::<crate::relay::EventRelay>();
    }
}
