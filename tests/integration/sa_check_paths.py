#!/usr/bin/env python3
"""PathRecords between CA ports, checked against the routes the switches hold (not what the SM says).

Expected values come from infiniband-diags only: the topology from ibnetdiscover, every switch's LFT from
ibroute (smpdump for the entries ibroute leaves out), and each port's MTUCap and active width/speed from
smpquery portinfo, asked once per port on some walked path. For each ordered pair (src, dst):
  * the record exists (status 0) with SLID = src's LID and DLID = dst's LID (and SGID/DGID = the ports'
    GIDs when the source gives them),
  * the path walked through the read-back LFTs from src delivers to dst,
  * MTU = the minimum MTUCap over every port of that walk (src, each switch ingress and egress, dst),
  * rate = the slowest port's rate on it (width x lane speed; IBA rate codes are not ordered by speed),
  * selectors, when given, are 2 ("exactly").

The records are JSON lines {"slid":..,"dlid":..,"status":..,"mtu":..,"rate":..} (optional "mtu_sel",
"rate_sel", "sgid", "dgid", "reversible"), read from --records FILE (written by any client, e.g. a
multi-pair sa_client), or, without --records, fetched here with one `saquery -p --src-to-dst S:D` per pair
(and written to --save FILE). --list-pairs prints the pairs ("SLID DLID" lines) and exits.

Run under the shim (sa_common.sh: sa_check paths). Exit 0 when every check holds.
"""
import argparse
import ipaddress
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fabric  # noqa: E402  (ibnetdiscover / ibroute parsers, raw LFT blocks)
from sa_diags import RETRIES, must, parse_fields, saquery  # noqa: E402

MTU_CODE = {256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}
# IBA rate code of each data rate in Gb/s (PortInfo/PathRecord "Rate"; not monotonic in the code).
RATE_CODE = {2.5: 2, 10: 3, 30: 4, 5: 5, 20: 6, 40: 7, 60: 8, 80: 9, 120: 10, 14: 11, 56: 12, 112: 13, 168: 14,
             25: 15, 100: 16, 200: 17, 300: 18, 28: 19, 50: 20, 400: 21, 600: 22, 800: 23}
GBPS = {v: k for k, v in RATE_CODE.items()}
# Lane speed as PortInfo shows it -> nominal Gb/s per lane (FDR 14.0625 -> 14, EDR 25.78125 -> 25, ...).
LANE = {2.5: 2.5, 5.0: 5, 10.0: 10, 14.0625: 14, 25.78125: 25, 53.125: 50, 106.25: 100}


def port_guids(text):
    """(CA id, port) -> port GUID, from ibnetdiscover's "[p](guid)" CA port lines."""
    out, cur = {}, None
    for line in text.splitlines():
        m = check_fabric.CA_HDR.match(line)
        if m:
            cur = m.group(3)
            continue
        if line.startswith('Switch'):
            cur = None
        m = re.match(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)', line)
        if m and cur:
            out[(cur, int(m.group(1)))] = int(m.group(2), 16)
    return out


def pairs_of(ends, per_ca):
    """Ordered (src, dst) pairs of the CA ports `ends` (in GUID order, which is cabling order in the
    generated fabrics): all of them, or per_ca partners per source at geometric offsets 1, (n-1)^(1/k),
    (n-1)^(2/k), ...: on kary4-3 (k = 3) +1, +4, +16, i.e. mostly the same leaf, the same pod, another pod."""
    n = len(ends)
    if per_ca is None or per_ca >= n - 1:
        return [(a, b) for a in ends for b in ends if a != b]
    out = []
    for i, a in enumerate(ends):
        partners = []
        for j in range(per_ca):
            k = (i + max(1, round((n - 1) ** (j / per_ca)))) % n
            while ends[k] == a or ends[k] in partners:
                k = (k + 1) % n
            partners.append(ends[k])
        out += [(a, b) for b in partners]
    return out


