#!/usr/bin/env python3
"""Compute-node shift load and I/O-node reachability of unicast tables, walked here (no smd code).

    ftree_io_check.py (--readback ROUTES.json | --dump OPENSM-LFTS.dump --netfile NET) --cn-prefix host-
                      --io-prefix io- [--shifts N] -> JSON on stdout

Tables come from read_routes.py (an SM's LFTs read back by ibroute on ibsim) or from an opensm-lfts.dump
(OpenSM's format, `smd plan --opensm-lfts`) with the netfile's cables. CAs are named by NodeDescription;
compute nodes (CNs) are the CAs whose name starts with --cn-prefix, ordered by the number after it,
I/O nodes those with --io-prefix. Levels: BFS from the switches with CNs (0), so a cable to a higher
level goes up and a route's reverse hops are its down-then-up turns. Printed:
  cn_shift_max_load  most CN flows on one switch-to-switch cable over the shifts i -> (i + k) mod N of the
                     CN order, k = 1..N-1 (or --shifts of them, evenly spread); null if a flow is lost
  io_routes          routes to or from I/O nodes walked: every switch to every I/O node, every CA to every
                     I/O node and every I/O node to every CN (a route from a CA starts at its switch)
  io_delivered       of those, delivered to the right CA
  io_max_reverse_hops  most down-then-up turns on a delivered one
"""
import argparse
import json
import re
import sys
from collections import deque

DUMP_SWITCH = re.compile(r"^Unicast lids \[.*\] of switch Lid \d+ guid (0x[0-9a-f]+) \('(.*)'\):")
DUMP_ENTRY = re.compile(r"^(0x[0-9a-f]+) (\d+) # .*: '(.*)'")
NET_NODE = re.compile(r'^(Switch|Hca)\s+\d+\s+"([^"]+)"')
NET_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')


def from_dump(dump, netfile):
    """routes/links/homes as read_routes.py writes them, from a dump and the netfile's cables."""
    routes, sw = {}, None
    for line in open(dump):
        m = DUMP_SWITCH.match(line)
        if m:
            sw = m.group(2)
            routes[sw] = {}
            continue
        m = DUMP_ENTRY.match(line)
        if m and sw is not None:
            routes[sw][m.group(3)] = int(m.group(2))
    kind, links, homes, cur = {}, {}, {}, None
    for line in open(netfile):
        m = NET_NODE.match(line)
        if m:
            cur = m.group(2)
            kind[cur] = m.group(1)
            continue
        m = NET_PORT.match(line)
        if m and cur is not None:
            if kind[cur] == 'Switch':
                links.setdefault(cur, {})[m.group(1)] = m.group(2)
            else:
                homes[cur] = [m.group(2), int(m.group(3))]
    links = {s: {p: peer for p, peer in ports.items() if kind.get(peer) == 'Switch'} for s, ports in links.items()}
    return {"routes": routes, "links": links, "homes": homes}


def numbered(names, prefix):
    return sorted((n for n in names if n.startswith(prefix) and n[len(prefix):].isdigit()),
                  key=lambda n: int(n[len(prefix):]))


class Tables:
    def __init__(self, run, cns):
        self.routes, self.links, self.homes = run["routes"], run["links"], run["homes"]
        self.level = {s: None for s in self.links}
        queue = deque()
        for ca in cns:
            sw = self.homes[ca][0]
            if self.level[sw] is None:
                self.level[sw] = 0
                queue.append(sw)
        while queue:
            s = queue.popleft()
            for peer in self.links[s].values():
                if self.level[peer] is None:
                    self.level[peer] = self.level[s] + 1
                    queue.append(peer)
        self.memo = {}

    def walk(self, sw, ca):
        """(cables, reverse hops) of the route from switch `sw` to CA `ca`, or None if it is not delivered."""
        key = (sw, ca)
        if key not in self.memo:
            self.memo[key] = self._walk(sw, ca)
        return self.memo[key]

    def _walk(self, sw, ca):
        cables, turns, last_up = [], 0, None
        for _ in range(len(self.links) + 1):
            port = self.routes.get(sw, {}).get(ca)
            peer = self.links[sw].get(str(port))
            if peer is None:
                return (cables, turns) if self.homes[ca] == [sw, port] else None
            up = self.level[peer] > self.level[sw]
            turns += 1 if up and last_up is False else 0
            last_up = up
            cables.append((sw, port))
            sw = peer
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--readback')
    ap.add_argument('--dump')
    ap.add_argument('--netfile')
    ap.add_argument('--cn-prefix', required=True)
    ap.add_argument('--io-prefix', required=True)
    ap.add_argument('--shifts', type=int, default=0)
    a = ap.parse_args()
    run = json.load(open(a.readback)) if a.readback else from_dump(a.dump, a.netfile)
    cns, ios = numbered(run["homes"], a.cn_prefix), numbered(run["homes"], a.io_prefix)
    if not cns:
        sys.exit(f"ftree_io_check: no CA named {a.cn_prefix}N")
    t = Tables(run, cns)
    n = len(cns)
    ks = range(1, n)
    if a.shifts and a.shifts < n - 1:
        ks = sorted({1 + i * (n - 2) // (a.shifts - 1) for i in range(a.shifts)}) if a.shifts > 1 else [1]
    worst = 0
    for k in ks:
        load = {}
        for i, src in enumerate(cns):
            path = t.walk(t.homes[src][0], cns[(i + k) % n])
            if path is None:
                worst = None
                break
            for c in path[0]:
                load[c] = load.get(c, 0) + 1
        if worst is None:
            break
        worst = max([worst] + list(load.values()))
    starts = [(s, io) for s in t.links for io in ios]
    starts += [(t.homes[ca][0], io) for ca in cns + ios for io in ios if ca != io]
    starts += [(t.homes[io][0], cn) for io in ios for cn in cns]
    walked = [t.walk(s, ca) for s, ca in starts]
    delivered = [w for w in walked if w is not None]
    json.dump({"cns": n, "ios": len(ios), "shifts": len(ks), "cn_shift_max_load": worst, "io_routes": len(starts),
               "io_delivered": len(delivered), "io_max_reverse_hops": max((w[1] for w in delivered), default=0)},
              sys.stdout)
    print()


if __name__ == '__main__':
    main()
