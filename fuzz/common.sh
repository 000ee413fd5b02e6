# Shared by fuzz/run-all and fuzz/ci: how each target is run. Source it; do not execute it.
# shellcheck shell=bash

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(dirname "$FUZZ_DIR")"
# cargo-fuzz needs nightly flags (-Zsanitizer); the stable compiler accepts them with this.
export RUSTC_BOOTSTRAP=1
FUZZ_TARGET_DIR="${FUZZ_TARGET_DIR:-$FUZZ_DIR/target}"

# The targets cargo-fuzz knows ([[bin]] entries of fuzz/Cargo.toml), in file order.
fuzz_targets() {
    (cd "$REPO_DIR" && cargo fuzz list)
}

fuzz_build() {
    (cd "$REPO_DIR" && cargo fuzz build --target-dir "$FUZZ_TARGET_DIR" "$@")
}

# Longest input per target: whole documents need room, single values and strings less.
fuzz_max_len() {
    case "$1" in
        parse_input | parse_capabilities | rewrite | events | chunked | sse) echo 16384 ;;
        *) echo 4096 ;;
    esac
}

# fuzz_run TARGET SECONDS WORKDIR: one target, one process, one job. New inputs go to
# WORKDIR/corpus/TARGET; the committed seeds (fuzz/corpus/TARGET) are read only. Output goes to
# WORKDIR/TARGET.log. Returns libFuzzer's status (non-zero on a crash, leak, timeout or OOM).
fuzz_run() {
    local target="$1" seconds="$2" work="$3"
    local seeds="$FUZZ_DIR/corpus/$target"
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target" "$seeds"
    (cd "$REPO_DIR" && cargo fuzz run --target-dir "$FUZZ_TARGET_DIR" "$target" \
        "$work/corpus/$target" "$seeds" -- \
        -dict="$FUZZ_DIR/agui.dict" \
        -max_len="$(fuzz_max_len "$target")" \
        -max_total_time="$seconds" \
        -timeout=10 \
        -rss_limit_mb=2048 \
        -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$target/") >"$work/$target.log" 2>&1
}

# fuzz_summary TARGET WORKDIR: one Markdown table row from the log's final lines.
fuzz_summary() {
    local target="$1" log="$2/$1.log"
    local done_line execs rate cov ft corp
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
    cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")"
    ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")"
    corp="$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$done_line")"
    echo "| $target | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} |"
}
