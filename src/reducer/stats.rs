//! A count of the work the reducer does (key comparisons, hash probes, nodes visited), per
//! thread, so that tests can check that a path grows linearly by comparing the counts at two
//! input sizes instead of timing it. Not part of the public API (see
//! [`work_done`](super::work_done)).

use std::cell::Cell;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Adds `n` units of work.
#[inline]
pub(crate) fn tick(n: u64) {
    WORK.with(|w| w.set(w.get().wrapping_add(n)));
}

/// The units of work done on this thread so far.
pub(crate) fn total() -> u64 {
    WORK.with(Cell::get)
}
