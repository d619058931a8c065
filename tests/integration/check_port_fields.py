#!/usr/bin/env python3
"""Reads the SM-owned PortInfo and SwitchInfo fields of every port with infiniband-diags, and checks them.

Reads the fabric with ibnetdiscover, then `smpquery portinfo` of every CA port, every switch port 0 and every
cabled switch port, and `smpquery switchinfo` of every switch. Written from IBA 14.2.5.6 / 14.2.5.4 and
OpenSM's documented options, not from smd's planner:
  - a switch port whose peer is a CA is a "leaf" port: HoqLife = leaf_head_of_queue_lifetime; a switch port
    facing a switch: head_of_queue_lifetime; CA ports and switch port 0 get none (ibsim leaves 0);
  - SwitchInfo LifeTime = packet_life_time on every switch.
Those two are what ibsim stores; the other fields (VLStallCount, SubnetTimeout, SMSL, LocalPhysErr,
OverrunErr, the link enables) ibsim answers from its port templates whatever an SM writes, so they are
dumped (for --compare) but not checked against the policy.

usage: check_port_fields.py --hoq H --leaf-hoq L --life-time T [--dump FILE] [--compare FILE]
  --dump FILE     write every port's fields as JSON (keyed by node description and port)
  --compare FILE  every field of every port must equal FILE's (a dump of another SM's run)
"""
import argparse
import collections
import json
import re
import subprocess
import sys

SW_HDR = re.compile(r'^Switch\s+(\d+)\s+"([^"]+)".*#\s*"([^"]*)".*base port 0 lid (\d+)')
CA_HDR = re.compile(r'^Ca\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"')
SW_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
CA_PORT = re.compile(r'^\[(\d+)\]\(([0-9a-fA-F]+)\)\s+"([^"]+)"\[(\d+)\].*#\s*lid (\d+)')
PORT_FIELDS = ['HoqLife', 'VLStallCount', 'SubnetTimeout', 'SMSL', 'LocalPhysErr', 'OverrunErr', 'LinkWidthEnabled',
               'LinkSpeedEnabled', 'LinkSpeedExtEnabled']


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit(f"check_port_fields: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout


def fields(cmd):
    out = {}
    for line in run(cmd).splitlines():
        m = re.match(r'^(\w+):\.+(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def fabric():
    """guid -> {kind, desc, lid (switch), ports {n: {peer_guid, lid (CA)}}}"""
    nodes, cur = {}, None
    for line in run(['ibnetdiscover']).splitlines():
        m = SW_HDR.match(line)
        if m:
            cur = m.group(2)
            nodes[cur] = dict(kind='sw', desc=m.group(3), lid=int(m.group(4)), ports={})
            continue
        m = CA_HDR.match(line)
        if m:
            cur = m.group(2)
            nodes[cur] = dict(kind='ca', desc=m.group(3), ports={})
            continue
        if cur is None:
            continue
        if nodes[cur]['kind'] == 'ca':
            m = CA_PORT.match(line)
            if m:
                nodes[cur]['ports'][int(m.group(1))] = dict(peer=m.group(3), lid=int(m.group(5)))
        else:
            m = SW_PORT.match(line)
            if m:
                nodes[cur]['ports'][int(m.group(1))] = dict(peer=m.group(2))
    return nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hoq', type=lambda v: int(v, 0), required=True)
    ap.add_argument('--leaf-hoq', type=lambda v: int(v, 0), required=True)
    ap.add_argument('--life-time', type=lambda v: int(v, 0), required=True)
    ap.add_argument('--dump')
    ap.add_argument('--compare')
    a = ap.parse_args()
    nodes = fabric()
    got, errors = {}, []
    hoq_counts = collections.Counter()
    for guid, node in sorted(nodes.items()):
        if node['kind'] == 'sw':
            life = int(fields(['smpquery', 'switchinfo', str(node['lid'])])['LifeTime'])
            got[f"{node['desc']} SwitchInfo"] = {'LifeTime': life}
            if life != a.life_time:
                errors.append(f"{node['desc']}: SwitchInfo LifeTime {life}, expected {a.life_time}")
            ports = [0] + sorted(node['ports'])
        else:
            ports = sorted(node['ports'])
        for p in ports:
            lid = node['lid'] if node['kind'] == 'sw' else node['ports'][p]['lid']
            pi = fields(['smpquery', 'portinfo', str(lid), str(p)])
            got[f"{node['desc']} port {p}"] = {k: pi.get(k) for k in PORT_FIELDS}
            hoq = int(pi['HoqLife'])
            hoq_counts[hoq] += 1
            if node['kind'] == 'sw' and p != 0:
                peer = nodes.get(node['ports'][p]['peer'])
                if peer is None:
                    errors.append(f"{node['desc']} port {p}: peer {node['ports'][p]['peer']} not discovered")
                    continue
                want = a.leaf_hoq if peer['kind'] == 'ca' else a.hoq
            else:
                want = 0  # CA ports and switch port 0: no SM writes HOQLife there; ibsim starts at 0
            if hoq != want:
                errors.append(f"{node['desc']} port {p}: HoqLife {hoq}, expected {want}")
    print(f"check_port_fields: {len(got)} records; HoqLife values: "
          + ", ".join(f"{v}: {n} ports" for v, n in sorted(hoq_counts.items())))
    if a.dump:
        with open(a.dump, 'w') as f:
            json.dump(got, f, indent=1, sort_keys=True)
    if a.compare:
        with open(a.compare) as f:
            other = json.load(f)
        if set(other) != set(got):
            errors.append(f"compare: records differ: {sorted(set(other) ^ set(got))[:5]}")
        for key in sorted(set(other) & set(got)):
            for field, value in got[key].items():
                if other[key].get(field) != value:
                    errors.append(f"compare: {key} {field}: {value} here, {other[key].get(field)} in {a.compare}")
    for e in errors[:30]:
        print(e, file=sys.stderr)
    if errors:
        print(f"check_port_fields: {len(errors)} mismatches", file=sys.stderr)
        return 1
    print("check_port_fields: OK")
    return 0


if __name__ == '__main__':
    sys.exit(main())
