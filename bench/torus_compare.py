#!/usr/bin/env python3
"""Two SMs' routes on one fabric, by node name: LFT entries to every host port and PathRecord SLs.

    torus_compare.py RUN_DIR_A RUN_DIR_B

Each RUN_DIR is one bench/vl_routing.sh run (readback.json from bench/readback.py, paths.jsonl from
tests/integration/sa_client). LIDs are mapped to host ports first, since two SMs may assign other LIDs.
"""
import json
import sys


def load(run):
    """({(switch, host:port): out port}, {(host:port, host:port): SL}) of one run."""
    rb = json.load(open(run + '/readback.json'))
    own = {}
    for name, n in rb['nodes'].items():
        if n['type'] == 'ca':
            for p, (lid, _) in n['port_lids'].items():
                own[lid] = f"{name}:{p}"
    lft = {(sw, own[int(lid)]): p for sw, t in rb['lfts'].items() for lid, p in t.items() if int(lid) in own}
    sls = {}
    for line in open(run + '/paths.jsonl'):
        r = json.loads(line)
        if r.get('status') == '0x0':
            sls[(own[r['slid']], own[r['dlid']])] = r['sl']
    return lft, sls


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, sa = load(sys.argv[1])
    b, sb = load(sys.argv[2])
    print(f"LFT entries to hosts equal: {sum(1 for k in a if b.get(k) == a[k])} of {len(a)}; "
          f"PathRecord SLs equal: {sum(1 for k in sa if sb.get(k) == sa[k])} of {len(sa)}")


if __name__ == '__main__':
    main()
