#!/usr/bin/env python3
"""Turns the output of `cargo bench --bench parse` (read on stdin) into README's performance
table: GB/s of input (10^9 bytes a second, from criterion's median) for every peer of each
group, the ratios to the best typed peer and to `memchr2`, and agui-wire's allocations per
parse with a reused arena. A group timed over several documents in turn (chat and state)
counts their mean length.

    AGUI_BENCH_QUICK=1 cargo bench --bench parse 2>&1 | python3 benches/table.py
"""
import re
import sys

UNIT = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# The peers that build typed structs (the others are untyped values or limits).
TYPED = ["ag_ui", "ag_ui_core", "serde_json_owned", "serde_json_borrowed", "simd_json_owned",
         "simd_json_owned_nocopy", "sonic_rs_borrowed"]
COLUMNS = ["agui_wire", "agui_wire_decoded"] + TYPED + [
    "simd_json_value", "simd_json_value_nocopy", "simd_json_value_reuse",
    "limit_memchr2", "limit_memcpy"]


def main():
    sizes, allocs, times, order = {}, {}, {}, []
    name = None
    for line in sys.stdin:
        m = re.match(r"== (\S+): (\d+) bytes", line)
        if m:
            # A group timed over several documents in turn: their mean length.
            mean = re.search(r"\((\d+) bytes on average\)", line)
            sizes[m.group(1)] = int(mean.group(1) if mean else m.group(2))
            order.append(m.group(1))
            continue
        m = re.match(r"alloc (\S+)\s+agui_wire\s+allocs\s+(\d+)", line)
        if m:
            allocs[m.group(1)] = int(m.group(2))
            continue
        m = re.match(r"^(\S+/\S+/[A-Za-z0-9_]+)(?:\s+time:\s+\[(.*)\])?\s*$", line)
        if m:
            name = m.group(1)
            if m.group(2):
                times[name] = median(m.group(2))
                name = None
            continue
        m = re.match(r"^\s+time:\s+\[(.*)\]", line)
        if m and name:
            times[name] = median(m.group(1))
            name = None
    head = ["payload", "bytes"] + COLUMNS + [
        "ours / best typed", "ours + decode / best typed", "ours / memchr2", "our allocs"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for group in order:
        if group not in sizes or f"{group}/agui_wire" not in times:
            continue
        gbs = {}
        for peer in COLUMNS:
            t = times.get(f"{group}/{peer}")
            gbs[peer] = sizes[group] / t / 1e9 if t else None
        typed = [gbs[p] for p in TYPED if gbs[p]]
        best = max(typed) if typed else None
        row = [group.replace("/", " "), str(sizes[group])]
        row += [f"{gbs[p]:.2f}" if gbs[p] else "-" for p in COLUMNS]
        row.append(f"{gbs['agui_wire'] / best:.2f}x" if best else "-")
        dec = gbs["agui_wire_decoded"]
        row.append(f"{dec / best:.2f}x" if best and dec else "-")
        mc = gbs["limit_memchr2"]
        row.append(f"{gbs['agui_wire'] / mc:.2f}x" if mc else "-")
        row.append(str(allocs.get(group, "-")))
        print("| " + " | ".join(row) + " |")


def median(triple):
    parts = triple.split()
    # `[lo unit med unit hi unit]`: the middle pair.
    return float(parts[2]) * UNIT[parts[3]]


if __name__ == "__main__":
    main()
