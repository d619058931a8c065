#!/usr/bin/env python3
"""Deadlock freedom of a VL-layered routing, judged only from what infiniband-diags and the SA read back.

    check_vl_layers.py READBACK.json PATHS.jsonl [--expect-acyclic] [--min-vls N] [--max-vls N]
                       [--expect-constant-vl] [--expect-all-paths] [--expect-one-vl-cyclic] [--json OUT]

READBACK.json is bench/readback.py --sl2vl output: nodes and cables (ibnetdiscover), every switch's LFT
(ibroute/smpdump) and the SL2VL table of every cabled (in, out) port pair (smpquery sl2vl). PATHS.jsonl is
tests/integration/sa_client `paths --by-lid` output: one PathRecord per (SLID, DLID) pair with its SL.
Nothing here comes from smd.

Each flow (a PathRecord answered with status 0) is traced from its source CA port through the LFTs to
the CA port that owns its DLID. At every hop the VL is the SL2VL entry for the flow's SL: at the source CA
its port's table, at a switch the table of (arrival port, departure port). The channel-dependency graph
(Dally & Seitz 1987, with virtual channels) has one node per (directed cable, VL) and an edge from
(a, vl_a) to (b, vl_b) when a flow leaves a on vl_a and next takes b on vl_b. It is acyclic iff the routing
cannot deadlock on those VLs. The same graph with the VLs ignored is reported too: when it has a cycle,
the layers are what makes the routing safe.
"""
import argparse
import json
import sys
from collections import defaultdict, deque


def kahn_cyclic(nodes, succ):
    """Number of graph nodes that lie on or behind a cycle (0 = acyclic)."""
    indeg = dict.fromkeys(nodes, 0)
    for a in nodes:
        for b in succ.get(a, ()):
            indeg[b] = indeg.get(b, 0) + 1
    queue = deque(n for n, d in indeg.items() if d == 0)
    done = 0
    while queue:
        n = queue.popleft()
        done += 1
        for b in succ.get(n, ()):
            indeg[b] -= 1
            if indeg[b] == 0:
                queue.append(b)
    return len(indeg) - done


class Fabric:
    def __init__(self, rb):
        self.nodes = rb['nodes']
        self.lft = {name: {int(k): v for k, v in t.items()} for name, t in rb['lfts'].items()}
        self.sl2vl = rb.get('sl2vl') or {}
        self.lid_owner = {}  # LID -> (CA name, port)
        for name, n in self.nodes.items():
            if n['type'] == 'sw':
                if n['lid']:
                    self.lid_owner[n['lid']] = (name, 0)
                continue
            for p, (lid, lmc) in n['port_lids'].items():
                for l in range(lid, lid + (1 << lmc)):
                    self.lid_owner[l] = (name, int(p))

    def peer(self, name, port):
        hop = self.nodes[name]['ports'].get(str(port))
        return (hop[0], int(hop[1])) if hop else None

    def vl(self, name, in_port, out_port, sl):
        table = self.sl2vl.get(name, {}).get(f"{in_port},{out_port}")
        return None if table is None else table[sl]

    def trace(self, slid, dlid, sl):
        """[(node, out port, VL)] from the source CA port to the DLID's owner, or an error text."""
        src = self.lid_owner.get(slid)
        dst = self.lid_owner.get(dlid)
        if src is None or dst is None:
            return f"LID {slid if src is None else dlid} has no owner in ibnetdiscover"
        ca, port = src
        vl = self.vl(ca, 0, port, sl)
        if vl is None:
            return f"no SL2VL table read for {ca} port {port}"
        hops = [(ca, port, vl)]
        cur = self.peer(ca, port)
        for _ in range(64):
            if cur is None:
                return f"{hops[-1][0]} port {hops[-1][1]} is not cabled"
            name, in_port = cur
            if (name, in_port) == dst:
                return hops
            if self.nodes[name]['type'] != 'sw':
                return f"arrives at {name} port {in_port}, not at the owner of LID {dlid}"
            out = self.lft.get(name, {}).get(dlid)
            if out is None or out == 0xFF or out == 0:
                return f"{name}: LFT entry {out} for LID {dlid}"
            vl = self.vl(name, in_port, out, sl)
            if vl is None:
                return f"no SL2VL table read for {name} in {in_port} out {out}"
            hops.append((name, out, vl))
            cur = self.peer(name, out)
        return f"loop towards LID {dlid}"


