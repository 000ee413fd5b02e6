//! `agui-gateway --listen ADDR --upstream URL [options]`: see `agui-gateway --help`.

use clap::Parser;

/// Buffers from this size up are mapped on their own (glibc), so the untouched part of the
/// 64 KiB body buffer Pingora keeps per upstream response never becomes resident memory, and
/// freed buffers go back to the system instead of being reused half-touched. Measured: about
/// 48 → 42 KiB per open idle event stream (see the README's gateway table).
const MMAP_THRESHOLD: i32 = 32 * 1024;

fn main() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a tunable of glibc's allocator; it is called before any
    // other thread exists, with a valid parameter and value, and its result (0 when the value
    // is refused) leaves the allocator in a valid state either way.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
    let config = agui_gateway::Config::parse();
    if let Err(e) = agui_gateway::run(config) {
        eprintln!("agui-gateway: {e}");
        std::process::exit(2);
    }
}
