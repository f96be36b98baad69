"""Runs the DuckDB queries of docs/fleet.md with a real DuckDB and writes their answers as JSON.

Why this script: the fleet test (test_fleet_queries.cpp) must check the numbers a real DuckDB gives
for the queries the page shows, so the page is the only copy of them. Every ```sql name=NAME block
is run in page order (`setup` first, as written); unnamed blocks (the Spark SQL versions) are not.
DuckDB is the `duckdb` package of the project's venv (packaging/python-requirements.txt).

Output, one JSON object written to OUT_JSON: {"setup": [], "recompiles-per-program": [{column: value, ...}, ...], ...}.
Integers are printed as strings, so that nanoseconds beyond 2^53 (and DuckDB's HUGEINT sums) survive
JSON; timestamps as ISO 8601 with microseconds (2026-01-01T00:00:00.000000, DuckDB's TIMESTAMP has no
zone); text, reals and NULL as JSON has them. Any other type is an error, not a guess.

Usage: python run_fleet_queries.py DOCS_MD WORK_DIR OUT_JSON   (WORK_DIR holds fleet/)
       python run_fleet_queries.py --probe           (exit 0 when duckdb imports; else prints why, exit 1)
"""
import datetime
import json
import os
import re
import sys

BLOCK = re.compile(r"^```sql name=([\w-]+)\n(.*?)^```$", re.MULTILINE | re.DOTALL | re.ASCII)


def value(v, column, query):
    if v is None or isinstance(v, (bool, str, float)):
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, datetime.datetime) and v.tzinfo is None:
        return v.isoformat(timespec="microseconds")
    raise TypeError(f"{query}: column {column} has a value of type {type(v).__name__} ({v!r})")


def main(argv):
    try:
        import duckdb
    except ImportError as e:
        print(f"import duckdb: {e}", file=sys.stderr)
        return 1
    if argv[1:] == ["--probe"]:
        print(f"duckdb {duckdb.__version__}")
        return 0
    if len(argv) != 4:
        print("usage: run_fleet_queries.py DOCS_MD WORK_DIR OUT_JSON", file=sys.stderr)
        return 2
    docs, work, out = (os.path.abspath(a) for a in argv[1:])
    with open(docs, encoding="utf-8") as f:
        blocks = BLOCK.findall(f.read())
    if not blocks:
        print(f"no ```sql name=... blocks in {docs}", file=sys.stderr)
        return 1
    os.chdir(work)  # the page's paths are relative: fleet/*/TABLE.jsonl
    connection = duckdb.connect(":memory:")
    answers = {}
    for name, sql in blocks:
        if name in answers:
            print(f"two blocks named {name} in {docs}", file=sys.stderr)
            return 1
        cursor = connection.execute(sql)
        columns = [d[0] for d in cursor.description or []]
        answers[name] = [{c: value(v, c, name) for c, v in zip(columns, row)} for row in cursor.fetchall()]
    with open(out, "w", encoding="utf-8") as f:
        f.write(json.dumps(answers, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
