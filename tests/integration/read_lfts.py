#!/usr/bin/env python3
"""Every switch's unicast LFT as the switches hold it, read with infiniband-diags only (no smd code), for
comparing what two SMs programmed on two runs of one netfile.

  read_lfts.py [--dump opensm-lfts.dump]

Run under the umad2sim shim against a live ibsim. For every switch ibswitches lists: its LinearFDBTop
(smpquery switchinfo), every entry 1..top-1 by ibroute and the top entry by smpdump (ibroute never prints
it); with --dr GUID=PATH every read of that switch goes by that directed route (a switch no LID route
reaches). Prints one line "0x<node GUID> top <top>" per switch, then "  0x<LID> <port>" for each entry
that is not 0xFF, switches by GUID. With --dump, prints the same text from that opensm-lfts.dump instead (its
header's top and rows, LID 0 left out as ibroute leaves it), so the two compare with diff.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fabric  # noqa: E402
from opensm_dump_parser import parse_lfts  # noqa: E402

SWITCH = re.compile(r'^Switch\s*:\s*0x([0-9a-f]{16}) .* base port 0 lid (\d+) lmc \d+')
TOP = re.compile(r'^LinearFdbTop:\.+(\d+)$', re.M)


def run(cmd):
    return check_fabric.run(cmd, 60)


def live(dr_paths):
    tables = {}
    for line in run(['ibswitches']).splitlines():
        m = SWITCH.match(line)
        if not m:
            continue
        guid, lid = int(m.group(1), 16), int(m.group(2))
        # A switch no LID route reaches (a drained one) is addressed by its directed route instead.
        how, dest = (['-D'], dr_paths[guid]) if guid in dr_paths else ([], str(lid))
        t = TOP.search(run(['smpquery'] + how + ['switchinfo', dest]))
        if not t:
            raise SystemExit(f"read_lfts: no LinearFDBTop from switch {dest}")
        top = int(t.group(1))
        lft = check_fabric.parse_ibroute(run(['ibroute'] + how + ['-n', dest, '1', str(top)])) if top > 1 else {}
        block = run(['smpdump'] + how + [dest, '0x19', str(top // 64)])
        port = bytes.fromhex(''.join(block.split())[:128])[top % 64]  # directed route: a status line follows
        if top >= 1 and port != 0xFF:
            lft[top] = port
        tables[guid] = (top, lft)
    if not tables:
        raise SystemExit("read_lfts: ibswitches listed no switch")
    return tables


def from_dump(path):
    with open(path) as f:
        dump = parse_lfts(f.read(), path)
    return {g: (d['top'], {l: p for l, p in d['entries'].items() if l >= 1}) for g, d in dump.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dump')
    ap.add_argument('--dr', action='append', default=[], metavar='GUID=PATH',
                    help='read the switch of node GUID by this directed route (e.g. 0,1,5): no LID route reaches it')
    args = ap.parse_args()
    dr_paths = {int(g, 16): path for g, _, path in (d.partition('=') for d in args.dr)}
    tables = from_dump(args.dump) if args.dump else live(dr_paths)
    for guid in sorted(tables):
        top, lft = tables[guid]
        print(f"0x{guid:016x} top {top}")
        for lid in sorted(lft):
            print(f"  0x{lid:04x} {lft[lid]}")


if __name__ == '__main__':
    main()
