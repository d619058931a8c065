#!/usr/bin/env python3
"""Independent check of the SL2VL and VLArbitration tables an SM programmed, read back with infiniband-diags.

Reads the fabric with ibnetdiscover, then on every CA port and every switch out port compares
`smpquery sl2vl` (every in-port row), `smpquery vlarb` and PortInfo OperVLs with what a QoS spec (JSON,
written by tests/integration/qos_tables_test.sh) asks for. Written from IBA 14.2.5.8/14.2.5.9 and OpenSM's
qos-config.txt, not from smd's planner:
  - a CA port takes spec "ca", a switch out port 1..N "switch_external" (ibsim's port 0 is a base port 0);
  - a VLArb table is the spec's list cut to the port's VLArbLowCap/HighCap, padded with 0:0 entries;
  - OperVLs = min(VLCap of both ends) capped by the port type's max_vls (as the largest VLCap code fitting).
With "enabled": false every table must still hold ibsim's defaults (SL i -> VL i, SL15 -> VL7; low 0:0
1..7:4; high 0:4 1..7:0) and OperVLs is min(VLCap).

usage: check_qos.py SPEC.json
"""
import json
import re
import subprocess
import sys

SW_HDR = re.compile(r'^Switch\s+(\d+)\s+"([^"]+)".*#.*?base port 0 lid (\d+)')
CA_HDR = re.compile(r'^Ca\s+(\d+)\s+"([^"]+)"')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)\s+"([^"]+)"\[(\d+)\].*#\s*lid (\d+)')
SL2VL_ROW = re.compile(r'in\s+(\d+),\s*out\s+(\d+):\s*\|(.*)\|')
DATA_VLS = {1: 1, 2: 2, 3: 4, 4: 8, 5: 15}
VLCAP_NAMES = {'VL0': 1, 'VL0-1': 2, 'VL0-3': 3, 'VL0-7': 4, 'VL0-14': 5}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit(f"check_qos: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout


def fabric():
    """switches {name: {lid, ports {n: (peer, peer_port)}}}, cas {name: {ports {n: {lid, peer, peer_port}}}}"""
    switches, cas, cur = {}, {}, None
    for line in run(['ibnetdiscover']).splitlines():
        m = SW_HDR.match(line)
        if m:
            cur = ('sw', m.group(2))
            switches[m.group(2)] = dict(lid=int(m.group(3)), nports=int(m.group(1)), ports={})
            continue
        m = CA_HDR.match(line)
        if m:
            cur = ('ca', m.group(2))
            cas[m.group(2)] = dict(ports={})
            continue
        if cur is None:
            continue
        if cur[0] == 'ca':
            m = CA_PORT.match(line)
            if m:
                cas[cur[1]]['ports'][int(m.group(1))] = dict(peer=m.group(3), peer_port=int(m.group(4)),
                                                             lid=int(m.group(5)))
        else:
            m = SW_PORT.match(line)
            if m:
                switches[cur[1]]['ports'][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return switches, cas


def portinfo(lid, port):
    out = {}
    for line in run(['smpquery', 'portinfo', str(lid), str(port)]).splitlines():
        m = re.match(r'^(\w+):\.+(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def sl2vl_rows(lid, port):
    """{(in, out): [16 VLs]} as smpquery prints them."""
    rows = {}
    for line in run(['smpquery', 'sl2vl', str(lid), str(port)]).splitlines():
        m = SL2VL_ROW.search(line)
        if m:
            rows[(int(m.group(1)), int(m.group(2)))] = [int(v) for v in m.group(3).split('|')]
    if not rows:
        raise SystemExit(f"check_qos: no SL2VL rows from smpquery sl2vl {lid} {port}")
    return rows


def vlarb(lid, port):
    """{'low': [(vl, weight)], 'high': [...]} as smpquery prints them."""
    tables, cur, vls = {'low': [], 'high': []}, None, []
    for line in run(['smpquery', 'vlarb', str(lid), str(port)]).splitlines():
        low = line.lower()
        if 'low priority' in low:
            cur = 'low'
        elif 'high priority' in low:
            cur = 'high'
        elif cur and low.startswith('vl'):
            vls = [int(v, 0) for v in line.split(':', 1)[1].split('|') if v.strip()]
        elif cur and low.startswith('weight'):
            ws = [int(v, 0) for v in line.split(':', 1)[1].split('|') if v.strip()]
            tables[cur] += list(zip(vls, ws))
    return tables


def want_vlarb(entries, cap):
    table = [tuple(e) for e in entries[:cap]]
    return table + [(0, 0)] * (cap - len(table))


def code_for(max_vls):
    return max(c for c, n in DATA_VLS.items() if n <= max(max_vls, 1))


def main():
    spec = json.load(open(sys.argv[1]))
    on = spec['enabled']
    default_sl2vl = list(range(15)) + [7]
    default_low = [(0, 0)] + [(vl, 4) for vl in range(1, 8)]
    default_high = [(0, 4)] + [(vl, 0) for vl in range(1, 8)]
    switches, cas = fabric()
    bad, checked = [], 0

    # (lid, port, port-type spec name, lid and port of the peer)
    ports = []
    for name, sw in switches.items():
        for p, (peer, peer_port) in sw['ports'].items():
            ports.append((name, sw['lid'], p, 'switch_external', peer, peer_port, True))
    for name, ca in cas.items():
        for p, info in ca['ports'].items():
            ports.append((name, info['lid'], p, 'ca', info['peer'], info['peer_port'], False))

    def lid_of(node, port):
        if node in switches:
            return switches[node]['lid'], port
        return cas[node]['ports'][port]['lid'], port

    for name, lid, p, kind, peer, peer_port, is_switch in ports:
        pspec = spec[kind]
        pi = portinfo(lid, p)
        ppi = portinfo(*lid_of(peer, peer_port))
        vl_cap = min(VLCAP_NAMES[pi['VLCap']], VLCAP_NAMES[ppi['VLCap']])
        want_op = min(vl_cap, code_for(pspec['max_vls'])) if on else vl_cap
        if VLCAP_NAMES.get(pi['OperVLs']) != want_op:
            bad.append(f"{name} port {p}: OperVLs {pi['OperVLs']}, want code {want_op}")
        # SL2VL: every in-port row of this out port.
        want_sl2vl = pspec['sl2vl'] if on else default_sl2vl
        rows = sl2vl_rows(lid, p)
        for (i, o), vls in sorted(rows.items()):
            if vls != want_sl2vl:
                bad.append(f"{name} sl2vl in {i} out {o}: {vls}, want {want_sl2vl}")
        checked += len(rows)
        # VLArb, cut to the caps the port reports.
        low_cap, high_cap = int(pi['VLArbLowCap']), int(pi['VLArbHighCap'])
        got = vlarb(lid, p)
        want_low = want_vlarb(pspec['vlarb_low'], low_cap) if on else default_low[:low_cap]
        want_high = want_vlarb(pspec['vlarb_high'], high_cap) if on else default_high[:high_cap]
        if got['low'][:low_cap] != want_low:
            bad.append(f"{name} port {p} vlarb low {got['low']}, want {want_low}")
        if got['high'][:high_cap] != want_high:
            bad.append(f"{name} port {p} vlarb high {got['high']}, want {want_high}")
        checked += 2
    for b in bad:
        print("MISMATCH:", b)
    print(f"check_qos: {len(ports)} ports, {checked} tables compared, {len(bad)} mismatches (qos {'on' if on else 'off'})")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
