#!/usr/bin/env python3
"""Independent witness of what an SM programmed, from infiniband-diags output only (no smd code).

Reads the fabric with ibnetdiscover, link states with iblinkinfo, and every switch's LFT with ibroute
(plus smpdump for any entry ibroute leaves out), then checks:
  * every switch port 0 and every cabled CA port has a LID (and the LMC asked for),
  * every cabled port is Active,
  * from every switch, every LID of every CA port and every switch LID is delivered to its owner;
  * with --drained DESC (an SM's operator drain of a whole switch): no LFT entry of any switch sends to DESC,
    whose own LFT is not read (no route reaches its LID) and whose LID need not be delivered.
Run it under the umad2sim shim (LD_PRELOAD) against a live ibsim. Exit 0 when all hold.
"""
import argparse
import re
import subprocess
import sys

SW_HDR = re.compile(r'^Switch\s+(\d+)\s+"([^"]+)".*#.*?base port 0 lid (\d+) lmc (\d+)')
CA_HDR = re.compile(r'^(Ca|Rt)\s+(\d+)\s+"([^"]+)"')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)\s+"([^"]+)"\[(\d+)\].*#\s*lid (\d+) lmc (\d+)')
LINK = re.compile(r'^\s*(?:0x[0-9a-f]+\s+)?(\d+)\s+(\d+)\[\s*\]\s+==\(\s*(.*?)\)==>\s+(\d*)\s+(\d*)\[')


