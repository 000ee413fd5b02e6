//! `agui-gateway`: an AG-UI reverse proxy on Pingora.
//!
//! Every `POST` with a JSON body is parsed as a `RunAgentInput` while it streams in and
//! refused (`413` past a limit, `400` with `{"error","path","offset"}` when invalid) before
//! any upstream connection is made; valid bodies are forwarded byte for byte unless a policy
//! edits them (media offloaded to files, encrypted values stripped), and the upstream's event
//! stream is relayed through `agui-wire`'s relay stage. Other requests pass through.
//!
//! The gateway keeps no state between requests: any number of instances can stand behind a
//! load balancer, and a resumed event stream needs only its `Last-Event-ID` forwarded.

pub mod body;
pub mod config;
mod exchange;
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