class Ports:
    """PortInfo of (lid, port), read once each with smpquery."""

    def __init__(self):
        self.cache = {}

    def get(self, lid, port):
        key = (lid, port)
        if key not in self.cache:
            f = parse_fields(must(['smpquery', 'portinfo', str(lid), str(port)]))
            mtu = MTU_CODE.get(int(f.get('MtuCap', '0').split()[0]))
            width = int(re.match(r'(\d+)X', f.get('LinkWidthActive', '')).group(1))
            ext = re.match(r'([\d.]+) Gbps', f.get('LinkSpeedExtActive', ''))
            lane = float((ext or re.match(r'([\d.]+) Gbps', f.get('LinkSpeedActive', ''))).group(1))
            gbps = width * LANE[lane]
            if mtu is None or gbps not in RATE_CODE:
                raise SystemExit(f"portinfo {lid}/{port}: MtuCap {f.get('MtuCap')!r}, {width}X at {lane} Gb/s: no code")
            self.cache[key] = (mtu, RATE_CODE[gbps])
        return self.cache[key]


def saquery_record(slid, dlid):
    st, recs = saquery('-p', '--src-to-dst', f"{slid}:{dlid}")
    if st != 0 or not recs:
        return {'slid': slid, 'dlid': dlid, 'status': st if recs or st != 0 else 0x0300}
    r = recs[0]
    mtu, rate = int(r['mtu'], 16), int(r['rate'], 16)
    return {'slid': int(r['slid']), 'dlid': int(r['dlid']), 'status': 0, 'mtu': mtu & 0x3F, 'mtu_sel': mtu >> 6,
            'rate': rate & 0x3F, 'rate_sel': rate >> 6, 'sgid': r.get('sgid'), 'dgid': r.get('dgid'),
            'reversible': int(r.get('num_path_revers', '0'), 16) >> 7, 'records': len(recs)}