def analyse(fab, records):
    """The summary of every flow in `records` (PathRecord dicts) over `fab`."""
    succ = defaultdict(set)       # (cable, VL) -> successors
    succ_flat = defaultdict(set)  # cable -> successors, VLs ignored
    vls_used, sls_used = set(), set()
    flows = missing = broken = vl_changes = vl15 = 0
    problems = []
    for rec in records:
        if rec.get('status') != '0x0':
            missing += 1
            if len(problems) < 10:
                problems.append(f"no PathRecord {rec.get('slid_q')} -> {rec.get('dlid_q')}: "
                                f"status {rec.get('status')} {rec.get('error', '')}")
            continue
        slid, dlid, sl = rec['slid'], rec['dlid'], rec['sl']
        if slid == dlid:
            continue
        hops = fab.trace(slid, dlid, sl)
        if isinstance(hops, str):
            broken += 1
            if len(problems) < 10:
                problems.append(f"{slid} -> {dlid} SL {sl}: {hops}")
            continue
        flows += 1
        sls_used.add(sl)
        hop_vls = [h[2] for h in hops]
        vls_used.update(hop_vls)
        vl15 += 15 in hop_vls
        if len(set(hop_vls)) > 1:
            vl_changes += 1
            if len(problems) < 10:
                problems.append(f"{slid} -> {dlid} SL {sl} changes VL on the way: {hop_vls}")
        chans = [((h[0], h[1]), h[2]) for h in hops]
        for a, b in zip(chans, chans[1:]):
            succ[a].add(b)
            succ_flat[a[0]].add(b[0])
        for c in chans:
            succ.setdefault(c, set())
            succ_flat.setdefault(c[0], set())
    cyclic = kahn_cyclic(list(succ), succ)
    cyclic_flat = kahn_cyclic(list(succ_flat), succ_flat)
    per_vl = defaultdict(lambda: [0, 0])  # VL -> [channels, dependencies]
    for (_, vl), nxt in succ.items():
        per_vl[vl][0] += 1
        per_vl[vl][1] += sum(1 for (_, v) in nxt if v == vl)
    return dict(flows=flows, missing_paths=missing, broken_flows=broken, sls_used=sorted(sls_used),
                vls_used=sorted(vls_used), flows_changing_vl=vl_changes, flows_on_vl15=vl15,
                cdg_nodes=len(succ), cdg_cyclic_nodes=cyclic, acyclic=cyclic == 0,
                one_vl_cyclic_channels=cyclic_flat, one_vl_acyclic=cyclic_flat == 0,
                per_vl={str(k): dict(channels=v[0], dependencies=v[1]) for k, v in sorted(per_vl.items())},
                problems=problems)


def ring_fabric(wrap, sl2vl_of):
    """A 4-switch ring S0..S3, host Hi on port 1 of Si (LID 10+i), Si port 2 -> S(i+1) port 3. Routes go
    clockwise (port 2); with wrap False the S3 -> S0 cable is never used (S3 routes counter-clockwise)."""
    nodes = {}
    for i in range(4):
        nodes[f"S{i}"] = dict(type='sw', lid=i + 1, port_lids={}, ports={
            '1': [f"H{i}", 1], '2': [f"S{(i + 1) % 4}", 3], '3': [f"S{(i - 1) % 4}", 2]})
        nodes[f"H{i}"] = dict(type='ca', lid=None, port_lids={'1': [10 + i, 0]}, ports={'1': [f"S{i}", 1]})
    lfts = {}
    for i in range(4):
        t = {}
        for j in range(4):
            if j == i:
                t[str(10 + j)] = 1
            elif wrap or j > i:
                t[str(10 + j)] = 2
            else:
                t[str(10 + j)] = 3
        lfts[f"S{i}"] = t
    sl2vl = {}
    for name, n in nodes.items():
        ins = [0] + [int(p) for p in n['ports']] if n['type'] == 'sw' else [0]
        outs = [int(p) for p in n['ports']]
        sl2vl[name] = {f"{a},{b}": sl2vl_of(name, a, b) for a in ins for b in outs}
    records = [dict(status='0x0', slid=10 + a, dlid=10 + b, sl=1) for a in range(4) for b in range(4) if a != b]
    return Fabric(dict(nodes=nodes, lfts=lfts, sl2vl=sl2vl)), records


