#!/usr/bin/env python3
"""Independent check of the P_Key tables an SM programmed, read back with infiniband-diags.

Reads the fabric with ibnetdiscover, computes the tables a partition spec (JSON, below) asks for on a
fabric programmed once from empty tables, and compares them with `smpquery pkeys` on every CA port,
every switch port 0 and every switch port facing a CA. Written from IBA 10.9 and OpenSM's
partition-config.txt, not from smd's planner.

Spec: {"sm_port_guid": "0x..." or "sm_desc": "host-0", "allow_both": false,
       "partitions": [{"pkey": "0x7fff", "index0": false, "default": "limited",
                       "members": [["ALL", "full"], ["0x0002c9...", "limited"], ["ALL_CAS", null], ["SELF", "full"]]}]}
The default partition 0x7fff with SELF=full is added as OpenSM does when the spec lacks them.
"""
import json
import re
import subprocess
import sys

SW_HDR = re.compile(r'^Switch\s+(\d+)\s+"([^"]+)".*#.*?base port 0 lid (\d+)')
CA_HDR = re.compile(r'^Ca\s+(\d+)\s+"([^"]+)"')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)\s+"([^"]+)"\[(\d+)\].*#\s*lid (\d+)')


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit(f"check_pkeys: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout


def fabric():
    switches, cas, cur = {}, {}, None
    for line in run(['ibnetdiscover']).splitlines():
        m = SW_HDR.match(line)
        if m:
            cur = ('sw', m.group(2))
            guid = int(m.group(2).split('-')[-1], 16)
            switches[m.group(2)] = dict(guid=guid, lid=int(m.group(3)), ports={})
            continue
        m = CA_HDR.match(line)
        if m:
            cur = ('ca', m.group(2))
            d = re.search(r'#\s*"([^"]*)"', line)
            cas[m.group(2)] = dict(ports={}, desc=d.group(1) if d else '')
            continue
        if cur is None:
            continue
        if cur[0] == 'ca':
            m = CA_PORT.match(line)
            if m:
                cas[cur[1]]['ports'][int(m.group(1))] = dict(
                    guid=int(m.group(2), 16), peer=m.group(3), peer_port=int(m.group(4)), lid=int(m.group(5)))
        else:
            m = SW_PORT.match(line)
            if m:
                switches[cur[1]]['ports'][int(m.group(1))] = (m.group(2), int(m.group(3)))
    return switches, cas


def with_default(spec):
    parts = spec['partitions']
    default = next((p for p in parts if int(p['pkey'], 16) == 0x7fff), None)
    if default is None:
        default = dict(pkey='0x7fff', index0=False, members=[['ALL', 'limited']])
        parts.insert(0, default)
    if not any(m[0] == 'SELF' and (m[1] or default.get('default', 'limited')) != 'limited' for m in default['members']):
        default['members'].append(['SELF', 'full'])
    return spec


def entries(spec, port_guid, is_switch, is_self):
    """(entries in partition order, the index-0 entry)"""
    out, index0, default_entry = [], None, None
    for part in spec['partitions']:
        base = int(part['pkey'], 16) & 0x7fff
        full = limited = False
        for sel, membership in part['members']:
            hit = (sel == 'ALL' or (sel == 'ALL_CAS' and not is_switch) or (sel == 'ALL_SWITCHES' and is_switch)
                   or (sel == 'SELF' and is_self) or (sel.startswith('0x') and int(sel, 16) == port_guid))
            if not hit:
                continue
            m = membership or part.get('default', 'limited')
            full = full or m in ('full', 'both')
            limited = limited or m == 'limited' or (m == 'both' and spec.get('allow_both', False))
        if full and not spec.get('allow_both', False):
            limited = False
        add = ([base | 0x8000] if full else []) + ([base] if limited else [])
        out += [k for k in add if k not in out]
        if add and part.get('index0') and index0 is None:
            index0 = add[0]
        if add and base == 0x7fff and default_entry is None:
            default_entry = add[0]
    return out, index0 if index0 is not None else default_entry


def layout(keys, pin0):
    table = []
    if pin0 is not None:
        table.append(pin0)
    table += [k for k in keys if k != pin0]
    return table


def read_pkeys(lid, port=None):
    cmd = ['smpquery', 'pkeys', str(lid)] + ([str(port)] if port is not None else [])
    values = []
    for line in run(cmd).splitlines():
        m = re.match(r'^\s*\d+:\s+(.*)$', line)
        if m:
            values += [int(v, 16) for v in m.group(1).split()]
    while values and values[-1] == 0:
        values.pop()
    return values


def main():
    spec = with_default(json.load(open(sys.argv[1])))
    switches, cas = fabric()
    sm_guid = int(spec.get('sm_port_guid', '0'), 16)
    for ca in cas.values():  # "sm_desc": the SM sits on port 1 of the CA with this NodeDescription
        if spec.get('sm_desc') and ca['desc'] == spec['sm_desc'] and 1 in ca['ports']:
            sm_guid = ca['ports'][1]['guid']
    failures, checked = [], 0

    def expect(what, got, want):
        nonlocal checked
        checked += 1
        if got != want:
            failures.append(f"{what}: holds {[hex(k) for k in got]}, expected {[hex(k) for k in want]}")

    held = {}
    for name, ca in cas.items():
        for p, port in ca['ports'].items():
            keys, pin0 = entries(spec, port['guid'], False, port['guid'] == sm_guid)
            table = layout(keys, pin0)
            held[(port['peer'], port['peer_port'])] = keys
            expect(f"CA {name} port {p} (LID {port['lid']})", read_pkeys(port['lid']), table)
    for name, sw in switches.items():
        keys, pin0 = entries(spec, sw['guid'], True, sw['guid'] == sm_guid)
        expect(f"switch {name} port 0", read_pkeys(sw['lid']), layout(keys, pin0)[:8])
        for p in sw['ports']:
            if (name, p) not in held:
                continue
            ca_keys = held[(name, p)]
            copy = [k for k in ca_keys if k & 0x8000 or (k | 0x8000) not in ca_keys]
            expect(f"switch {name} port {p} (facing a CA)", read_pkeys(sw['lid'], p), copy)
    for f in failures:
        print("FAIL:", f)
    if failures:
        raise SystemExit(1)
    print(f"check_pkeys: {checked} P_Key tables as the policy asks")


if __name__ == '__main__':
    main()
