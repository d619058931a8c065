#!/usr/bin/env python3
"""Routing quality of the LFTs read back from the switches (bench/readback.py output).

    quality.py READBACK.json NETFILE [--shifts all|N] [--perm-seeds 20] [--ebb-samples 100] -> JSON

Flows go from host to host (CAs in netfile order: host-0 .. host-N-1) and are traced through the
LFT arrays as read back; the load of a directed link is the number of flows on it.
  shift_max   max link load over the shift permutations i -> (i+k) mod N, k in 1..N-1 (or a sample)
  perm_mean   mean over seeded random permutations of the max link load (fixed points dropped)
  ebb         effective bisection bandwidth (Hoefler et al. 2008): random bisections into pairs, both
              directions, each flow gets 1/(max load on its path), mean over flows and samples
  efi         edge forwarding index: max flows on one link in all-to-all (only when all shifts are run)
  deadlock    channel dependency graph of the CA-to-CA routes acyclic?
  undelivered (source switch, destination CA LID) routes that loop, black-hole or arrive at the wrong CA

Speed: routes depend only on (switch, destination LID), so each switch-to-CA route is walked once and
kept as a tuple of link ids; a flow is its source host's leaf-switch route. The host's own uplink always
carries exactly the one flow its host sends in these patterns, so it is left out of the loads (max >= 1).
"""
import argparse
import itertools
import json
import random
import sys
import time
from collections import Counter

sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from fabric_stats import parse_netfile  # noqa: E402


class Fabric:
    def __init__(self, rb, host_order):
        nodes = rb['nodes']
        self.sw_names = sorted(n for n, v in nodes.items() if v['type'] == 'sw')
        self.sw_index = {n: i for i, n in enumerate(self.sw_names)}
        S = len(self.sw_names)
        max_lid = rb['max_lid']
        # directed link id per (switch index, out port); CA endpoints are terminals
        self.link_id = {}
        self.link_name = []
        # next hop per switch: nxt[s][lid] = (link id, next switch index or -1, (ca name, ca port) or None)
        self.nxt = []
        for s, name in enumerate(self.sw_names):
            ports = nodes[name]['ports']
            lft_raw = rb['lfts'].get(name, {})
            out_of = {}
            for p, (peer, pp) in ports.items():
                p = int(p)
                lid_ = len(self.link_name)
                self.link_id[(s, p)] = lid_
                self.link_name.append(f"{name}[{p}]->{peer}[{pp}]")
                if nodes[peer]['type'] == 'sw':
                    out_of[p] = (lid_, self.sw_index[peer], None)
                else:
                    out_of[p] = (lid_, -1, (peer, pp))
            row = [None] * (max_lid + 1)
            for lid_s, port in lft_raw.items():
                lid = int(lid_s)
                if lid <= max_lid:
                    row[lid] = out_of.get(port) if port != 0 else 'self'
            self.nxt.append(row)
        self.S = S
        # hosts: name -> (lid, leaf switch index)
        self.hosts = []
        self.ca_lid_owner = {}
        by_desc = {v.get('desc'): k for k, v in nodes.items() if v['type'] == 'ca'}
        for h in host_order:
            nid = by_desc.get(h, h)
            n = nodes.get(nid)
            if n is None or n['type'] != 'ca' or not n['ports']:
                raise SystemExit(f"quality: host {h} missing from the read-back fabric")
            p = min(n['ports'])
            lid = n['port_lids'][p][0] if p in n['port_lids'] else n['port_lids'][str(p)][0]
            peer, _ = n['ports'][p]
            self.hosts.append((h, p, lid, self.sw_index[peer]))
            self.ca_lid_owner[lid] = (nid, p)
        self.route = [dict() for _ in range(S)]  # route[s][lid] -> tuple of link ids, or None if broken
        self.bad_routes = []

    def path(self, s, lid):
        """Links from switch s to the CA owning lid (CA-to-CA traffic), memoized per (switch, lid)."""
        r = self.route[s].get(lid, False)
        if r is not False:
            return r
        walk = []  # (switch, link) pairs not yet memoized
        seen = set()
        cur = s
        tail = None
        ok = True
        while True:
            r = self.route[cur].get(lid, False)
            if r is not False:
                tail = r
                ok = r is not None
                why = 'joins a broken route'
                break
            if cur in seen:
                ok = False
                why = 'loop'
                break
            seen.add(cur)
            hop = self.nxt[cur][lid] if lid < len(self.nxt[cur]) else None
            if hop is None or hop == 'self':
                ok = False
                why = 'no route' if hop is None else 'delivered to switch'
                break
            link, nsw, ca = hop
            walk.append((cur, link))
            if nsw < 0:
                ok = ca == self.ca_lid_owner.get(lid)
                why = f'arrives at {ca}'
                tail = ()
                break
            cur = nsw
        if not ok:
            if len(self.bad_routes) < 10:
                self.bad_routes.append(f"{self.sw_names[s]} -> lid {lid}: {why}")
            for sw, _ in walk:
                self.route[sw][lid] = None
            self.route[cur][lid] = None
            return None
        # fill memo from the end
        acc = tail
        for sw, link in reversed(walk):
            acc = (link,) + acc
            self.route[sw][lid] = acc
        return self.route[s][lid]

    def flow_paths(self, pairs):
        paths = []
        broken = 0
        for a, b in pairs:
            _, _, _, leaf = self.hosts[a]
            p = self.path(leaf, self.hosts[b][2])
            if p is None:
                broken += 1
                p = ()
            paths.append(p)
        return paths, broken

    @staticmethod
    def loads(paths):
        return Counter(itertools.chain.from_iterable(paths))


