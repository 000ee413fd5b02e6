#!/bin/sh
# Wall time of one workload of benches/icount.rs in two builds (or two workloads in one
# build: ours against a peer), compared on a noisy machine
# (a VM whose speed drifts by tens of percent from minute to minute): each round runs both
# builds at the same time, one on each of two cores (swapped every round), so that both meet
# the same drift, and the ratio of their times per run is taken; it prints each build's
# minimum and median and the median ratio with its quartiles. Usage:
#   benches/abtime.sh WORKLOAD ROUNDS RUNS OLD NEW [NEW_WORKLOAD]
# e.g. `AGUI_ICOUNT_DOCS=4 benches/abtime.sh chat 24 300 /tmp/old /tmp/new`, where OLD and NEW
# are copies of target/release/deps/icount-<hash> (`cargo bench --bench icount --no-run`)
# built at each commit. Four documents of 0.4-0.5 MB each fit the two cores' 2.5 MiB L2 on
# the development VM; a build running against itself gives ratios of 0.98-1.01. With
# NEW_WORKLOAD, NEW runs that instead: `benches/abtime.sh chat_decode 24 300 BIN BIN
# chat_sonic` is sonic-rs's time over ours on the same documents.
set -e
w=$1 rounds=$2 runs=$3 old=$4 new=$5 w2=${6:-$1}
dir=$(mktemp -d)
time_of() { sed -n 's/.*, \([0-9.]*\) us per run/\1/p' "$1"; }
for r in $(seq "$rounds"); do
    a=$((r % 2))
    AGUI_ICOUNT="$w" AGUI_ICOUNT_RUNS="$runs" taskset -c "$a" "$old" >"$dir/old" &
    AGUI_ICOUNT="$w2" AGUI_ICOUNT_RUNS="$runs" taskset -c "$((1 - a))" "$new" >"$dir/new" &
    wait
    echo "$(time_of "$dir/old") $(time_of "$dir/new")" >>"$dir/rows"
done
python3 - "$dir/rows" "$w" "$w2" <<'PY'
import statistics, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
ratios = sorted(n / o for o, n in rows)
q = lambda f: ratios[min(len(ratios) - 1, int(f * len(ratios)))]
olds, news = [o for o, _ in rows], [n for _, n in rows]
name = sys.argv[2] if sys.argv[2] == sys.argv[3] else f"{sys.argv[3]} against {sys.argv[2]}"
print(f"{name}: old min {min(olds):.1f} median {statistics.median(olds):.1f} us, "
      f"new min {min(news):.1f} median {statistics.median(news):.1f} us, "
      f"new/old median {statistics.median(ratios):.3f} (quartiles {q(0.25):.3f}-{q(0.75):.3f}, "
      f"{len(rows)} rounds)")
PY
rm -rf "$dir"
