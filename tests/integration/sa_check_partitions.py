#!/usr/bin/env python3
"""What an SA answers across partitions, asked with saquery (infiniband-diags) under the shim.

  --path S:D=PKEY   a PathRecord from the CA named S (NodeDescription) to D exists and carries P_Key PKEY
  --path S:D=none   saquery gets no PathRecord from S to D (they share no partition, IBA 15.2.5.16)
  --nodes H=A,B,..  NodeRecords asked by LID from H (saquery at SIM_HOST=H, no SM_Key): exactly the nodes
                    A, B, ... answer (switches by their NodeDescription), every other node of the fabric
                    gets no record (IBA 15.2.5: only nodes sharing a partition with the requester)

Paths are asked from the first node of the netfile (the SM's host), by LID. LIDs come from ibnetdiscover.
Nothing here knows smd.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sa_diags import must, saquery  # noqa: E402

SW_HDR = re.compile(r'^Switch\s+\d+\s+"[^"]+"\s*#\s*"([^"]*)".*base port 0 lid (\d+)')
CA_HDR = re.compile(r'^Ca\s+\d+\s+"[^"]+"\s*#\s*"([^"]*)"')
CA_PORT = re.compile(r'^\[1\]\([0-9a-fA-F]+\).*#\s*lid (\d+)')


def lids():
    """NodeDescription -> LID (a switch's port 0, a CA's port 1)."""
    out, ca = {}, None
    for line in must(['ibnetdiscover'], timeout=30).splitlines():
        if m := SW_HDR.match(line):
            out[m.group(1)], ca = int(m.group(2)), None
        elif m := CA_HDR.match(line):
            ca = m.group(1)
        elif ca and (m := CA_PORT.match(line)):
            out[ca], ca = int(m.group(1)), None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--path', action='append', default=[])
    ap.add_argument('--nodes', action='append', default=[])
    args = ap.parse_args()
    lid = lids()
    failures, checked = [], 0
    for spec in args.path:
        pair, want = spec.split('=')
        src, dst = pair.split(':')
        st, recs = saquery('-p', '--src-to-dst', f"{lid[src]}:{lid[dst]}")
        got = [int(r['pkey'], 16) for r in recs if 'pkey' in r] if st == 0 else []
        checked += 1
        if isinstance(st, str):  # no answer at all is no verdict
            failures.append(f"PathRecord {src} -> {dst}: saquery {st}")
            continue
        if want == 'none':
            if got:
                failures.append(f"PathRecord {src} -> {dst}: got P_Keys {[hex(k) for k in got]}, expected none")
        elif got != [int(want, 16)]:
            failures.append(f"PathRecord {src} -> {dst}: got P_Keys {[hex(k) for k in got]} (status {st}), "
                            f"expected [{want}]")
    for spec in args.nodes:
        host, names = spec.split('=')
        visible = set(names.split(',')) if names else set()
        unknown = visible - set(lid)
        if unknown:
            raise SystemExit(f"sa_check_partitions: no node named {sorted(unknown)} in the fabric")
        os.environ['SIM_HOST'] = host
        try:
            for name, l in sorted(lid.items()):
                st, recs = saquery('NR', str(l))
                seen = st == 0 and len(recs) > 0
                checked += 1
                if isinstance(st, str):
                    failures.append(f"NodeRecord of {name} (LID {l}) asked from {host}: saquery {st}")
                    continue
                if seen != (name in visible):
                    failures.append(f"NodeRecord of {name} (LID {l}) asked from {host}: "
                                    f"{'answered' if seen else 'no record'}, expected "
                                    f"{'a record' if name in visible else 'none'}")
        finally:
            del os.environ['SIM_HOST']
    for f in failures:
        print('FAIL:', f)
    if failures:
        raise SystemExit(1)
    print(f"sa_check_partitions: {checked} SA answers as the partitions ask")


if __name__ == '__main__':
    main()