def analyse(fab, shifts, perm_seeds, ebb_samples):
    N = len(fab.hosts)
    res = {}
    t = time.monotonic()
    # all routes: every leaf switch to every CA LID (also fills the memo)
    leaves = sorted({h[3] for h in fab.hosts})
    undelivered = 0
    for s in leaves:
        for h in fab.hosts:
            if fab.path(s, h[2]) is None:
                undelivered += 1
    res['routes_checked'] = len(leaves) * N
    res['undelivered'] = undelivered
    res['bad_route_sample'] = fab.bad_routes

    # shift permutations
    if shifts == 'auto':
        shifts = 'all' if N <= 1024 else '256'
    if shifts == 'all' or int(shifts) >= N - 1:
        ks = list(range(1, N))
    else:
        m = int(shifts)
        ks = sorted({1 + (i * (N - 1)) // m for i in range(m)})
    all_to_all = Counter() if len(ks) == N - 1 else None
    worst = 0
    worst_k = None
    for k in ks:
        paths, _ = fab.flow_paths((i, (i + k) % N) for i in range(N))
        c = fab.loads(paths)
        mx = max(c.values()) if c else 0
        if mx > worst:
            worst, worst_k = mx, k
        if all_to_all is not None:
            all_to_all.update(c)
    res['shift_max'] = max(worst, 1)
    res['shift_worst_k'] = worst_k
    res['shifts_run'] = len(ks)
    res['efi'] = max(all_to_all.values()) if all_to_all else None

    # random permutations
    maxes = []
    for seed in range(1, perm_seeds + 1):
        perm = list(range(N))
        random.Random(seed).shuffle(perm)
        paths, _ = fab.flow_paths((i, perm[i]) for i in range(N) if perm[i] != i)
        c = fab.loads(paths)
        maxes.append(max(max(c.values()) if c else 0, 1))
    res['perm_mean'] = sum(maxes) / len(maxes)
    res['perm_seeds'] = perm_seeds

    # effective bisection bandwidth
    total = 0.0
    flows = 0
    for seed in range(1, ebb_samples + 1):
        order = list(range(N))
        random.Random(10_000 + seed).shuffle(order)
        half = N // 2
        pairs = []
        for i in range(half):
            a, b = order[i], order[half + i]
            pairs.append((a, b))
            pairs.append((b, a))
        paths, _ = fab.flow_paths(pairs)
        c = fab.loads(paths)
        for p in paths:
            if not p:
                continue  # broken route: bandwidth 0
            total += 1.0 / max(1, max(c[l] for l in p))
        flows += len(paths)
    res['ebb'] = total / flows if flows else 0.0
    res['ebb_samples'] = ebb_samples

    # deadlock freedom: channel dependency graph of CA-to-CA routes (link -> next link on some route)
    succ = {}
    for s in leaves:
        for h in fab.hosts:
            p = fab.route[s].get(h[2])
            if not p:
                continue
            for a, b in zip(p, p[1:]):
                st = succ.get(a)
                if st is None:
                    succ[a] = {b}
                else:
                    st.add(b)
    indeg = Counter()
    for a, bs in succ.items():
        for b in bs:
            indeg[b] += 1
    nodes = set(succ) | set(indeg)
    ready = [n for n in nodes if indeg[n] == 0]
    removed = 0
    while ready:
        n = ready.pop()
        removed += 1
        for b in succ.get(n, ()):
            indeg[b] -= 1
            if indeg[b] == 0:
                ready.append(b)
    res['cdg_channels'] = len(nodes)
    res['cdg_edges'] = sum(len(b) for b in succ.values())
    res['cdg_channels_on_cycles'] = len(nodes) - removed
    res['deadlock_free'] = removed == len(nodes)
    res['seconds'] = round(time.monotonic() - t, 2)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('readback')
    ap.add_argument('netfile')
    ap.add_argument('--shifts', default='auto',
                    help="'all', or how many shifts to sample (evenly spaced); auto = all up to 1024 hosts, else 256")
    ap.add_argument('--perm-seeds', type=int, default=20)
    ap.add_argument('--ebb-samples', type=int, default=100)
    args = ap.parse_args()
    with open(args.readback) as f:
        rb = json.load(f)
    # json turned int keys into strings: restore the port maps
    for n in rb['nodes'].values():
        n['ports'] = {int(p): tuple(v) for p, v in n['ports'].items()}
        n['port_lids'] = {int(p): tuple(v) for p, v in n['port_lids'].items()}
    hosts = [n['name'] for n in parse_netfile(args.netfile) if n['kind'] == 'ca']
    fab = Fabric(rb, hosts)
    res = analyse(fab, args.shifts, args.perm_seeds, args.ebb_samples)
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
