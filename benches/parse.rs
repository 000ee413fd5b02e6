//! `RunAgentInput` parsing throughput: agui-wire against the parsers a user would pick
//! instead, on deterministic corpora at several sizes.
//!
//! Groups: `media_heavy/<size>`, `chat_heavy/<count>`, `chat_heavy_uuid/<count>` (the
//! variant `ag-ui-core` can read), `chat_heavy_py/<count>` (the same messages as Python's
//! `json.dumps` writes them) and `state_heavy/<size>`, each with
//! `Throughput::Bytes(mean input length)` and every peer in the same group (chat and state
//! groups time eight documents of the same shape in turn, `AGUI_BENCH_DOCS` to change; see
//! `common::ROTATION`); and
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
    common::warm_allocator();
    let profile = common::Profile::from_env();
    let mut c = criterion::Criterion::default().configure_from_args();
    // Media documents have few branches to learn (a handful of strings): one document.
    for mb in profile.sizes(MEDIA_MB) {
        common::run_group(&mut c, &[corpus::media_heavy(mb)], &profile);
    }
    // The same with keys in alphabetical order (serde_json's `Value`, Go's maps).
    for mb in profile.sizes(MEDIA_MB) {
        if profile.wants_group("media_heavy_sorted", &format!("{mb}MB")) {
            common::run_group(&mut c, &[corpus::media_heavy_sorted(mb)], &profile);
        }
    }
    // The cold-cache row: 64 MiB of media (twice the last-level cache), caches flushed.
    let cold_mb = if profile.test { 1 } else { 64 };
    common::run_cold(&mut c, &corpus::media_heavy(cold_mb), &profile);
    // Chat and state: `profile.docs` documents of each size, timed in turn (see
    // `common::ROTATION`).
    for (dialect, family) in [
        (Dialect::Modern, "chat_heavy"),
        (Dialect::AgUiCore, "chat_heavy_uuid"),
    ] {
        for n in profile.sizes(CHAT_MESSAGES) {
            if profile.wants_group(family, &n.to_string()) {
                let docs: Vec<_> = (0..profile.docs as u64)
                    .map(|v| corpus::chat_heavy_variant(n, dialect, v))
                    .collect();
                common::run_group(&mut c, &docs, &profile);
            }
        }
    }
    // Chat as Python's `json.dumps` writes it (spaces after `:` and `,`, `\uXXXX` for every
    // character outside ASCII): what a Python client posting with `requests` sends.
    for n in profile.sizes(CHAT_MESSAGES) {
        if profile.wants_group("chat_heavy_py", &n.to_string()) {
            let docs: Vec<_> = (0..profile.docs as u64)
                .map(|v| corpus::chat_heavy_python(n, v))
                .collect();
            common::run_group(&mut c, &docs, &profile);
        }
    }
    // Chat with keys in alphabetical order (serde_json's `Value`, Go's maps): `content`
    // before `role`.
    for n in profile.sizes(CHAT_MESSAGES) {
        if profile.wants_group("chat_heavy_sorted", &n.to_string()) {
            let docs: Vec<_> = (0..profile.docs as u64)
                .map(|v| corpus::chat_heavy_sorted(n, v))
                .collect();
            common::run_group(&mut c, &docs, &profile);
        }
    }
    for mb in profile.sizes(STATE_MB) {
        if profile.wants_group("state_heavy", &format!("{mb}MB")) {
            let docs: Vec<_> = (0..profile.docs as u64)
                .map(|v| corpus::state_heavy_variant(mb, v))
                .collect();
            common::run_group(&mut c, &docs, &profile);
        }
    }
    c.final_summary();
}
