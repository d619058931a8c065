#!/usr/bin/env python3
"""Judge smd's OpenSM-format dumps (`smctl dump`) by infiniband-diags, and hold OpenSM's own dumps of the
same fabric to the same parser (tests/integration/opensm_dump_parser.py).

  check_opensm_dumps.py --opensm DIR --smd DIR [--live --sm-node DESC] [--mlid-members MLID=GUID,GUID...]
                        [--plan-lfts FILE]

DIR holds opensm-lfts.dump, opensm-subnet.lst, opensm.mcfdbs and opensm-sl2vl.dump. Both sets must parse.
With --live (run under the umad2sim shim), smd's set is compared with what the switches and ports hold:
  lfts    every switch of ibnetdiscover, every LID 1..top: ibroute (smpdump for the top entry, which ibroute
          never prints); each row's destination is the port ibnetdiscover gives that LID
  mcfdbs  every switch's MFT by ibroute -M (a switch absent from the file holds no MLID); --mlid-members
          names ports that must be reached (their switch port is in the MLID's mask)
  sl2vl   smpquery sl2vl for every out port of two switches and for two CA ports, row by row
  subnet  one line per cabled port, both ends as ibnetdiscover cables them, LIDs as it reads them; -SM only
          on --sm-node; for two switches and two CAs every NodeInfo field against smpquery nodeinfo, and
          PHY/LOG/SPD against smpquery portinfo
--plan-lfts (an opensm-lfts.dump that `smd plan --opensm-lfts` wrote) must parse and hold the same tables as
smd's lfts. Exit 0 when everything agrees; otherwise every disagreement is printed.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fabric  # noqa: E402
import check_mft  # noqa: E402
from opensm_dump_parser import DumpError, parse_file  # noqa: E402

FILES = ('opensm-lfts.dump', 'opensm-subnet.lst', 'opensm.mcfdbs', 'opensm-sl2vl.dump')


def run(cmd, timeout=60):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit(f"check_opensm_dumps: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout


def fields(text):
    """smpquery's 'Name:.....value' lines -> {Name: value}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'^(\w+):\.+(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def load(d):
    parsed = {}
    for f in FILES:
        try:
            parsed[f] = parse_file(os.path.join(d, f))
        except DumpError as e:
            raise SystemExit(f"check_opensm_dumps: {e}")
        except OSError as e:
            raise SystemExit(f"check_opensm_dumps: {e}")
    return parsed


class Fabric:
    """ibnetdiscover's view: node GUID -> type, ports (peer GUID, peer port), port GUIDs, LIDs."""

    def __init__(self):
        text = run(['ibnetdiscover'], 120)
        self.nodes = check_mft.parse_netdiscover(text)
        by_id = check_fabric.parse_netdiscover(text)
        self.lid = {}    # (node guid, port) -> LID; switch port 0
        self.desc = {}
        for ident, node in by_id.items():
            guid = int(ident.split('-', 1)[1], 16)
            self.desc[guid] = node['desc']
            if node['type'] == 'sw':
                self.lid[(guid, 0)] = node['lid']
            for p, (lid, _lmc) in node['port_lids'].items():
                self.lid[(guid, p)] = lid
        self.owner = {}       # LID -> port GUID
        self.owner_desc = {}  # LID -> its node's description
        for (guid, p), lid in self.lid.items():
            self.owner[lid] = guid if p == 0 else self.nodes[guid]['port_guids'][p]
            self.owner_desc[lid] = self.desc[guid]
        self.switches = sorted(g for g, n in self.nodes.items() if n['sw'])
        self.cas = sorted(g for g, n in self.nodes.items() if not n['sw'])

    def lid_of(self, guid):
        """A node's LID the way the dumps name it: switch port 0, else its first port."""
        if self.nodes[guid]['sw']:
            return self.lid[(guid, 0)]
        return self.lid[(guid, min(self.nodes[guid]['port_guids']))]


def check_lfts(fab, lfts, errors):
    for sw in fab.switches:
        lid = fab.lid[(sw, 0)]
        d = lfts.get(sw)
        if d is None:
            errors.append(f"lfts: switch 0x{sw:016x} missing")
            continue
        if d['lid'] != lid:
            errors.append(f"lfts: switch 0x{sw:016x} header Lid {d['lid']}, ibnetdiscover {lid}")
        top = d['top']
        held = check_fabric.parse_ibroute(run(['ibroute', '-n', str(lid), '1', str(top)]))
        block = check_fabric.smpdump_block(lid, top // 64, 30)
        if block[top % 64] != 0xFF:
            held[top] = block[top % 64]
        want = {l: p for l, p in d['entries'].items() if l >= 1}
        if held != want:
            diff = sorted(set(held.items()) ^ set(want.items()))[:6]
            errors.append(f"lfts: switch 0x{sw:016x} differs from ibroute/smpdump: {diff}")
        for l, dest in d['dest'].items():
            owner = fab.owner.get(l)
            if (dest[1] if dest else None) != owner:
                errors.append(f"lfts: switch 0x{sw:016x} LID {l} annotated {dest}, ibnetdiscover port {owner}")
            elif dest and dest[2] != fab.owner_desc[l]:
                errors.append(f"lfts: switch 0x{sw:016x} LID {l} description {dest[2]!r}, "
                              f"ibnetdiscover {fab.owner_desc[l]!r}")


def check_mcfdbs(fab, mc, members, errors):
    for sw in fab.switches:
        held = check_mft.parse_mft(run(['ibroute', '-M', str(fab.lid[(sw, 0)]), '0xc000', '0xc03f'])).get(sw, {})
        want = mc.get(sw, {})
        if held != want:
            errors.append(f"mcfdbs: switch 0x{sw:016x} file {want}, ibroute -M {held}")
    for mlid, guids in members.items():
        for g in guids:
            hit = False
            for sw in fab.switches:
                for p, (peer, pp) in fab.nodes[sw]['ports'].items():
                    if not fab.nodes[peer]['sw'] and fab.nodes[peer]['port_guids'].get(pp) == g:
                        hit = p in mc.get(sw, {}).get(mlid, set())
            if not hit:
                errors.append(f"mcfdbs: member 0x{g:x} of MLID 0x{mlid:x} not in its switch's mask")


def smp_sl2vl(lid, port):
    rows = {}
    for line in run(['smpquery', 'sl2vl', str(lid), str(port)]).splitlines():
        m = re.match(r'^ports: in\s+(\d+), out\s+(\d+):\s*\|(.*)\|$', line)
        if m:
            rows[(int(m.group(1)), int(m.group(2)))] = [int(v) for v in m.group(3).split('|')]
    return rows


def check_sl2vl(fab, sl, errors):
    for sw in fab.switches[:2]:
        d = sl.get(sw)
        if d is None:
            errors.append(f"sl2vl: switch 0x{sw:016x} missing")
            continue
        for out in sorted(fab.nodes[sw]['ports']):
            held = smp_sl2vl(fab.lid[(sw, 0)], out)
            want = {k: v for k, v in d['rows'].items() if k[1] == out}
            if held != want:
                errors.append(f"sl2vl: switch 0x{sw:016x} out {out}: file {want}, smpquery {held}")
    for ca in fab.cas[:2]:
        p = min(fab.nodes[ca]['port_guids'])
        d = sl.get(fab.nodes[ca]['port_guids'][p])
        held = smp_sl2vl(fab.lid[(ca, p)], p)
        held = {(0, 0): v for v in held.values()}
        if d is None or d['rows'] != held or d['lid'] != fab.lid[(ca, p)]:
            errors.append(f"sl2vl: CA port 0x{fab.nodes[ca]['port_guids'][p]:x}: file {d}, smpquery {held}")


SPEED = {'2.5 Gbps': '2.5', '5.0 Gbps': '5', '10.0 Gbps': '10'}
STATE = {'Active': 'ACT', 'Armed': 'ARM', 'Initialize': 'INI', 'Down': 'DWN'}


def check_subnet(fab, rows, sm_node, errors):
    links = sum(len(n['ports']) for n in fab.nodes.values())
    if len(rows) != links:
        errors.append(f"subnet: {len(rows)} lines, ibnetdiscover has {links} cabled ports")
    seen = {}
    for r in rows:
        a, b = r['a'], r['b']
        seen[(a['node_guid'], a['pn'])] = r
        for side in (a, b):
            g = side['node_guid']
            if g not in fab.nodes:
                errors.append(f"subnet: node 0x{g:x} unknown to ibnetdiscover")
                continue
            if side['lid'] != fab.lid_of(g) and side['lid'] != fab.lid.get((g, side['pn'])):
                errors.append(f"subnet: node 0x{g:x} LID {side['lid']}, ibnetdiscover {fab.lid_of(g)}")
            want_port_guid = g if fab.nodes[g]['sw'] else fab.nodes[g]['port_guids'].get(side['pn'])
            if side['port_guid'] != want_port_guid:
                errors.append(f"subnet: node 0x{g:x} port {side['pn']} PortGUID 0x{side['port_guid']:x}")
            if side['sm'] != (fab.desc[g] == sm_node):
                errors.append(f"subnet: node 0x{g:x} ({fab.desc[g]}) -SM mark {side['sm']}")
            if side['desc'] != fab.desc[g]:
                errors.append(f"subnet: node 0x{g:x} description {side['desc']!r}, ibnetdiscover {fab.desc[g]!r}")
        peer = fab.nodes.get(a['node_guid'], {}).get('ports', {}).get(a['pn'])
        if peer != (b['node_guid'], b['pn']):
            errors.append(f"subnet: 0x{a['node_guid']:x}[{a['pn']}] peer 0x{b['node_guid']:x}[{b['pn']}], "
                          f"ibnetdiscover {peer}")
    for g in fab.switches[:2] + fab.cas[:2]:
        p = min(fab.nodes[g]['ports'])
        r = seen.get((g, p))
        if r is None:
            errors.append(f"subnet: no line for 0x{g:x} port {p}")
            continue
        lid = fab.lid_of(g)
        ni = fields(run(['smpquery', 'nodeinfo', str(lid)]))
        a = r['a']
        want = dict(ports=int(ni['NumPorts']), system_guid=int(ni['SystemGuid'], 16), node_guid=int(ni['Guid'], 16),
                    ven=int(ni['VendorId'], 16), dev=int(ni['DevId'], 16), rev=int(ni['Revision'], 16))
        got = {k: a[k] for k in want}
        if got != want:
            errors.append(f"subnet: 0x{g:x} NodeInfo fields {got}, smpquery nodeinfo {want}")
        pi = fields(run(['smpquery', 'portinfo', str(lid), str(p)]))
        width = pi['LinkWidthActive'].lower()
        spd = SPEED.get(pi['LinkSpeedActive'], '??')
        if (r['phy'], r['log'], r['spd']) != (width, STATE.get(pi['LinkState'], 'DWN'), spd):
            errors.append(f"subnet: 0x{g:x} port {p} PHY/LOG/SPD {r['phy']}/{r['log']}/{r['spd']}, smpquery "
                          f"{width}/{pi['LinkState']}/{pi['LinkSpeedActive']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--opensm', required=True, help="OpenSM's dump directory")
    ap.add_argument('--smd', required=True, help="the files smctl dump wrote")
    ap.add_argument('--live', action='store_true', help='compare smd\'s files with the fabric (under the shim)')
    ap.add_argument('--sm-node', default='', help='description of the node the SM runs on (the only -SM)')
    ap.add_argument('--mlid-members', action='append', default=[], help='MLID=PORTGUID,PORTGUID...')
    ap.add_argument('--plan-lfts', help="smd plan's opensm-lfts.dump: must equal smd's lfts")
    args = ap.parse_args()
    osm = load(args.opensm)
    smd = load(args.smd)
    print("parsed OpenSM's: " + ", ".join(f"{f} {len(osm[f])}" for f in FILES))
    print("parsed smd's:    " + ", ".join(f"{f} {len(smd[f])}" for f in FILES))
    for f in FILES:
        if not osm[f] or not smd[f]:
            raise SystemExit(f"check_opensm_dumps: {f} is empty in one of the sets")
    # The same fabric under two SMs: apart from LIDs (and the SL2VL values and trees each SM chose) the files
    # must list the same things in the same order.
    def no_lids(rows):
        return [(dict(r['a'], lid=0), dict(r['b'], lid=0), r['phy'], r['log'], r['spd']) for r in rows]
    if no_lids(osm['opensm-subnet.lst']) != no_lids(smd['opensm-subnet.lst']):
        raise SystemExit("check_opensm_dumps: opensm-subnet.lst: smd's lines differ from OpenSM's beyond LIDs")
    if list(osm['opensm-lfts.dump']) != list(smd['opensm-lfts.dump']):
        raise SystemExit("check_opensm_dumps: opensm-lfts.dump: not the same switches in the same order")
    shape = lambda d: [(g, e['type'], e['desc'], sorted(e['rows'])) for g, e in d.items()]  # noqa: E731
    if shape(osm['opensm-sl2vl.dump']) != shape(smd['opensm-sl2vl.dump']):
        raise SystemExit("check_opensm_dumps: opensm-sl2vl.dump: not the same ports and (in, out) rows in order")
    print("same nodes, ports, links and order as OpenSM's (subnet.lst equal but for LIDs)")
    if args.plan_lfts:
        try:
            plan = parse_file(args.plan_lfts)
        except (DumpError, OSError) as e:
            raise SystemExit(f"check_opensm_dumps: {e}")
        if plan != smd['opensm-lfts.dump']:
            raise SystemExit("check_opensm_dumps: smd plan's opensm-lfts.dump differs from smctl dump lfts")
        print(f"smd plan --opensm-lfts equals smctl dump lfts ({len(plan)} switches)")
    if not args.live:
        return
    members = {}
    for spec in args.mlid_members:
        mlid, guids = spec.split('=', 1)
        members[int(mlid, 16)] = [int(g, 16) for g in guids.split(',')]
    fab = Fabric()
    errors = []
    check_lfts(fab, smd['opensm-lfts.dump'], errors)
    check_mcfdbs(fab, smd['opensm.mcfdbs'], members, errors)
    check_sl2vl(fab, smd['opensm-sl2vl.dump'], errors)
    check_subnet(fab, smd['opensm-subnet.lst'], args.sm_node, errors)
    for e in errors:
        print("FAIL: " + e)
    if errors:
        sys.exit(1)
    print(f"smd's dumps agree with ibroute, ibroute -M, smpquery sl2vl/nodeinfo/portinfo and ibnetdiscover "
          f"({len(fab.switches)} switches, {len(fab.cas)} CAs)")


if __name__ == '__main__':
    main()
