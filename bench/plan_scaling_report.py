#!/usr/bin/env python3
"""Markdown report of bench/plan_scaling.sh: `smd plan` phases against fabric size.

Reads RAW/k<K>/plan<i>.json (smd plan --format json) and RAW/k<K>/time<i>.txt (/usr/bin/time -v) for every
K and run i. Per K it keeps the run with the median `timings_ms.total` (the phases of one run stay together)
and prints: the phases in ms, wall/user seconds and peak RSS from time -v, each phase's cost in ns per
(LID x switch), and, between the smallest and the largest K, each phase's scaling exponent
log(t_large / t_small) / log(size_large / size_small) with size = max LID x switches.
"""
import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys

PHASES = [("read", "read"), ("lids", "LIDs"), ("compute", "engine compute"), ("verify", "verify"),
          ("quality", "quality"), ("diversity", "path diversity"), ("outputs", "outputs"), ("total", "total")]


def time_v(path):
    """Wall s, user s, system s and max RSS (MB) from a /usr/bin/time -v file."""
    out = {}
    with open(path) as f:
        for line in f:
            key, _, val = line.strip().rpartition(": ")
            if key == "Elapsed (wall clock) time (h:mm:ss or m:ss)":
                secs = 0.0
                for part in val.split(":"):
                    secs = secs * 60 + float(part)
                out["wall"] = secs
            elif key == "User time (seconds)":
                out["user"] = float(val)
            elif key == "System time (seconds)":
                out["sys"] = float(val)
            elif key == "Maximum resident set size (kbytes)":
                out["rss_mb"] = int(val) / 1024.0
    missing = {"wall", "user", "sys", "rss_mb"} - out.keys()
    if missing:
        raise ValueError(f"{path}: no {', '.join(sorted(missing))} in /usr/bin/time -v output")
    return out


def one_run(raw, k, i):
    base = os.path.join(raw, f"k{k}")
    with open(os.path.join(base, f"plan{i}.json")) as f:
        plan = json.load(f)
    t = plan["timings_ms"]
    phases = {"read": t["read"], "lids": t["lids"], "compute": plan["compute_ms"], "verify": plan["verify_ms"],
              "quality": t["quality"], "diversity": t["diversity"], "outputs": t["outputs"], "total": t["total"]}
    return {"k": k, "plan": plan, "phases": phases, "time": time_v(os.path.join(base, f"time{i}.txt"))}


def median_run(runs):
    ordered = sorted(runs, key=lambda r: r["phases"]["total"])
    return ordered[(len(ordered) - 1) // 2]


def git_rev(path):
    try:
        rev = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", path, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + (" + uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw")
    ap.add_argument("--ks", type=int, nargs="+", required=True)
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--cmd", default="bench/plan_scaling.sh")
    ap.add_argument("--smd", default="")
    a = ap.parse_args()

    rows = []
    for k in a.ks:
        runs = [one_run(a.raw, k, i) for i in range(1, a.runs + 1)]
        r = median_run(runs)
        p = r["plan"]
        r["size"] = p["max_lid"] * p["switches"]
        r["total_spread"] = (min(x["phases"]["total"] for x in runs), max(x["phases"]["total"] for x in runs))
        rows.append(r)

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print(f"# smd plan at scale — {now}\n")
    print(f"- command: `{a.cmd}`")
    print(f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Linux {platform.release()}")
    print(f"- repository at {git_rev(src)}; smd binary `{a.smd}`")
    print(f"- raw outputs: `{a.raw}`; {a.runs} runs per fabric, the run with the median total is shown "
          "(min..max of the totals in the last column)\n")

    print("## Phases (ms) and the process\n")
    print("| fabric | hosts | switches | max LID | " + " | ".join(name for _, name in PHASES) +
          " | wall s | user s | RSS MB | total min..max ms |")
    print("|---|---|---|---|" + "---|" * len(PHASES) + "---|---|---|---|")
    for r in rows:
        p, t = r["plan"], r["time"]
        cells = [f"k{r['k']}", str(p["cas"]), str(p["switches"]), str(p["max_lid"])]
        cells += [f"{r['phases'][key]:.0f}" for key, _ in PHASES]
        cells += [f"{t['wall']:.2f}", f"{t['user']:.2f}", f"{t['rss_mb']:.0f}",
                  f"{r['total_spread'][0]:.0f}..{r['total_spread'][1]:.0f}"]
        print("| " + " | ".join(cells) + " |")

    print("\n## Cost per (max LID x switch), ns\n")
    print("| fabric | LIDs x switches (M) | " + " | ".join(name for _, name in PHASES) + " |")
    print("|---|---|" + "---|" * len(PHASES))
    for r in rows:
        cells = [f"k{r['k']}", f"{r['size'] / 1e6:.1f}"]
        cells += [f"{r['phases'][key] * 1e6 / r['size']:.1f}" for key, _ in PHASES]
        print("| " + " | ".join(cells) + " |")

    if len(rows) >= 2:
        lo, hi = rows[0], rows[-1]
        ratio = hi["size"] / lo["size"]
        print(f"\n## Scaling from k{lo['k']} to k{hi['k']} (size x{ratio:.1f})\n")
        print("Exponent e in t ~ (LIDs x switches)^e; 1.0 is linear in the tables' size.\n")
        print("| phase | k{} ms | k{} ms | time ratio | exponent |".format(lo["k"], hi["k"]))
        print("|---|---|---|---|---|")
        for key, name in PHASES:
            a_ms, b_ms = lo["phases"][key], hi["phases"][key]
            if a_ms > 0.5 and b_ms > 0:
                e = math.log(b_ms / a_ms) / math.log(ratio)
                print(f"| {name} | {a_ms:.0f} | {b_ms:.0f} | {b_ms / a_ms:.1f} | {e:.2f} |")
            else:
                print(f"| {name} | {a_ms:.1f} | {b_ms:.1f} | - | - (under 1 ms) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
