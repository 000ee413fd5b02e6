#!/bin/sh
# Instruction counts (callgrind) of each workload of benches/icount.rs, one line each:
# `workload instructions-per-run bytes items`. Usage: benches/icount.sh [workload...]
set -e
cd "$(dirname "$0")/.."
bin=$(cargo bench --bench icount --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*icount[^"]*\)".*/\1/p' | tail -1)
runs=${AGUI_ICOUNT_RUNS:-1}
for w in ${*:-chat chat_decode state media events events_by_value proto_up proto_down proto_view}; do
    out=$(mktemp)
    info=$(AGUI_ICOUNT=$w AGUI_ICOUNT_RUNS=$runs valgrind --tool=callgrind --callgrind-out-file="$out" \
        --collect-atstart=no --toggle-collect='*icount*measured*' "$bin" 2>/dev/null)
    ir=$(sed -n 's/^summary: //p' "$out")
    rm -f "$out"
    echo "$w $((ir / runs)) $info"
done
