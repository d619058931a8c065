#!/usr/bin/env python3
"""Cost of the fabric view's answers on a running smd (bench/fabric_view.sh runs it).

    fabric_view_measure.py PORT SMD_PID [--repeat N] [--path P ...] [--label TEXT]

For each path: N GETs one after the other on fresh connections; per path the median and the smallest wall
time per answer (client side, loopback), the body size, and the CPU time smd's main thread spent per answer
(utime + stime of /proc/PID/task/PID, the io_context thread that serves HTTP, over the N requests, divided
by N). The main thread also runs light sweeps: the same window with no request is measured first and
printed as "idle", so a reader can subtract it. Prints one markdown row per path.
"""
import argparse
import os
import statistics
import sys
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")


def main_thread_cpu(pid):
    with open(f"/proc/{pid}/task/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15 of stat)


def fetch(url):
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as r:
        body = r.read()
        status = r.status
    return time.perf_counter() - t, len(body), status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("pid", type=int)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--path", action="append", default=[])
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    paths = args.path or ["/api/v1/fabric", "/api/v1/sm", "/api/v1/sa", "/", "/view.js", "/metrics"]
    base = f"http://127.0.0.1:{args.port}"
    fetch(base + "/api/v1")  # one connection made before the clock runs
    label = f"{args.label} " if args.label else ""
    print(f"| {label}answer | bytes | wall ms median (min) | smd main-thread CPU ms per answer |")
    print("|---|---:|---:|---:|")
    for path in paths:
        walls = []
        size = 0
        c0 = main_thread_cpu(args.pid)
        for _ in range(args.repeat):
            wall, size, status = fetch(base + path)
            if status != 200:
                print(f"{path}: HTTP {status}", file=sys.stderr)
                return 1
            walls.append(wall * 1000)
        cpu_ms = (main_thread_cpu(args.pid) - c0) * 1000 / args.repeat
        print(f"| GET {path} | {size} | {statistics.median(walls):.1f} ({min(walls):.1f}) | {cpu_ms:.1f} |")
    # The same length of time with no request: what the main thread does anyway (light sweeps, traps).
    span = 2.0
    c0 = main_thread_cpu(args.pid)
    time.sleep(span)
    print(f"| idle main thread, per second | - | - | {(main_thread_cpu(args.pid) - c0) * 1000 / span:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
