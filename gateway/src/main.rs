//! `agui-gateway --listen ADDR --upstream URL [options]`: see `agui-gateway --help`.

#![deny(clippy::undocumented_unsafe_blocks)]

use clap::Parser;

fn main() {
    let config = agui_gateway::Config::parse();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if let Ok(threshold @ 1..) = i32::try_from(config.mmap_threshold) {
        // SAFETY: mallopt only changes a tunable of glibc's allocator; it is called before any
        // other thread exists, with a valid parameter and a positive value, and its result (0
        // when the value is refused) leaves the allocator in a valid state either way.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, threshold);
        }
    }
    if let Err(e) = agui_gateway::run(config) {
        eprintln!("agui-gateway: {e}");
        std::process::exit(2);
    }
}
