//! Shared bench code: corpora, peers, the counting allocator and the group driver.
//!
//! A bench binary does `mod common;`, declares the allocator in its root and calls
//! [`run_group`] for each corpus (see `benches/parse.rs`).

pub mod alloc;
pub mod corpus;
#[allow(dead_code)]
pub mod event_stream;
pub mod peers;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode, Throughput};

use corpus::Corpus;
use peers::{Body, Peer};

/// Puts glibc's allocator in the state of a long-running server's: blocks up to 32 MiB come
/// from the heap, not from a fresh `mmap` each (`M_MMAP_THRESHOLD`), and the heap is not
/// handed back to the kernel below 64 MiB (`M_TRIM_THRESHOLD`). Without it the peers that
/// allocate per parse pay for it by the process's history: glibc moves both thresholds as
/// blocks come and go, and in one process a parse's buffers were mapped, faulted in and
/// unmapped every time (simd-json owned on `chat_heavy_sorted/1000`: 1 229-1 263 µs a parse;
/// 984-1 019 µs with the thresholds fixed; sonic-rs and ours the same either way; single core,
/// 2026-12-07). Ours parses into a reused arena and allocates nothing. Each bench's `main`
/// calls this first; elsewhere it does nothing.
pub fn warm_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets the allocator's parameters; it is called before any
    // thread of the bench starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

/// How much to run: set from `AGUI_BENCH_QUICK` and criterion's own mode.
#[derive(Clone, Debug)]
pub struct Profile {
    /// `AGUI_BENCH_QUICK=1`: the smallest two sizes, 10 samples, short times.
    pub quick: bool,
    /// `cargo test --benches` (no `--bench` flag): criterion runs each body once, so only
    /// the smallest size of each family is generated.
    pub test: bool,
    /// A plain-text filter given on the command line, to skip whole groups early.
    pub filter: Option<String>,
    /// Documents of a family and size timed in rotation (`AGUI_BENCH_DOCS`, default
    /// [`ROTATION`]); 1 times one document over and over.
    pub docs: usize,
}

/// Distinct documents (same family, size and shape; other seeds) a chat or state group parses
/// in turn. Parsing one document over and over lets the CPU's branch predictor learn that
/// document's branches: on `chat_heavy/1000` our validation ran at 0.36-0.44 ns a byte on one
/// document and 0.54-0.58 on two or more in turn (2026-12-06, the EPYC VM below). A proxy
/// never sees the same body twice, so the groups rotate.
pub const ROTATION: usize = 8;

impl Profile {
    /// Reads the environment and the command line.
    pub fn from_env() -> Self {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let has = |f: &str| args.iter().any(|a| a == f);
        let quick = std::env::var("AGUI_BENCH_QUICK").is_ok_and(|v| v == "1");
        let test = !has("--bench") || has("--test");
        let docs = std::env::var("AGUI_BENCH_DOCS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n| n > 0)
            .unwrap_or(ROTATION);
        Profile {
            quick,
            test,
            filter: plain_filter(&args),
            docs: if test { 1 } else { docs },
        }
    }

    /// The first `n` sizes of a family's list for this profile.
    pub fn sizes<T: Copy>(&self, all: &[T]) -> Vec<T> {
        let n = if self.test {
            1
        } else if self.quick {
            2
        } else {
            all.len()
        };
        all.iter().copied().take(n).collect()
    }

    /// Whether the command line's filter may want a group (checked before building its
    /// corpora; [`run_group`] then checks each peer): a filter without `/` may name a peer of
    /// any group; one with `/` must fit the group's name.
    pub fn wants_group(&self, family: &str, label: &str) -> bool {
        let group = format!("{family}/{label}/");
        self.filter.as_ref().is_none_or(|f| match f.find('/') {
            None => true,
            Some(i) => {
                group.contains(f.as_str()) || f.starts_with(&group) || group.contains(&f[..=i])
            }
        })
    }

    fn wants(&self, group: &str, peers: &[Peer<'_>]) -> bool {
        match &self.filter {
            None => true,
            Some(f) => peers
                .iter()
                .any(|p| format!("{group}/{}", p.name).contains(f.as_str())),
        }
    }
}

/// Criterion's positional FILTER when it is plain text (criterion treats it as a regex;
/// anything with regex syntax is left to criterion alone and every group is prepared).
fn plain_filter(args: &[String]) -> Option<String> {
    const WITH_VALUE: &[&str] = &[
        "--save-baseline",
        "-s",
        "--baseline",
        "-b",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--profile-time",
        "--format",
        "--color",
        "-c",
        "--output-format",
        "--plotting-backend",
    ];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with('-') {
            if WITH_VALUE.contains(&a.as_str()) {
                it.next();
            }
            continue;
        }
        let plain = a
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '-'));
        return plain.then(|| a.clone());
    }
    None
}

