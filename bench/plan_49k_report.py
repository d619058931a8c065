#!/usr/bin/env python3
"""Markdown report of bench/plan_49k.sh: `smd plan` of the 45,056-host fattree3, one or two binaries.

Reads RAW/<label>/plan<i>.json (smd plan --format json), RAW/<label>/time<i>.txt (/usr/bin/time -v) and
RAW/<label>/lfts<i>.txt (--lft-dump, when run with --dump) for every label and run i. Per label it keeps the run with the median
CPU time (user + system; the phases of one run stay together) and prints each phase of the plan's own
timings, the process's wall, user and system seconds and peak RSS. With two labels it prints after/before
ratios and fails (exit 1) unless every run's JSON report, timings left out, and LFT dump is byte for byte
the same as the first run of the first label.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import sys

from plan_scaling_report import git_rev, time_v

PHASES = [("read", "read"), ("lids", "LIDs"), ("compute", "engine compute"), ("verify", "verify"),
          ("quality", "quality"), ("diversity", "path diversity"), ("outputs", "outputs"), ("total", "total")]
# Fields of the JSON report that are measurements of the run, not results of the plan.
TIMING_KEYS = {"timings_ms", "compute_ms", "verify_ms", "report_ms"}


def one_run(raw, label, i):
    base = os.path.join(raw, label)
    with open(os.path.join(base, f"plan{i}.json")) as f:
        plan = json.load(f)
    t = plan["timings_ms"]
    phases = {"read": t["read"], "lids": t["lids"], "compute": plan["compute_ms"], "verify": plan["verify_ms"],
              "quality": t["quality"], "diversity": t["diversity"], "outputs": t["outputs"], "total": t["total"]}
    result = json.dumps({k: v for k, v in plan.items() if k not in TIMING_KEYS}, sort_keys=False)
    lfts = ""  # bench/plan_49k.sh --dump: the LFT dump's digest, read in pieces (1.9 GB)
    if os.path.exists(os.path.join(base, f"lfts{i}.txt")):
        h = hashlib.sha256()
        with open(os.path.join(base, f"lfts{i}.txt"), "rb") as f:
            for piece in iter(lambda: f.read(1 << 24), b""):
                h.update(piece)
        lfts = h.hexdigest()
    tv = time_v(os.path.join(base, f"time{i}.txt"))
    return {"plan": plan, "phases": phases, "time": tv, "cpu": tv["user"] + tv["sys"], "result": result,
            "lfts": lfts}


def load(raw, name):
    with open(os.path.join(raw, name)) as f:
        return f.read().strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw")
    ap.add_argument("--labels", nargs="+", required=True)
    ap.add_argument("--bins", nargs="+", required=True)
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--cmd", default="bench/plan_49k.sh")
    a = ap.parse_args()

    runs = {lb: [one_run(a.raw, lb, i) for i in range(1, a.runs + 1)] for lb in a.labels}
    med = {lb: sorted(rs, key=lambda r: r["cpu"])[(len(rs) - 1) // 2] for lb, rs in runs.items()}
    ref = runs[a.labels[0]][0]
    differ = [f"{lb} run {i + 1}" for lb, rs in runs.items() for i, r in enumerate(rs)
              if r["result"] != ref["result"] or r["lfts"] != ref["lfts"]]

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = ref["plan"]
    print(f"# smd plan of a 49k-LID subnet — {now}\n")
    print(f"- command: `{a.cmd}`")
    print(f"- machine: {os.cpu_count()} CPUs, {platform.machine()}, Linux {platform.release()}; load average "
          f"(1, 5, 15 min) {load(a.raw, 'load_start.txt')} before the runs, {load(a.raw, 'load_end.txt')} after")
    print(f"- repository at {git_rev(src)}; binaries: " +
          ", ".join(f"{lb} `{b}`" for lb, b in zip(a.labels, a.bins)))
    print(f"- fabric: {p['cas']} hosts, {p['switches']} switches, max LID {p['max_lid']}; engine {p['engine']}")
    print(f"- raw outputs: `{a.raw}`; {a.runs} runs each, alternating; the run with the median CPU time "
          "(user + system) is shown, min..max of CPU in the last column")
    if len(a.labels) > 1:
        print("- outputs (JSON report without its timings" + (", --lft-dump" if ref["lfts"] else "") + "): " +
              ("byte for byte the same in every run" if not differ else "DIFFER: " + ", ".join(differ)))
    print()
    print("| binary | " + " | ".join(name + " ms" for _, name in PHASES) +
          " | wall s | user s | sys s | CPU s | RSS MB | CPU min..max s |")
    print("|---|" + "---|" * len(PHASES) + "---|---|---|---|---|---|")
    for lb in a.labels:
        r, t = med[lb], med[lb]["time"]
        cpus = [x["cpu"] for x in runs[lb]]
        cells = [lb] + [f"{r['phases'][k]:.0f}" for k, _ in PHASES]
        cells += [f"{t['wall']:.2f}", f"{t['user']:.2f}", f"{t['sys']:.2f}", f"{r['cpu']:.2f}",
                  f"{t['rss_mb']:.0f}", f"{min(cpus):.2f}..{max(cpus):.2f}"]
        print("| " + " | ".join(cells) + " |")
    if len(a.labels) > 1:
        x, y = med[a.labels[0]], med[a.labels[1]]
        cells = [f"{a.labels[0]}/{a.labels[1]}"]
        for k, _ in PHASES:
            cells.append(f"{x['phases'][k] / y['phases'][k]:.2f}" if y["phases"][k] >= 1 else "-")
        cells += [f"{x['time']['wall'] / y['time']['wall']:.2f}", f"{x['time']['user'] / y['time']['user']:.2f}",
                  "-", f"{x['cpu'] / y['cpu']:.2f}", f"{x['time']['rss_mb'] / y['time']['rss_mb']:.2f}", ""]
        print("| " + " | ".join(cells) + " |")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
