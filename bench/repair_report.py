#!/usr/bin/env python3
"""Figures of bench/repair.sh from the SMP traces (bench/smpcount.c) and the read-back.

For each SM directory and each fault (faults.txt: "unlink|relink <realtime s>"), over the SMPs the SM
sent between that fault and the next one (or the end of the trace):
  repair_ms   fault -> the last LinearForwardingTable Set (attribute 0x0019) leaves the SM: from then on
              every switch holds its final table (ibsim applies a Set on arrival);
  lft_blocks  LFT blocks written (LFT Sets), smps_to_repair  every SMP sent up to that last LFT Set;
  first_ms    fault -> the SM's first SMP (how fast it noticed: trap delivery, debounce, sweep timer).
The read-back after the unlink (quality.json: routes that loop, black-hole or miss) is the witness that
the tables were consistent again.

  bench/repair_report.py OUTDIR [--md FILE]      (OUTDIR holds opensm/ and smd/)
"""
import argparse
import json
import os
import sys

LFT = 0x0019
SET = 0x02


def load_trace(path):
    events = []
    with open(path) as f:
        for line in f:
            ns, method, attr = line.split()
            events.append((int(ns) / 1e9, int(method, 16), int(attr, 16)))
    return events


def faults_of(d):
    faults = []
    with open(os.path.join(d, 'faults.txt')) as f:
        for line in f:
            kind, t = line.split()
            faults.append((kind, float(t)))
    return faults


def figures(d):
    events = load_trace(os.path.join(d, 'trace.txt'))
    faults = faults_of(d)
    rows = []
    for i, (kind, t0) in enumerate(faults):
        t1 = faults[i + 1][1] if i + 1 < len(faults) else float('inf')
        win = [e for e in events if t0 <= e[0] < t1]
        lft = [e for e in win if e[1] == SET and e[2] == LFT]
        row = {'fault': kind, 'smps_in_window': len(win), 'lft_blocks': len(lft)}
        row['first_ms'] = (win[0][0] - t0) * 1e3 if win else None
        if lft:
            last = lft[-1][0]
            row['repair_ms'] = (last - t0) * 1e3
            row['smps_to_repair'] = sum(1 for e in win if e[0] <= last)
        else:
            row['repair_ms'] = None
            row['smps_to_repair'] = None
        rows.append(row)
    q = {}
    qp = os.path.join(d, 'quality.json')
    if os.path.exists(qp) and os.path.getsize(qp) > 0:
        with open(qp) as f:
            q = json.load(f)
    return rows, q


def fmt(v, spec='{:.0f}'):
    return '—' if v is None else spec.format(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--md')
    args = ap.parse_args()
    res = {}
    for sm in ('opensm', 'smd'):
        d = os.path.join(args.outdir, sm)
        if os.path.exists(os.path.join(d, 'trace.txt')):
            res[sm] = figures(d)
    lines = ['| fault | SM | repair (fault → last LFT write) | LFT blocks written | SMPs to repair | first SMP after fault | '
             'routes undelivered after unlink (read back) |',
             '|---|---|---|---|---|---|---|']
    for kind in ('unlink', 'relink'):
        for sm, (rows, q) in res.items():
            for r in rows:
                if r['fault'] != kind:
                    continue
                und = q.get('undelivered') if kind == 'unlink' else None
                lines.append(f"| {kind} | {sm} | {fmt(r['repair_ms'], '{:.0f} ms')} | {r['lft_blocks']} | "
                             f"{fmt(r['smps_to_repair'])} | {fmt(r['first_ms'], '{:.0f} ms')} | "
                             f"{'—' if und is None else und} |")
        if 'opensm' in res and 'smd' in res:
            o = next((r for r in res['opensm'][0] if r['fault'] == kind), None)
            s = next((r for r in res['smd'][0] if r['fault'] == kind), None)
            if o and s and o['repair_ms'] and s['repair_ms'] is not None:
                blocks = f"{s['lft_blocks']}/{o['lft_blocks']}" if o['lft_blocks'] else '—'
                lines.append(f"| {kind} | smd/OpenSM | **{s['repair_ms'] / o['repair_ms']:.2f}×** | {blocks} | | | |")
    table = '\n'.join(lines)
    print(table)
    json.dump({sm: {'faults': rows, 'undelivered': q.get('undelivered')} for sm, (rows, q) in res.items()},
              open(os.path.join(args.outdir, 'repair.json'), 'w'), indent=1)
    if args.md:
        with open(args.md, 'w') as f:
            f.write(table + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
