#!/usr/bin/env python3
"""The unicast routes an SM left on a live ibsim, by name, from infiniband-diags only (no smd code).

Reads ibnetdiscover (names, LIDs, cables) and every switch's LFT (ibroute, plus smpdump for the entry
ibroute leaves out; check_fabric.py's readers) and writes JSON to stdout:
  {"routes": {switch: {CA: out-port}}, "to_switches": {switch: [ports cabled to a switch]},
   "links": {switch: {port: peer switch}}, "homes": {CA: [switch, port]}, "guids": {switch: "0x<node GUID>"}}
for every CA port's base LID. Keyed by NodeDescription, so two SMs that number LIDs differently compare.
Run it under the umad2sim shim against the fabric.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fabric as cf  # noqa: E402


def main():
    timeout = 120
    nodes = cf.parse_netdiscover(cf.run(['ibnetdiscover'], timeout))
    switches = {k: v for k, v in nodes.items() if v['type'] == 'sw'}
    owner = {}  # base LID -> CA description
    for n in nodes.values():
        if n['type'] == 'ca':
            for lid, _lmc in n['port_lids'].values():
                owner[lid] = n['desc']
    if not owner:
        raise SystemExit("read_routes: no CA has a LID")
    max_lid = max(list(owner) + [n['lid'] for n in switches.values()])
    routes, to_switches, links = {}, {}, {}
    for n in switches.values():
        lft = cf.parse_ibroute(cf.run(['ibroute', '-a', '-n', str(n['lid']), '1', str(max_lid + 1)], timeout))
        for block in sorted({lid // 64 for lid in owner if lid not in lft}):
            for i, port in enumerate(cf.smpdump_block(n['lid'], block, timeout)):
                lft.setdefault(block * 64 + i, port)
        routes[n['desc']] = {ca: lft.get(lid, 255) for lid, ca in owner.items()}
        to_switches[n["desc"]] = sorted(p for p, (peer, _pp) in n['ports'].items() if nodes[peer]['type'] == 'sw')
        links[n["desc"]] = {str(p): nodes[peer]['desc'] for p, (peer, _pp) in n['ports'].items()
                            if nodes[peer]['type'] == 'sw'}
    homes = {n['desc']: [nodes[peer]['desc'], pp] for n in nodes.values() if n['type'] == 'ca'
             for _p, (peer, pp) in n['ports'].items() if nodes[peer]['type'] == 'sw'}
    # ibnetdiscover names a switch "S-<16 hex digits of its node GUID>".
    guids = {n['desc']: "0x" + node_id.split("-", 1)[1].lower() for node_id, n in switches.items()}
    json.dump({"routes": routes, "to_switches": to_switches, "links": links, "homes": homes, "guids": guids},
              sys.stdout, indent=1, sort_keys=True)


if __name__ == '__main__':
    main()
