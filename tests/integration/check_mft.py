#!/usr/bin/env python3
"""Independent witness of the multicast forwarding an SM programmed, from infiniband-diags output only.

Reads the fabric (nodes, cables, port GUIDs, switch LIDs) from `ibnetdiscover` output and every switch's
MulticastForwardingTable from `ibroute -M <switch-lid>` output (normal or `-n` brief format, several
switches concatenated), plus the groups: one line per group, `MLID PORTGUID...` (member port GUIDs; a
switch member by its node GUID, i.e. port 0). Without a groups file the members are read off the tables
(every CA port and switch port 0 in some mask). For every group and every member as the sender, it floods
the packet as a switch forwards it (out of every port of the MLID's mask except the one it came in on) and
checks: every other member is reached exactly once, no switch is reached twice (no loop), no packet
reaches a switch without the MLID or a port that is not a member. Prints the max number of groups on one
switch-to-switch link. Exit 0 when every group passes.

  check_mft.py --netdiscover NET.txt --mft MFT.txt [--groups GROUPS.txt]
  check_mft.py --live [--groups GROUPS.txt]   # runs ibnetdiscover and ibroute -M itself (under the shim)
"""
import argparse
import re
import subprocess
import sys

SW_HDR = re.compile(r'^Switch\s+(\d+)\s+"[SH]-([0-9a-fA-F]+)".*#.*?base port 0 lid (\d+)')
CA_HDR = re.compile(r'^(?:Ca|Rt)\s+(\d+)\s+"[SHR]-([0-9a-fA-F]+)"')
# Switch port line: [p] "X-guid"[q](peer port guid)? ; CA port line: [p](port guid) "X-guid"[q]
SW_PORT = re.compile(r'^\[(\d+)\]\s+"[SHR]-([0-9a-fA-F]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)\s+"[SHR]-([0-9a-fA-F]+)"\[(\d+)\]')
MFT_HDR = re.compile(r'^Multicast mlids \[0x([0-9a-fA-F]+)-0x([0-9a-fA-F]+)\] of switch .*guid 0x([0-9a-fA-F]+)')
ENTRY = re.compile(r'^0x([0-9a-fA-F]{4})\s')


def parse_netdiscover(text):
    """-> nodes {node_guid: {'sw': bool, 'nports': n, 'lid': lid|None, 'ports': {p: (peer_guid, peer_port)},
    'port_guids': {p: guid}}}"""
    nodes = {}
    cur = None
    for line in text.splitlines():
        line = line.rstrip()
        m = SW_HDR.match(line)
        if m:
            cur = int(m.group(2), 16)
            nodes[cur] = dict(sw=True, nports=int(m.group(1)), lid=int(m.group(3)), ports={}, port_guids={0: cur})
            continue
        m = CA_HDR.match(line)
        if m:
            cur = int(m.group(2), 16)
            nodes[cur] = dict(sw=False, nports=int(m.group(1)), lid=None, ports={}, port_guids={})
            continue
        if not line or line.startswith('#'):
            if not line:
                cur = None
            continue
        if cur is None:
            continue
        m = CA_PORT.match(line)
        if m and not nodes[cur]['sw']:
            p = int(m.group(1))
            nodes[cur]['port_guids'][p] = int(m.group(2), 16)
            nodes[cur]['ports'][p] = (int(m.group(3), 16), int(m.group(4)))
            continue
        m = SW_PORT.match(line)
        if m and nodes[cur]['sw']:
            nodes[cur]['ports'][int(m.group(1))] = (int(m.group(2), 16), int(m.group(3)))
    return nodes