/// One line of the allocation table.
fn alloc_line(group: &str, name: &str, s: alloc::Stats, input: usize) {
    println!(
        "alloc {group:<22} {name:<26} allocs {:>9}  reallocs {:>7}  requested {:>11}  peak {:>11}  ({:.2}x input)",
        s.allocs,
        s.reallocs,
        alloc::human(s.bytes),
        alloc::human(s.peak),
        s.peak as f64 / input as f64
    );
}

/// Allocations of one run of a body, after two warm-up runs (so a reused arena has grown
/// to its steady size). A mutable body's copy is made before the window opens.
fn measure_body(body: &mut Body<'_>, input: &[u8]) -> alloc::Stats {
    match body {
        Body::Slice(f) => {
            f(input);
            f(input);
            alloc::measure(|| f(black_box(input))).1
        }
        Body::Mutable(f) => {
            for _ in 0..2 {
                f(&mut input.to_vec());
            }
            let mut copy = input.to_vec();
            alloc::measure(|| f(black_box(&mut copy))).1
        }
    }
}

/// Checks every peer on every document, prints its allocations on the first, then times them
/// all in one criterion group named after the corpus. `docs` are documents of one family and
/// size from different seeds: each timed iteration parses the next one in turn, so the
/// throughput is their mean length per iteration.
///
/// Panics when a peer's result differs from what the generator wrote: a bench must not
/// measure a failure.
pub fn run_group(c: &mut Criterion, docs: &[Corpus], profile: &Profile) {
    let corpus = &docs[0];
    let group = corpus.group_name();
    let input = &corpus.bytes;
    let (mut peers, notes) = peers::all(corpus);
    if !profile.wants(&group, &peers) {
        return;
    }
    if let Some(dir) = std::env::var_os("AGUI_BENCH_DUMP") {
        // For eyeballing or feeding to other tools: `<dir>/chat_heavy_1000.json`.
        let path =
            std::path::Path::new(&dir).join(format!("{}_{}.json", corpus.family, corpus.label));
        std::fs::write(&path, input).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let total: usize = docs.iter().map(|d| d.bytes.len()).sum();
    let mean = total / docs.len();
    println!(
        "\n== {group}: {} bytes ({}), {} messages, {} tool calls{}",
        input.len(),
        alloc::human(input.len() as u64),
        corpus.expect.messages,
        corpus.expect.tool_calls,
        if docs.len() > 1 {
            format!(
                "; timed over {} such documents in turn ({} bytes on average)",
                docs.len(),
                mean
            )
        } else {
            String::new()
        }
    );
    for n in &notes {
        println!("   {n}");
    }
    for p in &mut peers {
        for d in docs {
            match (p.check)(&d.bytes) {
                Ok(Some(got)) => {
                    if let Err(e) = d.expect.check(&got) {
                        panic!("{group}/{}: wrong result: {e}", p.name);
                    }
                }
                Ok(None) => {}
                Err(e) => panic!("{group}/{}: failed: {e}", p.name),
            }
        }
        let stats = measure_body(&mut p.body, input);
        alloc_line(&group, p.name, stats, input.len());
        if let Some(cold) = &mut p.cold {
            let (_, s) = alloc::measure(|| cold(black_box(input)));
            alloc_line(&group, &format!("{} (fresh arena)", p.name), s, input.len());
        }
    }

    let mut g = c.benchmark_group(&group);
    g.throughput(Throughput::Bytes(mean as u64));
    let big = input.len() >= 4 << 20;
    if profile.quick {
        // Bootstrap analysis dominates short runs on 2 cores: 10k resamples instead of 100k.
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(600))
            .nresamples(10_000)
            .sampling_mode(SamplingMode::Flat);
    } else if big {
        g.sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .sampling_mode(SamplingMode::Flat);
    } else {
        g.sample_size(50)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3));
    }
    let inputs: Vec<&[u8]> = docs.iter().map(|d| d.bytes.as_slice()).collect();
    for p in &mut peers {
        let mut turn = 0usize;
        let inputs = &inputs;
        let mut next = move || {
            turn = (turn + 1) % inputs.len();
            inputs[turn]
        };
        match &mut p.body {
            Body::Slice(f) => {
                g.bench_function(p.name, |b| b.iter(|| f(black_box(next()))));
            }
            Body::Mutable(f) => {
                g.bench_function(p.name, |b| {
                    b.iter_batched_ref(|| next().to_vec(), |buf| f(buf), BatchSize::LargeInput)
                });
            }
        }
    }
    g.finish();
}

