#!/usr/bin/env python3
"""Prints figure / limit / ratio for each speed or size target found in Google Benchmark JSON.

Usage: bench_ratios.py RESULTS.json [MORE.json ...]
       (produce them with:  BENCH --benchmark_format=json --benchmark_out=RESULTS.json)

Every target names a figure (a benchmark's time, counter or items/s, or the quotient of two
benchmarks' throughputs measured in the same run), its limit and whether lower or higher is better.
ratio = figure / limit for "at most" targets and limit / figure for "at least" targets, so a ratio
<= 1.0 always means the target is met. Exit status 1 when a target present in the input is missed;
targets whose benchmarks are absent are listed as "not run".
"""
import json
import sys

# (label, kind, spec, limit, unit). kind: "time" (ns per iteration), "counter" (name), "items" (items/s),
# "ratio" (items/s of spec[0] divided by items/s of spec[1]), "counter_ratio" (counter spec[2] of
# spec[0] divided by the same counter of spec[1]). Limits: "<=" or ">=".
TARGETS = [
    ("disabled event, macro site", "time", ("BM_DisabledMacro",), ("<=", 2.0), "ns"),
    ("disabled event, function call (shown; limit is for the site)", "time", ("BM_DisabledCall",), None, "ns"),
    ("enabled event p50, caller's thread", "counter", ("BM_EnabledEvent", "p50_ns"), ("<=", 50.0), "ns"),
    ("enabled event p99, caller's thread (shown, no limit)", "counter", ("BM_EnabledEvent", "p99_ns"), None, "ns"),
    ("end-to-end ingest into SQLite", "items", ("BM_EndToEndIngest",), (">=", 1.0e6), "events/s"),
    ("end-to-end ingest / raw SQLite inserts", "ratio", ("BM_EndToEndIngest", "BM_RawSqliteInsert"), (">=", 0.5), ""),
    ("end-to-end / raw SQLite, events per CPU-second", "counter_ratio",
     ("BM_EndToEndIngest", "BM_RawSqliteInsert", "cpu_events_per_s"), (">=", 0.5), ""),
    ("end-to-end incl. finalize (WAL folded in) (shown, no limit)", "counter", ("BM_EndToEndIngest", "finalized_events_per_s"),
     None, "events/s"),
    ("bytes per event on disk", "counter", ("BM_EndToEndIngest", "bytes_per_event"), ("<=", 64.0), "B"),
    ("TraceWriter spans / raw SQLite inserts", "ratio", ("BM_TraceWriterSpans", "BM_RawSqliteSpans"), (">=", 0.5), ""),
    ("span pyramid: writer throughput with / without it (v2 / v1), 1 lane", "ratio",
     ("BM_TraceWriterSpans/1048576/1", "BM_TraceWriterSpansV1/1048576/1"), (">=", 0.9), ""),
    ("span pyramid: file size with / without it (v2 / v1), 1 lane", "counter_ratio",
     ("BM_TraceWriterSpans/1048576/1", "BM_TraceWriterSpansV1/1048576/1", "bytes_per_event"), ("<=", 1.10), ""),
    ("span pyramid: writer throughput with / without it (v2 / v1), 8 lanes", "ratio",
     ("BM_TraceWriterSpans/1048576/8", "BM_TraceWriterSpansV1/1048576/8"), (">=", 0.9), ""),
    ("span pyramid: file size with / without it (v2 / v1), 8 lanes", "counter_ratio",
     ("BM_TraceWriterSpans/1048576/8", "BM_TraceWriterSpansV1/1048576/8", "bytes_per_event"), ("<=", 1.10), ""),
    ("writer with a live follower / writer alone", "ratio", ("BM_WriterWithFollower", "BM_WriterAlone"), (">=", 0.9), ""),
    ("invalidation trees from a 1M-item raw list", "time", ("BM_BuildInvalidationTrees",), ("<=", 1.0e9), "ns"),
    ("1M items read from a trace, trees built, cost joined (shown, no limit)", "time",
     ("BM_LoadBuildAndJoinFromTrace",), None, "ns"),
    ("TEF import", "counter", ("BM_TefImport", "MB_per_s"), (">=", 100.0), "MB/s"),
    ("TEF JSON parse alone (shown, no limit)", "counter", ("BM_TefParseOnly", "MB_per_s"), None, "MB/s"),
    ("TEF JSON parse with simdjson On-Demand, the whole file loaded (shown, no limit)", "counter",
     ("BM_TefParseSimdjson", "MB_per_s"), None, "MB/s"),
    ("TEF simdjson parse / pull parser parse, same file", "counter_ratio", ("BM_TefParseSimdjson", "BM_TefParseOnly", "MB_per_s"), None, ""),
    ("TEF JSON parse with simdjson, buffers reused and warm (shown: what a chunked reader could approach)", "counter",
     ("BM_TefParseSimdjsonWarm", "MB_per_s"), None, "MB/s"),
    ("TEF simdjson parse: memory grown (shown; the file is loaded whole)", "counter", ("BM_TefParseSimdjson", "rss_growth_bytes"),
     None, "B"),
    ("TEF plain read of the same file (shown, no limit)", "counter", ("BM_TefPlainRead", "MB_per_s"), None, "MB/s"),
    ("TEF as many plain six-integer rows into SQLite (shown, no limit)", "counter", ("BM_TefRawSqliteFloor", "MB_per_s"),
     None, "MB/s"),
    ("TEF the import's own rows re-inserted into the same schema, 64 per statement (the storage limit)", "counter",
     ("BM_TefSameRowsFloor/64", "MB_per_s"), None, "MB/s"),
    ("TEF the import's own rows re-inserted, one per statement (shown, no limit)", "counter",
     ("BM_TefSameRowsFloor/1", "MB_per_s"), None, "MB/s"),
    ("TEF import / raw SQLite inserts of the same rows", "counter_ratio",
     ("BM_TefImport", "BM_TefSameRowsFloor/64", "MB_per_s"), (">=", 0.9), ""),
    ("TEF import / plain six-integer rows (shown)", "counter_ratio", ("BM_TefImport", "BM_TefRawSqliteFloor", "MB_per_s"),
     None, ""),
    ("build import, 1,860 clang time traces / raw SQLite inserts of the same rows", "ratio",
     ("BM_BuildImport", "BM_BuildSameRowsFloor"), (">=", 0.9), ""),
    ("build import / plain six-integer rows (shown)", "ratio", ("BM_BuildImport", "BM_BuildRawSqliteInserts"), None, ""),
    ("build import, 1,860 clang time traces (shown, no limit)", "items", ("BM_BuildImport",), None, "events/s"),
    ("ranks: divergence findings over 256 analysed traces", "time", ("BM_RanksDivergenceFindings",), ("<=", 1.0e9), "ns"),
    ("ranks: analyse 256 traces of 100k events + compare (shown)", "time", ("BM_RanksAnalyseAndCompare",), None, "ns"),
    ("ranks: plain SQL scan of the 256 traces (shown, the floor)", "time", ("BM_RanksPlainScan",), None, "ns"),
    ("ranks: GUI open of 256 traces to first paint, every rank's group on screen", "counter",
     ("BM_GuiRanksFirstPaint", "first_paint_s"), ("<=", 3.0), "s"),
    ("ranks: GUI, every rank read whole and analysed (shown, no limit)", "counter", ("BM_GuiRanksFirstPaint", "all_loaded_s"),
     None, "s"),
    ("ranks: GUI resident memory with 256 traces loaded (shown, no limit)", "counter",
     ("BM_GuiRanksFirstPaint", "rss_bytes_loaded"), None, "B"),
    ("ranks: HTML report over 256 traces", "time", ("BM_RanksReport",), ("<=", 10.0e9), "ns"),
    ("ranks: HTML report over 256 traces, size", "counter", ("BM_RanksReport", "report_bytes"), ("<=", 10.0 * 1024 * 1024), "B"),
    ("diff of two 1M-event traces (analyses + matching)", "counter", ("BM_DiffMillionEventTraces", "seconds"),
     ("<=", 2.0), "s"),
    ("diff of two 1M-event traces: resident memory grown", "counter", ("BM_DiffMillionEventTraces", "rss_growth_bytes"),
     ("<=", 1024.0 * 1024 * 1024), "B"),
    ("cache replay, one core", "items", ("BM_Replay",), (">=", 1.0e6), "lookups/s"),
    ("cache replay + miss attribution, one core", "items", ("BM_ReplayAndAttribute",), (">=", 1.0e6), "lookups/s"),
    ("cache replay / plain hash-map loop, same keys (shown)", "ratio", ("BM_Replay", "BM_HashMapBaseline"), None, ""),
    ("viewer: open 1M events to first timeline paint", "counter", ("BM_OpenToFirstTimelinePaint/1000000", "seconds"),
     ("<=", 1.0), "s"),
    ("viewer: open 10M events to first timeline paint", "counter", ("BM_OpenToFirstTimelinePaint/10000000", "seconds"),
     ("<=", 5.0), "s"),
    ("viewer: timeline repaint p95 at any zoom, 1M events", "counter", ("BM_TimelineRepaintAnyZoom/1000000", "p95_ms"),
     ("<=", 16.0), "ms"),
    ("viewer: timeline repaint p95 at any zoom, 10M events", "counter", ("BM_TimelineRepaintAnyZoom/10000000", "p95_ms"),
     ("<=", 33.0), "ms"),
    ("viewer: memory per event (index bytes), 1M", "counter", ("BM_ViewerMemoryPerEvent/1000000", "bytes_per_event"),
     ("<=", 40.0), "B"),
    ("viewer: memory per event (RSS growth), 1M", "counter", ("BM_ViewerMemoryPerEvent/1000000", "rss_bytes_per_event"),
     ("<=", 40.0), "B"),
    ("viewer: memory per event (index bytes), 10M", "counter", ("BM_ViewerMemoryPerEvent/10000000", "bytes_per_event"),
     ("<=", 40.0), "B"),
    ("viewer: memory per event (RSS growth), 10M", "counter", ("BM_ViewerMemoryPerEvent/10000000", "rss_bytes_per_event"),
     ("<=", 40.0), "B"),
    ("viewer: open 100M events to first paint / raw sqlite3_step scan", "counter_ratio",
     ("BM_OpenToFirstTimelinePaint/100000000", "BM_RawSpanScan/100000000", "seconds"), ("<=", 1.0), ""),
    ("viewer: raw sqlite3_step scan of 100M span rows (shown, the floor)", "counter", ("BM_RawSpanScan/100000000", "seconds"),
     None, "s"),
    ("viewer: timeline repaint p95 at any zoom, 100M events", "counter", ("BM_TimelineRepaintAnyZoom/100000000", "p95_ms"),
     ("<=", 33.0), "ms"),
    ("viewer: memory per event (index bytes), 100M", "counter", ("BM_ViewerMemoryPerEvent/100000000", "bytes_per_event"),
     ("<=", 32.0), "B"),
    ("viewer: memory per event (RSS growth), 100M", "counter", ("BM_ViewerMemoryPerEvent/100000000", "rss_bytes_per_event"),
     ("<=", 32.0), "B"),
    ("viewer: a 1,860-file build, bytes per event", "counter", ("BM_BuildTraceOpenAndRepaint", "bytes_per_event"),
     ("<=", 64.0), "B"),
    ("viewer: a 1,860-file build, repaint p95", "counter", ("BM_BuildTraceOpenAndRepaint", "p95_ms"), ("<=", 33.0), "ms"),
    ("viewer: a 1,860-file build, open to a loaded timeline (shown, no limit)", "counter",
     ("BM_BuildTraceOpenAndRepaint", "open_s"), None, "s"),
    ("record --warp: real Warp program, wall time recorded / unrecorded (median)", "counter",
     ("BM_PythonOverhead/warp", "wall_ratio"), ("<=", 1.02), ""),
    ("record --warp: collector hooks' time per Warp compile", "counter",
     ("BM_PythonOverhead/warp", "hook_us_per_compile"), ("<=", 100.0), "us"),
    ("record --warp: whole-run delta per Warp compile, median of pairs (shown: holds compile-time noise)",
     "counter", ("BM_PythonOverhead/warp", "us_per_compile"), None, "us"),
    ("record --torch: real PyTorch program, wall time recorded / unrecorded (median)", "counter",
     ("BM_PythonOverhead/torch", "wall_ratio"), ("<=", 1.02), ""),
    ("record --torch: collector hooks' time per PyTorch compile", "counter",
     ("BM_PythonOverhead/torch", "hook_us_per_compile"), ("<=", 100.0), "us"),
    ("record --torch: whole-run delta per PyTorch compile, median of pairs (shown: holds compile-time noise)",
     "counter", ("BM_PythonOverhead/torch", "us_per_compile"), None, "us"),
    ("record --jax: real JAX program, wall time recorded / unrecorded (median)", "counter",
     ("BM_PythonOverhead/jax", "wall_ratio"), ("<=", 1.02), ""),
    ("record --jax: collector hooks' time per JAX compile", "counter",
     ("BM_PythonOverhead/jax", "hook_us_per_compile"), ("<=", 100.0), "us"),
    ("record --jax: whole-run delta per JAX compile, median of pairs (shown: holds compile-time noise)",
     "counter", ("BM_PythonOverhead/jax", "us_per_compile"), None, "us"),
    ("record --numba: real Numba program, wall time recorded / unrecorded (median)", "counter",
     ("BM_PythonOverhead/numba", "wall_ratio"), ("<=", 1.02), ""),
    ("record --numba: collector hooks' time per Numba compile", "counter",
     ("BM_PythonOverhead/numba", "hook_us_per_compile"), ("<=", 100.0), "us"),
    ("record --numba: whole-run delta per Numba compile, median of pairs (shown: holds compile-time noise)",
     "counter", ("BM_PythonOverhead/numba", "us_per_compile"), None, "us"),
    ("span pyramid: first paint data, 1M, file out of the page cache (shown, no limit)", "counter",
     ("BM_PyramidFirstPaint/1000000", "first_paint_s"), None, "s"),
    ("span pyramid: first paint data, 10M, file out of the page cache", "counter",
     ("BM_PyramidFirstPaint/10000000", "first_paint_s"), ("<=", 0.3), "s"),
    ("span pyramid: first paint data, 100M, file out of the page cache", "counter",
     ("BM_PyramidFirstPaint/100000000", "first_paint_s"), ("<=", 1.0), "s"),
    ("span pyramid: repaint data p95, random zooms, 10M", "counter",
     ("BM_PyramidRandomZooms/10000000", "repaint_p95_ms"), ("<=", 33.0), "ms"),
    ("span pyramid: repaint data p95, random zooms, 100M", "counter",
     ("BM_PyramidRandomZooms/100000000", "repaint_p95_ms"), ("<=", 33.0), "ms"),
    ("span pyramid: worker's span fetch after a zoom, p95, 10M (shown, no limit)", "counter",
     ("BM_PyramidRandomZooms/10000000", "span_fetch_p95_ms"), None, "ms"),
    ("span pyramid: real spans of a 1 us window (slowest of 50), 10M", "counter",
     ("BM_PyramidRandomZooms/10000000", "one_us_spans_max_ms"), ("<=", 100.0), "ms"),
    ("span pyramid: real spans of a 1 us window (slowest of 50), 100M", "counter",
     ("BM_PyramidRandomZooms/100000000", "one_us_spans_max_ms"), ("<=", 100.0), "ms"),
    ("span pyramid: RSS after random zooms, 100M", "counter",
     ("BM_PyramidRandomZooms/100000000", "rss_mb"), ("<=", 1000.0), "MB"),
    ("viewer: CPU seconds of all threads, open 1M to first paint (shown, no limit)", "counter",
     ("BM_OpenToFirstTimelinePaint/1000000", "cpu_seconds"), None, "s"),
    ("viewer: CPU seconds of all threads, open 10M to first paint (shown, no limit)", "counter",
     ("BM_OpenToFirstTimelinePaint/10000000", "cpu_seconds"), None, "s"),
]

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(paths):
    runs = {}
    for path in paths:
        with open(path) as f:
            for b in json.load(f).get("benchmarks", []):
                if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
                    continue
                runs[b["run_name"] if "run_name" in b else b["name"]] = b
    return runs