def run(cmd, timeout):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit(f"check_fabric: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout


def desc_of(header):
    m = re.search(r'#\s*"([^"]*)"', header)
    return m.group(1) if m else ''


def parse_netdiscover(text):
    nodes = {}  # id -> {type, ports:{p:(peer_id, peer_port)}, lid, lmc, port_lids:{p:(lid,lmc)}}
    cur = None
    for line in text.splitlines():
        line = line.rstrip()
        m = SW_HDR.match(line)
        if m:
            cur = m.group(2)
            nodes[cur] = dict(type='sw', ports={}, lid=int(m.group(3)), lmc=int(m.group(4)), port_lids={}, desc=desc_of(line))
            continue
        if line.startswith('Switch'):
            raise SystemExit(f"check_fabric: switch without base port 0 LID: {line}")
        m = CA_HDR.match(line)
        if m:
            cur = m.group(3)
            nodes[cur] = dict(type='ca', ports={}, lid=None, lmc=0, port_lids={}, desc=desc_of(line))
            continue
        if cur is None:
            continue
        m = CA_PORT.match(line)
        if m and nodes[cur]['type'] == 'ca':
            p = int(m.group(1))
            nodes[cur]['ports'][p] = (m.group(3), int(m.group(4)))
            nodes[cur]['port_lids'][p] = (int(m.group(5)), int(m.group(6)))
            continue
        m = SW_PORT.match(line)
        if m and nodes[cur]['type'] == 'sw':
            nodes[cur]['ports'][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return nodes


def parse_ibroute(text):
    lft = {}
    for line in text.splitlines():
        m = re.match(r'^0x([0-9a-fA-F]{4})\s+(\d+)', line)
        if m:
            lft[int(m.group(1), 16)] = int(m.group(2))
    return lft


def smpdump_block(lid, block, timeout):
    out = run(['smpdump', str(lid), '0x19', str(block)], timeout)
    data = bytes.fromhex(''.join(out.split()))
    return list(data[:64])


def shift_load_errors(args, nodes, lfts, owner):
    """Max flows on one switch egress port over all shifts i -> i+k of the CA order, from the read-back LFTs."""
    lid_of = {}  # description -> base LID of its port
    for lid, (name, port) in owner.items():
        if nodes[name]['type'] == 'ca':
            lid_of.setdefault(nodes[name]['desc'], min(lid, lid_of.get(nodes[name]['desc'], lid)))
    order = []
    with open(args.ca_order) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            order.append(line.split(None, 3)[3].strip())
    leaf_of = {}  # CA description -> (leaf switch name)
    for name, n in nodes.items():
        if n['type'] == 'ca':
            peer, _ = next(iter(n['ports'].values()))
            leaf_of[n['desc']] = peer
    worst = 0
    for k in range(1, len(order)):
        load = {}
        for i, src in enumerate(order):
            dst_lid = lid_of[order[(i + k) % len(order)]]
            here = leaf_of[src]
            for _ in range(len(lfts) + 1):
                port = lfts[here].get(dst_lid, 255)
                load[(here, port)] = load.get((here, port), 0) + 1
                peer, _ = nodes[here]['ports'][port]
                if nodes[peer]['type'] == 'ca':
                    break
                here = peer
        worst = max(worst, max(load.values()))
    print(f"check_fabric: shift max link load {worst} over {len(order) - 1} shifts in ca-order")
    return [] if worst <= args.max_shift_load else [f"shift max link load {worst} > {args.max_shift_load}"]


def trace(nodes, lfts, start, lid):
    """Egress channels (switch, port) from switch `start` to LID `lid`, or None if it does not arrive."""
    path, here = [], start
    for _ in range(len(lfts) + 1):
        port = lfts[here].get(lid, 255)
        if port == 0:
            return path
        if port not in nodes[here]['ports']:
            return None
        path.append((here, port))
        peer, _ = nodes[here]['ports'][port]
        if nodes[peer]['type'] == 'ca':
            return path
        here = peer
    return None


def shortest_path_counts(nodes, src):
    """Number of distinct shortest switch paths (parallel cables counted apart) from switch src to each switch."""
    dist, count, frontier = {src: 0}, {src: 1}, [src]
    while frontier:
        nxt = []
        for u in frontier:
            for peer, _ in nodes[u]['ports'].values():
                if nodes[peer]['type'] != 'sw':
                    continue
                if peer not in dist:
                    dist[peer] = dist[u] + 1
                    count[peer] = 0
                    nxt.append(peer)
                if dist[peer] == dist[u] + 1:
                    count[peer] += count[u]
        frontier = nxt
    return count


def path_diversity_errors(nodes, lfts, owner):
    """Each CA pair's 2^lmc DLIDs must take min(2^lmc, #shortest leaf-to-leaf paths) distinct paths."""
    lids_of = {}  # (ca, port) -> its LIDs
    for lid, (name, port) in owner.items():
        if nodes[name]['type'] == 'ca':
            lids_of.setdefault((name, port), []).append(lid)
    leaves = {}  # leaf switch -> CA ports on it (one source per leaf is enough: CAs on a leaf share its LFT)
    for (name, port) in lids_of:
        leaves.setdefault(nodes[name]['ports'][port][0], []).append((name, port))
    errors, pairs, short = [], 0, 0
    for leaf in leaves:
        paths_to = shortest_path_counts(nodes, leaf)
        for (dst, dport), lids in lids_of.items():
            dst_leaf = nodes[dst]['ports'][dport][0]
            want = min(len(lids), paths_to.get(dst_leaf, 0))
            got = {tuple(p) for p in (trace(nodes, lfts, leaf, l) for l in lids) if p is not None}
            pairs += len(leaves[leaf])
            if len(got) < want:
                short += len(leaves[leaf])
                if len(errors) < 10:
                    errors.append(f"from leaf {leaf} the {len(lids)} LIDs of {dst}[{dport}] take {len(got)} "
                                  f"distinct paths, {want} shortest paths exist")
    print(f"check_fabric: path diversity: {pairs - short}/{pairs} CA-port pairs (incl. self) use "
          f"min(2^LMC, shortest paths) distinct paths")
    return errors


def deadlock_errors(nodes, lfts, owner):
    """The channel dependency graph of the read-back routes (Dally & Seitz 1987) must be acyclic."""
    deps = {}
    for sw in lfts:
        for lid in owner:
            path = trace(nodes, lfts, sw, lid)
            for a, b in zip(path or [], (path or [])[1:]):
                deps.setdefault(a, set()).add(b)
    state = {}  # channel -> 1 on the DFS stack, 2 done
    for root in deps:
        if root in state:
            continue
        stack = [(root, iter(deps.get(root, ())))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [f"channel dependency cycle through {nxt[0]} port {nxt[1]}"]
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(deps.get(nxt, ()))))
    print(f"check_fabric: channel dependency graph acyclic ({len(deps)} channels with dependencies)")
    return []


def min_hop_errors(nodes, lfts, owner):
    """Every switch -> LID route takes the fewest switch-to-switch cables (BFS over ibnetdiscover's cables)."""
    dist = {}
    for start in lfts:
        d = {start: 0}
        queue = [start]
        for here in queue:
            for peer, _ in nodes[here]['ports'].values():
                if nodes[peer]['type'] == 'sw' and peer not in d:
                    d[peer] = d[here] + 1
                    queue.append(peer)
        dist[start] = d
    errors, routes = [], 0
    for sw in lfts:
        for lid, (dst, _) in owner.items():
            path = trace(nodes, lfts, sw, lid)
            if path is None:
                continue  # not delivered: reported by the delivery check
            dst_sw = dst if nodes[dst]['type'] == 'sw' else nodes[dst]['ports'][owner[lid][1]][0]
            hops = sum(1 for here, port in path if nodes[nodes[here]['ports'][port][0]]['type'] == 'sw')
            routes += 1
            if hops != dist[sw].get(dst_sw) and len(errors) < 10:
                errors.append(f"switch {sw} reaches LID {lid} in {hops} hops, the shortest is "
                              f"{dist[sw].get(dst_sw)}")
    if not errors:
        print(f"check_fabric: all {routes} switch->LID routes are shortest")
    return errors


def avoid_errors(nodes, lfts, owner, spec):
    """The cable at switch DESC port PORT is cabled (ibnetdiscover) and no LFT entry at either end uses it."""
    desc, _, port = spec.rpartition(':')
    port = int(port)
    names = [n for n, v in nodes.items() if v['type'] == 'sw' and v['desc'] == desc]
    if len(names) != 1:
        return [f"--avoid {spec}: {len(names)} switches are described '{desc}'"]
    name = names[0]
    if port not in nodes[name]['ports']:
        return [f"--avoid {spec}: the cable is gone (ibnetdiscover sees no peer on {desc} port {port})"]
    peer, peer_port = nodes[name]['ports'][port]
    errors = []
    for sw, out in ((name, port), (peer, peer_port)):
        if sw not in lfts:
            continue
        using = sorted(l for l in owner if lfts[sw].get(l) == out)
        if using:
            errors.append(f"{nodes[sw]['desc']} port {out} still carries {len(using)} LIDs (first {using[:5]})")
    if not errors:
        print(f"check_fabric: no route uses the cable {desc}[{port}] <-> {nodes[peer]['desc']}[{peer_port}]")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--lmc', type=int, default=0)
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--expect-switches', type=int)
    ap.add_argument('--expect-cas', type=int)
    ap.add_argument('--ca-order', help="file of 'index node-GUID port description' lines (smd's state_dir/ca-order)")
    ap.add_argument('--max-shift-load', type=int,
                    help='fail when a shift permutation in --ca-order order loads a switch egress port more')
    ap.add_argument('--path-diversity', action='store_true',
                    help="check each CA pair's LIDs use min(2^LMC, shortest paths) distinct paths")
    ap.add_argument('--deadlock-free', action='store_true',
                    help='check the channel dependency graph of the read-back routes is acyclic')
    ap.add_argument('--min-hop', action='store_true',
                    help='check every switch->LID route takes the fewest cables (BFS over the cables)')
    ap.add_argument('--use', action='append', default=[], metavar='DESC:PORT',
                    help='some LFT entry of switch DESC sends over its port PORT')
    ap.add_argument('--avoid', action='append', default=[], metavar='DESC:PORT',
                    help='the cable at switch DESC port PORT is up but no LFT entry at either end sends over it')
    ap.add_argument('--drained', action='append', default=[], metavar='DESC',
                    help='switch DESC is drained: no LFT entry of any switch sends to it; its LID and LFT are skipped')
    args = ap.parse_args()
    errors = []

    nodes = parse_netdiscover(run(['ibnetdiscover'], args.timeout))
    switches = {k: v for k, v in nodes.items() if v['type'] == 'sw'}
    cas = {k: v for k, v in nodes.items() if v['type'] == 'ca'}
    if args.expect_switches is not None and len(switches) != args.expect_switches:
        errors.append(f"ibnetdiscover sees {len(switches)} switches, expected {args.expect_switches}")
    if args.expect_cas is not None and len(cas) != args.expect_cas:
        errors.append(f"ibnetdiscover sees {len(cas)} CAs, expected {args.expect_cas}")

    # 1. LIDs: owner of every LID, none missing, none shared.
    owner = {}
    for name, n in switches.items():
        if n['lid'] == 0:
            errors.append(f"switch {name} has no LID")
        elif n['lid'] in owner:
            errors.append(f"LID {n['lid']} on both {owner[n['lid']]} and switch {name}")
        owner[n['lid']] = (name, 0)
    for name, n in cas.items():
        for p, (lid, lmc) in n['port_lids'].items():
            if lid == 0:
                errors.append(f"CA {name} port {p} has no LID")
                continue
            if lmc != args.lmc:
                errors.append(f"CA {name} port {p} has LMC {lmc}, expected {args.lmc}")
            for l in range(lid, lid + (1 << lmc)):
                if l in owner:
                    errors.append(f"LID {l} on both {owner[l]} and CA {name} port {p}")
                owner[l] = (name, p)

    # 2. Every cabled port Active (iblinkinfo lists each link from both ends).
    links = 0
    for line in run(['iblinkinfo'], args.timeout).splitlines():
        m = LINK.match(line)
        if not m or not m.group(4):
            continue  # not a port line, or a port with no peer
        links += 1
        if 'Active' not in m.group(3):
            errors.append(f"link not Active: {line.strip()}")
    if links == 0:
        errors.append("iblinkinfo shows no links")

    drained = {name for name, n in switches.items() if n['desc'] in args.drained}
    if len(drained) != len(set(args.drained)):
        errors.append(f"--drained {args.drained}: {len(drained)} switches have those descriptions")

    # 3. Every switch delivers every LID to its owner (a drained switch's own LID is routed nowhere).
    max_lid = max(owner) if owner else 0
    lfts = {}
    for name, n in switches.items():
        if name in drained:
            continue
        lft = parse_ibroute(run(['ibroute', '-a', '-n', str(n['lid']), '1', str(max_lid + 1)], args.timeout))
        missing = [l for l in owner if l not in lft]
        for block in sorted({l // 64 for l in missing}):
            for i, port in enumerate(smpdump_block(n['lid'], block, args.timeout)):
                lft.setdefault(block * 64 + i, port)
        lfts[name] = lft
    bad_routes = 0
    for sw_name in switches:
        if sw_name in drained:
            continue
        for lid, (dst, dst_port) in owner.items():
            if dst in drained:
                continue
            here, hops = sw_name, 0
            while True:
                port = lfts.get(here, {}).get(lid, 255)
                if port == 0:
                    ok = here == dst and dst_port == 0
                    break
                if port == 255 or port not in nodes[here]['ports']:
                    ok = False
                    break
                peer, peer_port = nodes[here]['ports'][port]
                if nodes[peer]['type'] == 'ca':
                    ok = peer == dst and peer_port == dst_port
                    break
                here, hops = peer, hops + 1
                if hops > len(switches):
                    ok = False
                    break
            if not ok:
                bad_routes += 1
                if bad_routes <= 20:
                    errors.append(f"switch {sw_name} does not deliver LID {lid} to {dst}[{dst_port}]")
    for sw_name, lft in lfts.items():
        into = sorted(l for l, port in lft.items() if l in owner and nodes[sw_name]['ports'].get(port, ('',))[0] in drained)
        if into:
            errors.append(f"{nodes[sw_name]['desc']} sends {len(into)} LIDs to a drained switch (first {into[:5]})")
    for spec in args.avoid:
        errors.extend(avoid_errors(nodes, lfts, owner, spec))
    for spec in args.use:
        desc, _, port = spec.rpartition(':')
        sws = [n for n, v in switches.items() if v['desc'] == desc]
        if len(sws) != 1 or not any(p == int(port) for p in lfts[sws[0]].values()):
            errors.append(f"--use {spec}: no LFT entry of {desc} sends over port {port}")
    if args.ca_order and args.max_shift_load is not None:
        errors.extend(shift_load_errors(args, nodes, lfts, owner))
    if args.path_diversity:
        errors.extend(path_diversity_errors(nodes, lfts, owner))
    if args.deadlock_free:
        errors.extend(deadlock_errors(nodes, lfts, owner))
    if args.min_hop:
        errors.extend(min_hop_errors(nodes, lfts, owner))
    pairs = (len(switches) - len(drained)) * len([l for l, (dst, _) in owner.items() if dst not in drained])
    print(f"check_fabric: {len(switches)} switches, {len(cas)} CAs, {links // 2} links, {len(owner)} LIDs, "
          f"{pairs - bad_routes}/{pairs} switch->LID routes deliver")
    if bad_routes > 20:
        errors.append(f"... {bad_routes} bad routes in all")
    for e in errors:
        print(f"check_fabric: FAIL: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
