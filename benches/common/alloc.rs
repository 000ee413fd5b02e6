//! A counting global allocator for the benches.
//!
//! It forwards every call to [`System`] and, while a [`measure`] window is open, counts
//! allocator calls and tracks the peak of live heap bytes. Outside a window it only pays
//! one relaxed atomic load per call, so the timed loops are not slowed by the bookkeeping.
//!
//! Each bench binary declares it in its root (a `#[global_allocator]` must sit there):
//!
//! ```ignore
//! mod common;
//! #[global_allocator]
//! static GLOBAL: common::alloc::Counting = common::alloc::Counting;
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

/// The counting allocator (a zero-sized wrapper over [`System`]).
pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static ALLOC_BYTES: AtomicU64 = AtomicU64::new(0);
/// Live bytes relative to the start of the window (frees of older blocks make it negative).
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

#[inline]
fn grow(n: usize) {
    let n = n as i64;
    let live = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(live, Relaxed);
}

#[inline]
fn shrink(n: usize) {
    LIVE.fetch_sub(n as i64, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract is exactly the one `System` already meets; the bookkeeping only
// touches atomics and never the returned memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed through unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && ON.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            ALLOC_BYTES.fetch_add(layout.size() as u64, Relaxed);
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours, passed through unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() && ON.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            ALLOC_BYTES.fetch_add(layout.size() as u64, Relaxed);
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was returned by `System` for `layout` (we hand out only its blocks).
        unsafe { System.dealloc(ptr, layout) };
        if ON.load(Relaxed) {
            shrink(layout.size());
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr`/`layout` come from `System` (see `dealloc`); `new_size` is the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && ON.load(Relaxed) {
            REALLOCS.fetch_add(1, Relaxed);
            if new_size >= layout.size() {
                ALLOC_BYTES.fetch_add((new_size - layout.size()) as u64, Relaxed);
                grow(new_size - layout.size());
            } else {
                shrink(layout.size() - new_size);
            }
        }
        p
    }
}

/// What one [`measure`] window saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls to `alloc`/`alloc_zeroed`.
    pub allocs: u64,
    /// Calls to `realloc`.
    pub reallocs: u64,
    /// Bytes requested by `alloc` plus the growth requested by `realloc`.
    pub bytes: u64,
    /// Highest live heap, in bytes above what was live when the window opened.
    pub peak: u64,
}

/// Runs `f` with counting switched on and returns its result with what it allocated.
///
/// Counting is process-wide: keep other threads quiet while a window is open (the benches
/// run single-threaded). Whatever `f` returns is dropped by the caller, outside the window.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    ALLOCS.store(0, Relaxed);
    REALLOCS.store(0, Relaxed);
    ALLOC_BYTES.store(0, Relaxed);
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ON.store(true, Relaxed);
    let r = std::hint::black_box(f());
    ON.store(false, Relaxed);
    let stats = Stats {
        allocs: ALLOCS.load(Relaxed),
        reallocs: REALLOCS.load(Relaxed),
        bytes: ALLOC_BYTES.load(Relaxed),
        peak: PEAK.load(Relaxed).max(0) as u64,
    };
    (r, stats)
}

/// `1234567` → `"1.18 MiB"`: short human sizes for the printout.
pub fn human(bytes: u64) -> String {
    const K: f64 = 1024.0;
    let b = bytes as f64;
    if b < K {
        format!("{bytes} B")
    } else if b < K * K {
        format!("{:.1} KiB", b / K)
    } else if b < K * K * K {
        format!("{:.2} MiB", b / (K * K))
    } else {
        format!("{:.2} GiB", b / (K * K * K))
    }
}