def find(runs, prefix):
    for name, b in runs.items():
        if name == prefix or name.startswith(prefix + "/"):
            return b
    return None


def figure(runs, kind, spec):
    b = find(runs, spec[0])
    if b is None:
        return None
    if kind == "time":
        return b["real_time"] * TO_NS[b.get("time_unit", "ns")]
    if kind == "counter":
        return b.get(spec[1])
    if kind == "items":
        return b.get("items_per_second")
    if kind == "counter_ratio":
        other = find(runs, spec[1])
        if other is None or not other.get(spec[2]) or not b.get(spec[2]):
            return None
        return b[spec[2]] / other[spec[2]]
    other = find(runs, spec[1])
    if other is None or not other.get("items_per_second") or not b.get("items_per_second"):
        return None
    return b["items_per_second"] / other["items_per_second"]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    runs = load(sys.argv[1:])
    missed = 0
    print(f"{'target':<55} {'figure':>14} {'limit':>14} {'ratio':>7}  verdict")
    for label, kind, spec, limit, unit in TARGETS:
        value = figure(runs, kind, spec)
        if value is None:
            print(f"{label:<55} {'not run':>14}")
            continue
        shown = f"{value:,.3g} {unit}".strip()
        if limit is None:
            print(f"{label:<55} {shown:>14} {'-':>14} {'-':>7}  info")
            continue
        op, lim = limit
        ratio = value / lim if op == "<=" else (lim / value if value else float("inf"))
        ok = ratio <= 1.0
        missed += not ok
        print(f"{label:<55} {shown:>14} {op + ' ' + format(lim, ',.3g'):>14} {ratio:>7.3f}  {'met' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
