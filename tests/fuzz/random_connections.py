#!/usr/bin/env python3
"""Random connections against a live recorder (issue 40): the recorder's socket is open to anyone
who can connect, so one malformed stream must be counted and its connection closed, never crash the
recorder or spoil the recording.

Usage: random_connections.py RECORDER COMPILESCOPE [CONNECTIONS] [SEED]
  RECORDER     a compilescope-recorder, ideally built with ASan + UBSan (the `fuzz` preset builds one:
               build/fuzz/app/compilescope-recorder)
  COMPILESCOPE the CLI that reads the trace back (`info`, `sql`)

Each connection sends one of: random bytes; a wire seed of tests/fuzz/corpus/wire (or regressions)
with random bytes changed; a seed cut short; a seed with random bytes after it. A last connection
sends an intact seed. Then the recorder is stopped with SIGTERM and must exit 0 having written a
sealed trace that `info` reads, holding the intact connection's events. Prints one summary line for
docs/reliability.md; exit 1 on any failure.
"""
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def seeds():
    out = []
    for d in ("corpus/wire", "regressions/wire"):
        for name in sorted(os.listdir(os.path.join(HERE, d))):
            with open(os.path.join(HERE, d, name), "rb") as f:
                out.append(f.read()[1:])  # the fuzz target's first byte picks its read size
    return out


def payload(rng, pool):
    mode = rng.randrange(4)
    if mode == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2048)))
    seed = bytearray(rng.choice(pool))
    if mode == 1:
        for _ in range(rng.randrange(1, 8)):
            seed[rng.randrange(len(seed))] = rng.randrange(256)
        return bytes(seed)
    if mode == 2:
        return bytes(seed[: rng.randrange(1, len(seed))])
    return bytes(seed) + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 512)))


def send(path, data):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        for _ in range(1000):
            try:
                s.connect(path)
                break
            except (BlockingIOError, ConnectionRefusedError):  # not listening yet, or backlog full
                time.sleep(0.01)
        s.sendall(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the recorder closed a malformed stream: what it should do
    finally:
        s.close()


def sql(cli, trace, query):
    r = subprocess.run([cli, "sql", trace, query, "--format", "csv"], capture_output=True, text=True, errors="replace")
    return r.returncode, r.stdout.strip().splitlines()


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    recorder, cli = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    pool = seeds()
    tmp = tempfile.mkdtemp(prefix="cs-randconn-")
    trace, sock = os.path.join(tmp, "t.cstrace"), os.path.join(tmp, "s.sock")
    env = dict(os.environ, ASAN_OPTIONS="abort_on_error=1:detect_leaks=1", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    log = open(os.path.join(tmp, "recorder.log"), "w")
    rec = subprocess.Popen([recorder, "--output", trace, "--socket", sock], stderr=log, stdout=log, env=env)
    for _ in range(500):
        if os.path.exists(sock):
            break
        time.sleep(0.01)
    start = time.monotonic()
    for i in range(n):
        send(sock, payload(rng, pool))
        if rec.poll() is not None:
            print(f"FAIL: the recorder died (status {rec.returncode}) at connection {i + 1}; see {log.name}")
            return 1
    send(sock, pool[0])  # an intact stream: its spans must be in the trace
    time.sleep(0.5)
    rec.send_signal(signal.SIGTERM)
    rc = rec.wait(timeout=60)
    elapsed = time.monotonic() - start
    info = subprocess.run([cli, "info", trace], capture_output=True, text=True, errors="replace")
    _, malformed = sql(cli, trace, "SELECT coalesce(sum(count), 0) FROM stats WHERE name IN ('malformed_record', 'discarded_bytes')")
    _, spans = sql(cli, trace, "SELECT count(*) FROM spans")
    kept = int(spans[-1]) if spans and spans[-1].isdigit() else 0
    ok = rc == 0 and info.returncode == 0 and "checksums ok" in info.stdout and kept > 0
    print(f"random_connections: {n} connections, recorder exit {rc}, trace read {'ok' if info.returncode == 0 else 'FAILED'}"
          f" (sealed: {'checksums ok' in info.stdout}), stats malformed+discarded {malformed[-1] if malformed else '?'},"
          f" spans {spans[-1] if spans else '?'}, {elapsed:.0f} s, recorder log {log.name}")
    if not ok:
        print(info.stderr, file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
