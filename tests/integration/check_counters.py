#!/usr/bin/env python3
"""Independent witness of smd's PerfMgr: every port `smctl counters --json` lists, read again with perfquery
(infiniband-diags, no smd code), must show the same error counters.

    check_counters.py COUNTERS_JSON [--expect-ports N]

Run it under the umad2sim shim against a live ibsim while nothing changes the error counters. Data and
packet counters move with every MAD ibsim forwards, so they are only checked to be at least what smd read.
Exit 0 when every port agrees.
"""
import argparse
import json
import re
import subprocess
import sys

ERROR_COUNTERS = ['SymbolErrorCounter', 'LinkErrorRecoveryCounter', 'LinkDownedCounter', 'PortRcvErrors',
                  'PortRcvRemotePhysicalErrors', 'PortRcvSwitchRelayErrors', 'PortXmitDiscards',
                  'PortXmitConstraintErrors', 'PortRcvConstraintErrors', 'LocalLinkIntegrityErrors',
                  'ExcessiveBufferOverrunErrors', 'VL15Dropped', 'PortXmitWait']
FIELD = re.compile(r'^(\w+):\.*(\d+)$')


def perfquery(lid, port):
    p = subprocess.run(['perfquery', str(lid), str(port)], capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        raise SystemExit(f"check_counters: perfquery {lid} {port} failed: {p.stderr.strip()[-300:]}")
    fields = {}
    for line in p.stdout.splitlines():
        m = FIELD.match(line.strip())
        if m:
            fields[m.group(1)] = int(m.group(2))
    return fields


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('counters_json')
    ap.add_argument('--expect-ports', type=int)
    args = ap.parse_args()
    answer = json.load(open(args.counters_json))
    if not answer.get('ok'):
        raise SystemExit(f"check_counters: smctl answered {answer}")
    ports = answer['result']['ports']
    errors = []
    if args.expect_ports is not None and len(ports) != args.expect_ports:
        errors.append(f"smd lists {len(ports)} ports, expected {args.expect_ports}")
    nonzero = 0
    for p in ports:
        seen = perfquery(p['lid'], p['port'])
        for name in ERROR_COUNTERS:
            if name not in seen:
                errors.append(f"perfquery {p['lid']} {p['port']} printed no {name}")
                continue
            if seen[name] != p['counters'][name]:
                errors.append(f"{p['node_desc']} port {p['port']} (LID {p['lid']}): {name} smd {p['counters'][name]}, "
                              f"perfquery {seen[name]}")
            nonzero += 1 if seen[name] else 0
    print(f"check_counters: {len(ports)} ports, {len(ports) * len(ERROR_COUNTERS)} error counters compared with "
          f"perfquery, {nonzero} non-zero")
    for e in errors[:30]:
        print(f"check_counters: FAIL: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
