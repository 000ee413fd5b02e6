//! `RunAgentInput` parsing throughput: agui-wire against the parsers a user would pick
//! instead, on deterministic corpora at several sizes.
//!
//! Groups: `media_heavy/<size>`, `chat_heavy/<count>`, `chat_heavy_uuid/<count>` (the
//! variant `ag-ui-core` can read) and `state_heavy/<size>`, each with
//! `Throughput::Bytes(input length)` and every peer in the same group; and
//! `media_heavy_cold/64MB`, ours and `memchr2` with the caches flushed before every iteration. Before each group a
//! table of allocations and peak heap per parse is printed, one line per peer.
//!
//! ```text
//! cargo bench --bench parse                       # every size
//! AGUI_BENCH_QUICK=1 cargo bench --bench parse    # smallest two sizes, short runs
//! cargo bench --bench parse -- chat_heavy/1000    # one group
//! ```

mod common;

use common::corpus::{self, Dialect};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// Media-heavy sizes, in MiB of base64.
const MEDIA_MB: &[usize] = &[1, 8, 64];
/// Chat-heavy message counts.
const CHAT_MESSAGES: &[usize] = &[10, 1_000, 20_000];
/// State-heavy document sizes, in MiB.
const STATE_MB: &[usize] = &[1, 4, 16];

fn main() {
    let profile = common::Profile::from_env();
    let mut c = criterion::Criterion::default().configure_from_args();
    for mb in profile.sizes(MEDIA_MB) {
        common::run_group(&mut c, &corpus::media_heavy(mb), &profile);
    }
    // The cold-cache row: 64 MiB of media (twice the last-level cache), caches flushed.
    let cold_mb = if profile.test { 1 } else { 64 };
    common::run_cold(&mut c, &corpus::media_heavy(cold_mb), &profile);
    for n in profile.sizes(CHAT_MESSAGES) {
        common::run_group(&mut c, &corpus::chat_heavy(n, Dialect::Modern), &profile);
    }
    for n in profile.sizes(CHAT_MESSAGES) {
        common::run_group(&mut c, &corpus::chat_heavy(n, Dialect::AgUiCore), &profile);
    }
    for mb in profile.sizes(STATE_MB) {
        common::run_group(&mut c, &corpus::state_heavy(mb), &profile);
    }
    c.final_summary();
}
