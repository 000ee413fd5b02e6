//! `agui-gateway --listen ADDR --upstream URL [options]`: see `agui-gateway --help`.

use clap::Parser;

fn main() {
    let config = agui_gateway::Config::parse();
    if let Err(e) = agui_gateway::run(config) {
        eprintln!("agui-gateway: {e}");
        std::process::exit(2);
    }
}
