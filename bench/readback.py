#!/usr/bin/env python3
"""Read back what an SM programmed, with infiniband-diags only (run under the umad2sim shim, ibsim up).

ibnetdiscover -> nodes, cables and LIDs; iblinkinfo -> link states; ibroute -> every switch's LFT
(smpdump for the entries ibroute leaves out: it stops one short of LinearFDBTop); with --sl2vl,
`smpquery sl2vl` -> the SL2VL table of every cabled (in, out) port pair of every switch and of every
cabled CA port. The result is saved as JSON for bench/quality.py and tests/integration/check_vl_layers.py,
which do the analysis after ibsim is gone.

Parsing reuses tests/integration/check_fabric.py (the project's independent checker).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'integration'))
import check_fabric as cf  # noqa: E402

TIMEOUT = 300
DESC = re.compile(r'^(?:Switch|Ca|Rt)\s+\d+\s+"([^"]+)"\s*#\s*"([^"]*)"', re.M)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout


def read_lft(lid, max_lid, wanted):
    lft = cf.parse_ibroute(run(['ibroute', '-a', '-n', str(lid), '1', str(max_lid + 1)]))
    missing = [l for l in wanted if l not in lft]
    for block in sorted({l // 64 for l in missing}):
        out = run(['smpdump', str(lid), '0x19', str(block)])
        data = bytes.fromhex(''.join(out.split()))[:64]
        for i, port in enumerate(data):
            lft.setdefault(block * 64 + i, port)
    return lft, len(missing)


SL2VL_ROW = re.compile(r'^ports:\s*in\s+(\d+),\s*out\s+(\d+):\s*\|(.*)\|\s*$')


def read_sl2vl(lid, port):
    """{"in,out": [16 VLs]} from `smpquery sl2vl LID PORT` (a switch prints every in port for out PORT;
    a CA prints one row, which is keyed "0,PORT")."""
    rows = {}
    for line in run(['smpquery', 'sl2vl', str(lid), str(port)]).splitlines():
        m = SL2VL_ROW.match(line.strip())
        if not m:
            continue
        vls = [int(v) for v in m.group(3).split('|')]
        if len(vls) != 16:
            raise RuntimeError(f"smpquery sl2vl {lid} {port}: {len(vls)} entries in '{line.strip()}'")
        out = int(m.group(2)) or port
        rows[f"{m.group(1)},{out}"] = vls
    if not rows:
        raise RuntimeError(f"smpquery sl2vl {lid} {port}: no table in the output")
    return rows


def read_sl2vl_all(nodes, jobs):
    """SL2VL of every cabled port: {node name: {"in,out": [16 VLs]}}; errors as a list."""
    work = []
    for name, n in nodes.items():
        if n['type'] == 'sw':
            if n['lid']:
                work += [(name, n['lid'], int(p)) for p in n['ports']]
        else:
            work += [(name, n['port_lids'][p][0], int(p)) for p in n['ports'] if p in n['port_lids']]
    tables, errors = {}, []
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [(name, ex.submit(read_sl2vl, lid, port)) for name, lid, port in work]
        for name, f in futs:
            try:
                tables.setdefault(name, {}).update(f.result())
            except Exception as e:
                errors.append(f"{name}: {e}")
    return tables, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--jobs', type=int, default=4, help='ibroute processes at once (ibsim allows 10 clients)')
    ap.add_argument('--sl2vl', action='store_true', help='also read every SL2VL table (smpquery sl2vl)')
    args = ap.parse_args()
    t0 = time.monotonic()
    text = run(['ibnetdiscover'])
    nodes = cf.parse_netdiscover(text)
    # ibnetdiscover names nodes by GUID ("S-...", "H-..."); the NodeDescription follows in a comment
    for m in DESC.finditer(text):
        if m.group(1) in nodes:
            nodes[m.group(1)]['desc'] = m.group(2)
    switches = {k: v for k, v in nodes.items() if v['type'] == 'sw'}
    lids = []
    for n in nodes.values():
        if n['type'] == 'sw':
            lids.append(n['lid'])
        else:
            for lid, lmc in n['port_lids'].values():
                lids.extend(range(lid, lid + (1 << lmc)))
    lids = [l for l in lids if l]
    max_lid = max(lids) if lids else 0

    links = not_active = 0
    not_active_lines = []
    for line in run(['iblinkinfo']).splitlines():
        m = cf.LINK.match(line)
        if not m or not m.group(4):
            continue
        links += 1
        if 'Active' not in m.group(3):
            not_active += 1
            if len(not_active_lines) < 10:
                not_active_lines.append(line.strip())

    lfts = {}
    smpdumped = 0
    errors = []
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {name: ex.submit(read_lft, n['lid'], max_lid, lids) for name, n in switches.items() if n['lid']}
        for name, f in futs.items():
            try:
                lft, miss = f.result()
                lfts[name] = {str(k): v for k, v in lft.items()}
                smpdumped += miss
            except Exception as e:  # keep going: report which switches could not be read
                errors.append(f"{name}: {e}")
    sl2vl = None
    if args.sl2vl:
        sl2vl, sl2vl_errors = read_sl2vl_all(nodes, args.jobs)
        errors += sl2vl_errors
    res = dict(nodes=nodes, lfts=lfts, sl2vl=sl2vl, max_lid=max_lid, link_ends=links, link_ends_not_active=not_active,
               not_active_sample=not_active_lines, entries_from_smpdump=smpdumped, errors=errors,
               seconds=round(time.monotonic() - t0, 2))
    with open(args.out, 'w') as f:
        json.dump(res, f)
    print(f"readback: {len(switches)} switches, {len(lfts)} LFTs read, {links // 2} links "
          f"({not_active} link ends not Active), max LID {max_lid}, {res['seconds']} s", file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
