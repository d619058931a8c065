#!/usr/bin/env python3
"""Figures of bench/perfmgr.sh from the MAD traces (bench/smpcount.c), /proc CPU times and the fault times.

OUTDIR holds opensm-off/, opensm-on/, smd-off/, smd-on/. For each SM with its PerfMgr on:
  passes      bursts of PerfMgt MADs in the steady window (MADs closer than a third of the interval belong
              to one burst: a counter pass);
  MADs/pass   PerfMgt MADs sent per complete pass (median), retries included;
  pass wall   first to last PerfMgt MAD of a pass (median), ms;
  CPU/pass    (CPU over the steady window, PerfMgr on) - (the same window, PerfMgr off), per pass, ms: what
              the counters cost the SM process, sweeps and everything else being equal.
For all four runs, the unlink's repair: fault -> the last LinearForwardingTable Set (as bench/repair_report.py),
and whether a counter pass was running at the fault (PerfMgt MADs sent both in the 50 ms before and the 50 ms
after it).

  bench/perfmgr_report.py OUTDIR --interval S
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repair_report import faults_of, load_trace  # noqa: E402

LFT = 0x0019
SET = 0x02


def bursts(times, gap):
    out = []
    for t in times:
        if out and t - out[-1][-1] <= gap:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def steady_of(d):
    with open(os.path.join(d, 'steady.txt')) as f:
        t0, t1, cpu = (float(x) for x in f.read().split())
    return t0, t1, cpu


def repair_of(d):
    events = load_trace(os.path.join(d, 'trace.txt'))
    faults = faults_of(d)
    kind, t0 = faults[0]
    t1 = faults[1][1] if len(faults) > 1 else float('inf')
    lft = [e for e in events if t0 <= e[0] < t1 and e[1] == SET and e[2] == LFT]
    return t0, ((lft[-1][0] - t0) * 1e3 if lft else None), len(lft)


def pma_times(d):
    p = os.path.join(d, 'pma_trace.txt')
    return [e[0] for e in load_trace(p)] if os.path.exists(p) else []


def figures(outdir, sm, interval):
    off, on = os.path.join(outdir, f'{sm}-off'), os.path.join(outdir, f'{sm}-on')
    res = {}
    if os.path.exists(os.path.join(on, 'steady.txt')):
        t0, t1, cpu_on = steady_of(on)
        times = pma_times(on)
        inside = [b for b in bursts([t for t in times if t0 <= t <= t1 + interval], interval / 3)
                  if b[0] >= t0 and b[-1] <= t1 + interval]
        # A pass that started in the window counts whole; one cut by the window's start does not.
        passes = [b for b in inside if b[0] <= t1]
        res['passes'] = len(passes)
        res['mads_per_pass'] = statistics.median(len(b) for b in passes) if passes else None
        res['pass_ms'] = statistics.median((b[-1] - b[0]) * 1e3 for b in passes) if passes else None
        if os.path.exists(os.path.join(off, 'steady.txt')) and passes:
            _, _, cpu_off = steady_of(off)
            res['cpu_per_pass_ms'] = (cpu_on - cpu_off) * 1e3 / len(passes)
        ft, ms, blocks = repair_of(on)
        res['repair_on_ms'] = ms
        res['repair_on_blocks'] = blocks
        res['pass_at_fault'] = (any(ft - 0.05 <= t < ft for t in times) and any(ft <= t < ft + 0.05 for t in times))
        cj = os.path.join(on, 'counters.json')
        if os.path.exists(cj):
            last = json.load(open(cj))['result']['last_pass']
            res['own'] = last
    if os.path.exists(os.path.join(off, 'trace.txt')):
        _, ms, blocks = repair_of(off)
        res['repair_off_ms'] = ms
        res['repair_off_blocks'] = blocks
    return res


def fmt(v, spec='{:.0f}'):
    return '—' if v is None else spec.format(v)


def ratio(a, b):
    return f"**{a / b:.2f}×**" if a is not None and b else '—'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--interval', type=float, required=True)
    args = ap.parse_args()
    res = {sm: figures(args.outdir, sm, args.interval) for sm in ('opensm', 'smd')}
    o, s = res['opensm'], res['smd']
    lines = ['| | OpenSM | smd | smd/OpenSM |', '|---|---|---|---|']
    lines.append(f"| counter passes in the steady window | {fmt(o.get('passes'))} | {fmt(s.get('passes'))} | |")
    lines.append(f"| PMA MADs per pass | {fmt(o.get('mads_per_pass'))} | {fmt(s.get('mads_per_pass'))} | "
                 f"{ratio(s.get('mads_per_pass'), o.get('mads_per_pass'))} |")
    lines.append(f"| pass wall time (first to last PMA MAD) | {fmt(o.get('pass_ms'), '{:.0f} ms')} | "
                 f"{fmt(s.get('pass_ms'), '{:.0f} ms')} | {ratio(s.get('pass_ms'), o.get('pass_ms'))} |")
    lines.append(f"| SM CPU per pass (on − off, same window) | {fmt(o.get('cpu_per_pass_ms'), '{:.0f} ms')} | "
                 f"{fmt(s.get('cpu_per_pass_ms'), '{:.0f} ms')} | {ratio(s.get('cpu_per_pass_ms'), o.get('cpu_per_pass_ms'))} |")
    lines.append(f"| repair after the unlink, PerfMgr off | {fmt(o.get('repair_off_ms'), '{:.0f} ms')} | "
                 f"{fmt(s.get('repair_off_ms'), '{:.0f} ms')} | {ratio(s.get('repair_off_ms'), o.get('repair_off_ms'))} |")
    lines.append(f"| repair after the unlink, PerfMgr on | {fmt(o.get('repair_on_ms'), '{:.0f} ms')} | "
                 f"{fmt(s.get('repair_on_ms'), '{:.0f} ms')} | {ratio(s.get('repair_on_ms'), o.get('repair_on_ms'))} |")
    lines.append(f"| a counter pass was running at the fault | {o.get('pass_at_fault', '—')} | "
                 f"{s.get('pass_at_fault', '—')} | |")
    for sm, r in res.items():
        if r.get('repair_on_ms') is not None and r.get('repair_off_ms'):
            lines.append(f"| {sm}: repair with PerfMgr on / off | | | {r['repair_on_ms'] / r['repair_off_ms']:.2f}× |")
    if 'own' in s:
        own = s['own']
        lines.append('')
        lines.append(f"smd's own account of its last pass (`smctl counters`): {own['ports']} ports, {own['mads']} MADs, "
                     f"{own['timeouts']} timeouts, {own['wall_ms']} ms wall, {own['cpu_ms']} ms CPU on the PerfMgr "
                     f"thread, {own['paused_ms']} ms paused for sweeps.")
    print('\n'.join(lines))
    json.dump(res, open(os.path.join(args.outdir, 'perfmgr.json'), 'w'), indent=1, default=str)
    return 0


if __name__ == '__main__':
    sys.exit(main())