def self_test():
    """The checker on made-up rings, where the right verdicts are known by hand."""
    identity = lambda name, a, b: list(range(15)) + [7]  # noqa: E731
    fails = []
    s = analyse(*ring_fabric(True, identity))
    if s['acyclic'] or s['one_vl_acyclic'] or s['vls_used'] != [1]:
        fails.append(f"clockwise ring on one VL must be cyclic: {s}")
    s = analyse(*ring_fabric(False, identity))
    if not s['acyclic'] or s['flows'] != 12 or s['broken_flows']:
        fails.append(f"ring without its wrap cable must be acyclic with 12 flows: {s}")
    to15 = lambda name, a, b: [15] * 16 if name == 'S2' else list(range(16))  # noqa: E731
    if analyse(*ring_fabric(False, to15))['flows_on_vl15'] == 0:
        fails.append("a switch mapping SL 1 to VL15 must be seen")
    moved = lambda name, a, b: [2] * 16 if (name, a, b) == ('S1', 3, 2) else [1] * 16  # noqa: E731
    if analyse(*ring_fabric(False, moved))['flows_changing_vl'] != 2:
        fails.append("the two flows entering S1 on port 3 and leaving on 2 change VL")
    fab, recs = ring_fabric(False, identity)
    fab.lft['S1'][12] = 3  # S1 sends LID 12 back towards S0, which sends it on to S1: a loop
    if analyse(fab, recs)['broken_flows'] == 0:
        fails.append("a loop in the LFTs must break flows")
    for f in fails:
        print(f"check_vl_layers self-test: FAIL: {f}", file=sys.stderr)
    print("check_vl_layers self-test: " + ("FAILED" if fails else "every case gave its known verdict"))
    return 1 if fails else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument('readback')
    ap.add_argument('paths')
    ap.add_argument('--expect-acyclic', action='store_true', help='fail unless the (cable, VL) graph is acyclic')
    ap.add_argument('--expect-constant-vl', action='store_true', help='fail if a flow changes VL on its way')
    ap.add_argument('--expect-all-paths', action='store_true', help='fail if a pair got no PathRecord')
    ap.add_argument('--expect-one-vl-cyclic', action='store_true',
                    help='fail unless the same routes on one VL would be cyclic (the layers are needed)')
    ap.add_argument('--min-vls', type=int, default=0, help='fail unless the flows use at least N VLs')
    ap.add_argument('--max-vls', type=int, default=15, help='fail if the flows use more than N VLs')
    ap.add_argument('--json', help='write the summary here too')
    args = ap.parse_args()
    with open(args.readback) as f:
        fab = Fabric(json.load(f))
    if not fab.sl2vl:
        raise SystemExit("check_vl_layers: the read-back holds no SL2VL tables (run readback.py --sl2vl)")

    with open(args.paths) as f:
        summary = analyse(fab, (json.loads(line) for line in f if line.strip()))
    broken, vl15, missing = summary['broken_flows'], summary['flows_on_vl15'], summary['missing_paths']
    cyclic, cyclic_flat = summary['cdg_cyclic_nodes'], summary['one_vl_cyclic_channels']
    vl_changes, vls_used, flows = summary['flows_changing_vl'], summary['vls_used'], summary['flows']
    text = json.dumps(summary, indent=1)
    print(text)
    if args.json:
        with open(args.json, 'w') as f:
            f.write(text)
    fails = []
    if broken:
        fails.append(f"{broken} flows do not arrive")
    if vl15:
        fails.append(f"{vl15} flows are mapped to VL15")
    if args.expect_all_paths and missing:
        fails.append(f"{missing} pairs got no PathRecord")
    if args.expect_acyclic and cyclic:
        fails.append(f"the (cable, VL) dependency graph has {cyclic} nodes on or behind a cycle")
    if args.expect_constant_vl and vl_changes:
        fails.append(f"{vl_changes} flows change VL on the way")
    if args.expect_one_vl_cyclic and cyclic_flat == 0:
        fails.append("the routes are acyclic on one VL too: the layers prove nothing here")
    if len(vls_used) < args.min_vls:
        fails.append(f"flows use {len(vls_used)} VLs, expected at least {args.min_vls}")
    if len(vls_used) > args.max_vls:
        fails.append(f"flows use {len(vls_used)} VLs, expected at most {args.max_vls}")
    if flows == 0:
        fails.append("no flow could be checked")
    for f in fails:
        print(f"check_vl_layers: FAIL: {f}", file=sys.stderr)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
