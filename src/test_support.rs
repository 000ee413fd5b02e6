//! What the unit tests share: how long the randomized ones run.

/// How many rounds a randomized unit test runs: `full`, or an eighth of it (at least one) when
/// the environment sets `AGUI_WIRE_TEST_SHORT`, as `.ci/run` does for its second run of the
/// unit tests, under valgrind, where each round costs forty times as much (the same tests ran
/// in full just before it). The exhaustive tests (every offset, every byte) do not use it.
pub(crate) fn rounds(full: usize) -> usize {
    if std::env::var_os("AGUI_WIRE_TEST_SHORT").is_some() {
        (full / 8).max(1)
    } else {
        full
    }
}
