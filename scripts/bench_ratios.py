#!/usr/bin/env python3
"""Prints figure / limit / ratio for Google Benchmark JSON output (STYLE.md 16).

Usage: bench_ratios.py RESULT.json [--baseline NAME]

For every benchmark: its rate (the `lookups_per_s` / any `*_per_s` rate counter, else items_per_second),
its limit (the `limit_per_s` counter, when the benchmark states one) and figure / limit. With
--baseline NAME, also the ratio of every other benchmark's rate to that benchmark's rate, measured in
the same run (e.g. the replay beside a plain hash-map loop over the same keys).

Upper limits (times, bytes): a counter `limit_X` beside a counter `X` (e.g. `p95_ms` and
`limit_p95_ms`, `bytes_per_event` and `limit_bytes_per_event`) is printed as X / limit / ratio, where
a ratio above 1 fails.
"""
import json
import sys


def rate(b):
    for k, v in b.items():
        if k.endswith("_per_s") and k != "limit_per_s" and isinstance(v, (int, float)):
            return k, float(v)
    if "items_per_second" in b:
        return "items_per_second", float(b["items_per_second"])
    return None, None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    baseline = None
    if "--baseline" in argv:
        i = argv.index("--baseline")
        if i + 1 >= len(argv):
            print("--baseline needs a benchmark name", file=sys.stderr)
            return 2
        baseline = argv[i + 1]
    try:
        with open(argv[1]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"bench_ratios: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    benches = [b for b in doc.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    base_rate = None
    if baseline:
        for b in benches:
            if b.get("name", "").split("/")[0] == baseline:
                base_rate = rate(b)[1]
    print(f"{'benchmark':32} {'figure':>16} {'limit':>14} {'ratio':>8}" + ("   vs baseline" if base_rate else ""))
    failed = False
    for b in benches:
        unit, r = rate(b)
        if r is None:
            continue
        limit = b.get("limit_per_s")
        ratio = f"{r / limit:8.2f}" if limit else f"{'-':>8}"
        if limit and r < limit:
            failed = True
        line = f"{b['name']:32} {r:14.0f}/s {(f'{limit:12.0f}/s' if limit else '-'):>14} {ratio}"
        if base_rate:
            line += f"   {r / base_rate:6.2f}x"
        print(line)
    for b in benches:
        for key, limit in b.items():
            if not key.startswith("limit_") or key == "limit_per_s" or key[6:] not in b:
                continue
            figure = float(b[key[6:]])
            ratio = figure / float(limit) if limit else float("inf")
            failed = failed or ratio > 1
            print(f"{b['name'] + ' ' + key[6:]:48} {figure:14.3f} {float(limit):14.3f} {ratio:8.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