def parse_mft(text):
    """`ibroute -M` output of one or more switches -> {switch_guid: {mlid: set(ports)}}.

    Normal format: port i is an 'x' at column 12 + 2i of an entry line (ibroute prints "0x%04x" and six
    spaces, then two characters per port). Brief (-n) format: one 4-hex-digit PortMask per position."""
    tables = {}
    cur = None
    brief = False
    for line in text.splitlines():
        line = line.rstrip('\n')
        m = MFT_HDR.match(line)
        if m:
            cur = int(m.group(3), 16)
            tables[cur] = {}
            brief = False
            continue
        if cur is None:
            continue
        if line.startswith(' MLid') and 'Port Mask' in line:
            brief = True
            continue
        m = ENTRY.match(line)
        if not m:
            continue
        mlid = int(m.group(1), 16)
        ports = set()
        if brief:
            hexes = line[6:].strip()
            if len(hexes) % 4:
                raise ValueError(f"check_mft: brief MFT line with a partial mask: {line!r}")
            for pos in range(len(hexes) // 4):
                mask = int(hexes[4 * pos:4 * pos + 4], 16)
                ports |= {16 * pos + b for b in range(16) if mask >> b & 1}
        else:
            for col in range(12, len(line), 2):
                if line[col] == 'x':
                    ports.add((col - 12) // 2)
                elif line[col] != ' ':
                    raise ValueError(f"check_mft: unexpected {line[col]!r} at column {col}: {line!r}")
        if ports:
            tables[cur][mlid] = ports
    return tables


def parse_groups(text):
    """'MLID PORTGUID...' lines -> {mlid: [port guid...]}; '#' starts a comment."""
    groups = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split('#', 1)[0].split()
        if not line:
            continue
        try:
            groups[int(line[0], 16)] = [int(g, 16) for g in line[1:]]
        except ValueError:
            raise SystemExit(f"check_mft: groups line {n}: expected 'MLID PORTGUID...'")
    return groups


def members_from_tables(nodes, tables, mlid):
    """Port GUIDs of every CA port and switch port 0 that some switch sends `mlid` to."""
    out = []
    for sw, entries in tables.items():
        for p in sorted(entries.get(mlid, ())):
            if p == 0:
                out.append(sw)
            elif p in nodes[sw]['ports']:
                peer, pp = nodes[sw]['ports'][p]
                if not nodes[peer]['sw']:
                    out.append(nodes[peer]['port_guids'][pp])
    return out


def check_group(nodes, tables, mlid, member_guids):
    """-> list of error strings for one group (empty: every member reached once from every sender)."""
    where = {}  # port guid -> (node guid, port)
    for g, node in nodes.items():
        for p, pg in node['port_guids'].items():
            where[pg] = (g, p)
    members = set()
    for pg in member_guids:
        if pg not in where:
            return [f"MLID 0x{mlid:04x}: member 0x{pg:016x} is not in the fabric"]
        members.add(where[pg])
    if len(members) < 2:
        return []
    errors = []
    for sender in sorted(members):
        node, port = sender
        if nodes[node]['sw']:
            start = (node, 0)
        else:
            if port not in nodes[node]['ports']:
                errors.append(f"MLID 0x{mlid:04x}: member 0x{node:016x} port {port} has no cable")
                continue
            start = nodes[node]['ports'][port]
        reached = {}
        visited = set()
        stack = [start]
        err = None
        while stack and err is None:
            sw, inp = stack.pop()
            if sw in visited:
                err = f"revisits switch 0x{sw:016x} (in on port {inp}): a loop"
                break
            visited.add(sw)
            mask = tables.get(sw, {}).get(mlid)
            if not mask:
                err = f"reaches switch 0x{sw:016x} port {inp}, which has no entry"
                break
            for p in sorted(mask):
                if p == inp:
                    continue
                if p == 0:
                    to = (sw, 0)
                elif p not in nodes[sw]['ports']:
                    err = f"switch 0x{sw:016x} port {p} is not cabled"
                    break
                else:
                    peer, pp = nodes[sw]['ports'][p]
                    if nodes[peer]['sw']:
                        stack.append((peer, pp))
                        continue
                    to = (peer, pp)
                if to not in members:
                    err = f"switch 0x{sw:016x} port {p} delivers to non-member 0x{to[0]:016x} port {to[1]}"
                    break
                reached[to] = reached.get(to, 0) + 1
                if to == sender or reached[to] > 1:
                    err = f"switch 0x{sw:016x} port {p} delivers a second copy to 0x{to[0]:016x} port {to[1]}"
                    break
        if err is None:
            missing = sorted(m for m in members if m != sender and m not in reached)
            if missing:
                err = f"never reaches 0x{missing[0][0]:016x} port {missing[0][1]} ({len(missing)} members missed)"
        if err is not None:
            errors.append(f"MLID 0x{mlid:04x}: from 0x{node:016x} port {port}: {err}")
    return errors


def link_load(nodes, tables):
    """-> (max groups on one switch-to-switch cable, cables used, cables in the fabric)."""
    load = {}
    cables = set()
    for sw, node in nodes.items():
        if not node['sw']:
            continue
        for p, (peer, pp) in node['ports'].items():
            if nodes[peer]['sw']:
                cables.add(frozenset([(sw, p), (peer, pp)]))
    per_mlid = {}
    for sw, entries in tables.items():
        for mlid, ports in entries.items():
            for p in ports:
                if p == 0 or p not in nodes[sw]['ports']:
                    continue
                peer, pp = nodes[sw]['ports'][p]
                if nodes[peer]['sw']:
                    per_mlid.setdefault(mlid, set()).add(frozenset([(sw, p), (peer, pp)]))
    for used in per_mlid.values():
        for c in used:
            load[c] = load.get(c, 0) + 1
    return (max(load.values()) if load else 0), len(load), len(cables)


def run(cmd, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit(f"check_mft: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--netdiscover', help='ibnetdiscover output')
    ap.add_argument('--mft', help='ibroute -M output of every switch, concatenated')
    ap.add_argument('--groups', help="'MLID PORTGUID...' lines; default: members read off the tables")
    ap.add_argument('--live', action='store_true', help='run ibnetdiscover and ibroute -M here')
    ap.add_argument('--expect-groups', type=int, help='fail unless exactly this many MLIDs have entries')
    args = ap.parse_args()
    if args.live:
        net = run(['ibnetdiscover'])
        nodes = parse_netdiscover(net)
        mft = ''.join(run(['ibroute', '-M', str(n['lid'])]) for n in nodes.values() if n['sw'])
    else:
        if not args.netdiscover or not args.mft:
            ap.error('--netdiscover and --mft, or --live')
        nodes = parse_netdiscover(open(args.netdiscover).read())
        mft = open(args.mft).read()
    tables = parse_mft(mft)
    for sw in tables:
        if sw not in nodes:
            raise SystemExit(f"check_mft: MFT of switch 0x{sw:016x}, which ibnetdiscover did not find")
    mlids = sorted({m for entries in tables.values() for m in entries})
    groups = parse_groups(open(args.groups).read()) if args.groups else {m: members_from_tables(nodes, tables, m) for m in mlids}
    errors = []
    for mlid in sorted(groups):
        errors += check_group(nodes, tables, mlid, groups[mlid])
    for mlid in mlids:
        if mlid not in groups:
            errors.append(f"MLID 0x{mlid:04x}: entries on switches but not one of the groups")
    if args.expect_groups is not None and len(mlids) != args.expect_groups:
        errors.append(f"{len(mlids)} MLIDs have entries, expected {args.expect_groups}")
    worst, used, total = link_load(nodes, tables)
    print(f"check_mft: {len(groups)} groups, {len(mlids)} MLIDs with entries, "
          f"max groups per link {worst} ({used} of {total} switch links used)")
    for e in errors[:20]:
        print(e, file=sys.stderr)
    if errors:
        print(f"check_mft: {len(errors)} problems", file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