/// Bytes written and read between two timed iterations of a cold-cache group: twice the
/// 32 MiB last-level cache of the machine the README's figures come from.
const FLUSH_BYTES: usize = 64 << 20;

/// Evicts the caches: writes and sums a buffer of [`FLUSH_BYTES`].
fn flush(buf: &mut [u8], round: u8) -> u64 {
    buf.fill(round);
    buf.iter().step_by(64).map(|&b| b as u64).sum()
}

/// The cold-cache row: ours and `memchr2` on a document larger than the last-level cache, the
/// caches flushed (a 64 MiB buffer written and read) before every timed iteration, so every
/// byte comes from memory. Group `<family>_cold/<label>`.
pub fn run_cold(c: &mut Criterion, corpus: &Corpus, profile: &Profile) {
    let group = format!("{}_cold/{}", corpus.family, corpus.label);
    let input = &corpus.bytes;
    if profile
        .filter
        .as_ref()
        .is_some_and(|f| !group.contains(f.as_str()) && !f.contains("cold"))
    {
        return;
    }
    println!(
        "\n== {group}: {} bytes ({}), caches flushed ({}) before each iteration",
        input.len(),
        alloc::human(input.len() as u64),
        alloc::human(FLUSH_BYTES as u64)
    );
    let mut arena = agui_wire::Bump::new();
    let want = corpus.expect.messages;
    let got = agui_wire::RunAgentInput::parse(input, &arena)
        .expect("agui_wire")
        .messages
        .len();
    assert_eq!(got, want, "{group}: messages");
    let mut junk = vec![0u8; FLUSH_BYTES];
    let mut round = 0u8;
    let mut g = c.benchmark_group(&group);
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(if profile.quick { 2 } else { 6 }))
        .sampling_mode(SamplingMode::Flat);
    g.bench_function("agui_wire", |b| {
        b.iter_batched(
            || {
                round = round.wrapping_add(1);
                black_box(flush(&mut junk, round));
            },
            |()| {
                arena.reset();
                let r = agui_wire::RunAgentInput::parse(black_box(input), &arena);
                black_box(r.expect("agui_wire").messages.len());
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("limit_memchr2", |b| {
        b.iter_batched(
            || {
                round = round.wrapping_add(1);
                black_box(flush(&mut junk, round));
            },
            |()| black_box(peers::limits::memchr2_count(black_box(input))),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}
