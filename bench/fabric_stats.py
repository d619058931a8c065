#!/usr/bin/env python3
"""Counts from an ibsim netfile and the SMP lower bound for bringing that fabric up (see bench/README.md).

    fabric_stats.py NETFILE [--lmc 0]     -> JSON on stdout

Also gives the host order used by the traffic patterns: CAs in netfile order (host-0, host-1, ...).
"""
import argparse
import json
import re
import sys

HDR = re.compile(r'^(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"')
PORT = re.compile(r'^\s*\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')


def parse_netfile(path):
    """-> list of nodes in file order: dict(kind 'sw'|'ca', name, nports, ports {p: (peer, peer_port)})."""
    nodes = []
    cur = None
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].rstrip() if not raw.lstrip().startswith('[') else raw.rstrip()
            m = HDR.match(line)
            if m:
                cur = dict(kind='sw' if m.group(1) == 'Switch' else 'ca', name=m.group(3), nports=int(m.group(2)),
                           ports={})
                nodes.append(cur)
                continue
            m = PORT.match(line)
            if m and cur is not None:
                cur['ports'][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return nodes


def stats(nodes, lmc=0):
    sw = [n for n in nodes if n['kind'] == 'sw']
    ca = [n for n in nodes if n['kind'] == 'ca']
    port_ends = sum(len(n['ports']) for n in nodes)
    cables = port_ends // 2
    ca_ports_cabled = sum(len(n['ports']) for n in ca)
    n_nodes = len(nodes)
    # every switch has port 0 plus its physical ports; a CA has its physical ports
    portinfo_ports = sum(n['nports'] + 1 for n in sw) + sum(n['nports'] for n in ca)
    endports = len(sw) + ca_ports_cabled
    # LIDs packed from 1: one per switch (port 0, LMC 0 for switches), 2^lmc per CA port
    max_lid = len(sw) + ca_ports_cabled * (1 << lmc)
    blocks = -(-(max_lid + 1) // 64)
    lb = {
        'NodeInfo Get (one per node + one per extra cable = cables + 1)': n_nodes + (cables - (n_nodes - 1)),
        'NodeDescription Get (one per node)': n_nodes,
        'SwitchInfo Get (one per switch)': len(sw),
        'PortInfo Get (switch ports 0..N, every CA port)': portinfo_ports,
        'PortInfo Set LID (one per endport)': endports,
        'PortInfo Set Armed + Active (two per cabled port end)': 2 * port_ends,
        f'LFT block Set (ceil((maxLID+1)/64) = {blocks} per switch)': blocks * len(sw),
        'SwitchInfo Set LinearFDBTop (one per switch)': len(sw),
    }
    hosts = [n['name'] for n in ca]
    # Up/down root for OpenSM on graphs where its own root detection finds none (torus, random): a switch
    # of least eccentricity, lowest GUID first. ibsim numbers switch GUIDs 0x200000 + index in file order.
    names = [n['name'] for n in sw]
    index = {nm: i for i, nm in enumerate(names)}
    adj = [[index[peer] for peer, _ in n['ports'].values() if peer in index] for n in sw]
    best = None
    for s0 in range(len(sw)):
        dist = {s0: 0}
        frontier = [s0]
        while frontier:
            nxt = []
            for u in frontier:
                for v in adj[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        ecc = max(dist.values()) if len(dist) == len(sw) else 1 << 30
        if best is None or ecc < best[0]:
            best = (ecc, s0)
    updn_root = dict(name=names[best[1]], guid=f"0x{0x200000 + best[1]:016x}", eccentricity=best[0]) if best else None
    return dict(switches=len(sw), cas=len(ca), nodes=n_nodes, cables=cables, ca_ports=ca_ports_cabled,
                switch_ports=sum(n['nports'] for n in sw), max_lid=max_lid, lft_blocks_per_switch=blocks,
                lower_bound=sum(lb.values()), lower_bound_terms=lb, updn_root=updn_root, hosts=hosts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('netfile')
    ap.add_argument('--lmc', type=int, default=0)
    args = ap.parse_args()
    json.dump(stats(parse_netfile(args.netfile), args.lmc), sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