def normalize(r):
    """A record line from another client: status as a number ("0x0000" -> 0), MTU and rate as the wire byte
    (selector in bits 7:6) split into code and selector."""
    st = r.get('status')
    if isinstance(st, str):
        try:
            r['status'] = int(st, 0)
        except ValueError:
            pass
    for key in ('mtu', 'rate'):
        v = r.get(key)
        if isinstance(v, int) and v > 0x3F:
            r[key] = v & 0x3F
            r[key + '_sel'] = v >> 6
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--per-ca', type=int, help='partners per source CA port (default: every other CA port)')
    ap.add_argument('--records', help='JSON-lines PathRecords to check (default: query with saquery)')
    ap.add_argument('--save', help='write the saquery records here as JSON lines')
    ap.add_argument('--list-pairs', action='store_true', help="print the pairs as 'SLID DLID' and exit")
    ap.add_argument('--expect-cas', type=int)
    args = ap.parse_args()

    text = must(['ibnetdiscover'], 60)
    nodes = check_fabric.parse_netdiscover(text)
    guids = port_guids(text)
    switches = {k: v for k, v in nodes.items() if v['type'] == 'sw'}
    ends = sorted((n['port_lids'][p][0], name, p) for name, n in nodes.items() if n['type'] == 'ca'
                  for p in n['port_lids'])
    if args.expect_cas is not None and len({e[1] for e in ends}) != args.expect_cas:
        raise SystemExit(f"ibnetdiscover sees {len({e[1] for e in ends})} CAs, expected {args.expect_cas}")
    end_of = {lid: (name, p) for lid, name, p in ends}
    pairs = pairs_of([lid for lid, name, p in sorted(ends, key=lambda e: guids.get((e[1], e[2]), 0))], args.per_ca)
    if args.list_pairs:
        for s, d in pairs:
            print(s, d)
        return 0

    # The LFTs, read back.
    max_lid = max(max(end_of), max(n['lid'] for n in switches.values()))
    lfts = {}
    for name, n in switches.items():
        lft = check_fabric.parse_ibroute(check_fabric.run(['ibroute', '-a', '-n', str(n['lid']), '1',
                                                           str(max_lid + 1)], 60))
        for block in sorted({lid // 64 for lid in end_of if lid not in lft}):
            for i, port in enumerate(check_fabric.smpdump_block(n['lid'], block, 10)):
                lft.setdefault(block * 64 + i, port)
        lfts[name] = lft

    def lid_of(name, port):
        return nodes[name]['lid'] if nodes[name]['type'] == 'sw' else nodes[name]['port_lids'][port][0]

    def walk(slid, dlid):
        """[(lid, port)] of every port on the routed path, or an error string."""
        name, port = end_of[slid]
        hops = [(slid, port)]
        sw, inp = nodes[name]['ports'][port]
        for _ in range(len(switches) + 1):
            if nodes[sw]['type'] == 'ca':
                if (sw, inp) != end_of[dlid]:
                    return f"delivered to {sw}[{inp}], not {end_of[dlid]}"
                return hops + [(dlid, inp)]
            out = lfts[sw].get(dlid, 255)
            if out in (0, 255) or out not in nodes[sw]['ports']:
                return f"switch {sw} LFT[{dlid}] = {out}: dropped"
            hops += [(nodes[sw]['lid'], inp), (nodes[sw]['lid'], out)]
            sw, inp = nodes[sw]['ports'][out]
        return "loop"

    # The records.
    if args.records:
        with open(args.records) as f:
            recs = [normalize(json.loads(line)) for line in f if line.strip()]
    else:
        recs = [saquery_record(s, d) for s, d in pairs]
        if args.save:
            with open(args.save, 'w') as f:
                for r in recs:
                    f.write(json.dumps(r) + '\n')
    by_pair = {}
    errors, extra = [], 0
    for r in recs:
        key = (r.get('slid'), r.get('dlid'))
        if key in by_pair or key not in set(pairs):
            extra += 1
            continue
        by_pair[key] = r

    ports = Ports()
    good = 0
    for slid, dlid in pairs:
        r = by_pair.get((slid, dlid))
        what = f"path {slid}->{dlid} ({end_of[slid][0]} -> {end_of[dlid][0]})"
        if r is None:
            errors.append(f"{what}: no record with SLID {slid} DLID {dlid}")
            continue
        if r.get('status') != 0:
            st = r.get('status')
            errors.append(f"{what}: status {hex(st) if isinstance(st, int) else st}")
            continue
        path = walk(slid, dlid)
        if isinstance(path, str):
            errors.append(f"{what}: the LFTs do not deliver: {path}")
            continue
        props = [ports.get(lid, port) for lid, port in path]
        want_mtu = min(m for m, _ in props)
        want_rate = RATE_CODE[min(GBPS[rc] for _, rc in props)]
        bad = []
        if r.get('mtu') != want_mtu:
            bad.append(f"MTU {r.get('mtu')}, want {want_mtu} (min MTUCap over {len(path)} ports)")
        if r.get('rate') != want_rate:
            bad.append(f"rate {r.get('rate')}, want {want_rate} ({GBPS[want_rate]} Gb/s)")
        for sel in ('mtu_sel', 'rate_sel'):
            if sel in r and r[sel] != 2:
                bad.append(f"{sel} {r[sel]}, want 2 (exactly)")
        for gid, lid in (('sgid', slid), ('dgid', dlid)):
            if r.get(gid):
                guid = int(ipaddress.IPv6Address(r[gid])) & ((1 << 64) - 1)
                if guid != guids.get(end_of[lid]):
                    bad.append(f"{gid} {r[gid]}, port GUID {hex(guids.get(end_of[lid], 0))}")
        if 'reversible' in r and r['reversible'] != 1:
            bad.append("not reversible")
        if bad:
            errors.append(f"{what}: " + '; '.join(bad))
        else:
            good += 1
    if extra:
        errors.append(f"{extra} records not asked for (or repeated)")
    print(f"sa_check_paths: {good}/{len(pairs)} PathRecords right ({len(ends)} CA ports, {len(ports.cache)} ports "
          f"read, {len(lfts)} LFTs)")
    for e in errors[:40]:
        print(f"sa_check_paths: FAIL: {e}", file=sys.stderr)
    if len(errors) > 40:
        print(f"sa_check_paths: ... {len(errors)} failures in all", file=sys.stderr)
    if RETRIES['count']:
        print(f"sa_check_paths: {RETRIES['count']} queries sent again after no answer (last: {RETRIES['last']})")
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
