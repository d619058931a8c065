#!/usr/bin/env python3
"""The table of bench/vl_routing.sh: per fabric and run, read-back quality, deadlock freedom and routing time.

    vl_routing_report.py RAW --fabrics F... --runs R...

Reads RAW/<fabric>/<run>/{quality.json (bench/quality.py), vl_layers.json (check_vl_layers.py), opensm.log
or sm.out}. Prints markdown: one table per fabric, then the issue's targets checked per fabric.
"""
import argparse
import json
import os
import re

OSM_TS = re.compile(r'^\w{3} \d\d (\d\d):(\d\d):(\d\d) (\d{6}) ')
SMD_ROUTING = re.compile(r'sweep: routing computed and verified \(([\d.]+) ms\)')
SMD_ENGINE = re.compile(r'routed by (\w+)|engine[= ](\w+)')


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def osm_seconds(line):
    m = OSM_TS.match(line)
    if not m:
        return None
    h, mi, s, us = (int(x) for x in m.groups())
    return h * 3600 + mi * 60 + s + us / 1e6


def routing_ms(run_dir, run):
    """Routing time of the first sweep, in ms, or None."""
    if run.startswith('osm-'):
        start = end = None
        try:
            with open(os.path.join(run_dir, 'opensm.log'), errors='replace') as f:
                for line in f:
                    if start is None and 'building routing with' in line:
                        start = osm_seconds(line)
                    elif start is not None and 'tables configured on all switches' in line:
                        end = osm_seconds(line)
                        break
        except OSError:
            return None
        if start is None or end is None:
            return None
        return (end - start) * 1000.0
    try:
        with open(os.path.join(run_dir, 'sm.out'), errors='replace') as f:
            for line in f:
                m = SMD_ROUTING.search(line)
                if m:
                    return float(m.group(1))
    except OSError:
        return None
    return None


def engine_used(run_dir, run):
    """The engine that produced the tables, from the SM's own log."""
    if run.startswith('osm-'):
        try:
            with open(os.path.join(run_dir, 'opensm.log'), errors='replace') as f:
                for line in f:
                    m = re.search(r'(\w+) tables configured on all switches', line)
                    if m:
                        return m.group(1)
        except OSError:
            pass
        return '?'
    try:
        with open(os.path.join(run_dir, 'sm.out'), errors='replace') as f:
            for line in f:
                m = re.search(r'routing: (\w+) (?:routed|tables)', line) or re.search(r'engine (\w+) ', line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return run[4:]


def fmt(v, spec='.3f'):
    return '-' if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('raw')
    ap.add_argument('--fabrics', nargs='+', required=True)
    ap.add_argument('--runs', nargs='+', required=True)
    args = ap.parse_args()
    print(f"# VL-layered routing: smd against OpenSM on the same ibsim fabrics\n\nRaw outputs: `{args.raw}`\n")
    targets = []
    for fabric in args.fabrics:
        rows = {}
        print(f"## {fabric}\n")
        print("| run | engine | eBB | shift max | perm mean | VLs used | deadlock-free (cable, VL) | "
              "one VL acyclic | flows | no PathRecord | routing ms |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for run in args.runs:
            d = os.path.join(args.raw, fabric, run)
            q = load(os.path.join(d, 'quality.json')) or {}
            v = load(os.path.join(d, 'vl_layers.json')) or {}
            ms = routing_ms(d, run)
            rows[run] = dict(ebb=q.get('ebb'), acyclic=v.get('acyclic'), vls=len(v.get('vls_used', [])) or None,
                             ms=ms, missing=v.get('missing_paths'), broken=v.get('broken_flows'))
            dl = '-' if 'acyclic' not in v else ('yes' if v['acyclic'] else f"NO ({v['cdg_cyclic_nodes']} nodes)")
            one = '-' if 'one_vl_acyclic' not in v else ('yes' if v['one_vl_acyclic'] else 'no')
            print(f"| {run} | {engine_used(d, run)} | {fmt(q.get('ebb'))} | {q.get('shift_max', '-')} | "
                  f"{fmt(q.get('perm_mean'), '.2f')} | {rows[run]['vls'] or '-'} | {dl} | {one} | "
                  f"{v.get('flows', '-')} | {v.get('missing_paths', '-')} | {fmt(ms, '.1f')} |")
        print()
        df, osm, updn, sssp = (rows.get(k, {}) for k in ('smd-dfsssp', 'osm-dfsssp', 'smd-updn', 'smd-sssp'))

        def ratio(a, b):
            return None if not a or not b else a / b
        checks = [
            ('every pair routed, deadlock-free per layer',
             df.get('acyclic') is True and df.get('missing') == 0 and df.get('broken') == 0, ''),
            ("eBB >= OpenSM dfsssp's", None if not df.get('ebb') or not osm.get('ebb') else df['ebb'] >= osm['ebb'],
             f"{fmt(ratio(df.get('ebb'), osm.get('ebb')))}x"),
            ("eBB >= 1.1x smd updn's", None if not df.get('ebb') or not updn.get('ebb') else df['ebb'] >= 1.1 * updn['ebb'],
             f"{fmt(ratio(df.get('ebb'), updn.get('ebb')))}x"),
            ("goal: eBB within 2% of smd sssp's",
             None if not df.get('ebb') or not sssp.get('ebb') else df['ebb'] >= 0.98 * sssp['ebb'],
             f"{fmt(ratio(df.get('ebb'), sssp.get('ebb')))}x"),
            ("routing time <= OpenSM dfsssp's", None if df.get('ms') is None or osm.get('ms') is None else df['ms'] <= osm['ms'],
             f"{fmt(ratio(df.get('ms'), osm.get('ms')), '.2f')}x ({fmt(df.get('ms'), '.1f')} vs {fmt(osm.get('ms'), '.1f')} ms)"),
        ]
        targets.append((fabric, checks, df.get('vls'), osm.get('vls')))
    print("## Targets (smd dfsssp)\n")
    print("| fabric | target | met | figure |")
    print("|---|---|---|---|")
    for fabric, checks, vls, osm_vls in targets:
        for name, ok, figure in checks:
            met = '-' if ok is None else ('yes' if ok else '**no**')
            print(f"| {fabric} | {name} | {met} | {figure} |")
        print(f"| {fabric} | VLs used (smd / OpenSM) | | {vls or '-'} / {osm_vls or '-'} |")


if __name__ == '__main__':
    main()
