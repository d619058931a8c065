#!/usr/bin/env python3
"""An `smd plan --lft-dump` file against the LFTs the switches hold, read with ibroute (run under the shim).

Every switch of the dump is looked up by its node GUID in a guid2lid file (a switch's port 0 has the node
GUID as port GUID) and its LFT read with `ibroute -a -n LID 1 MAXLID`; every (LID, port) of the dump must
be what the switch holds, and every LID the switch routes must be in the dump.
usage: check_plan_dump.py --dump FILE --guid2lid FILE [--timeout S]
"""
import argparse
import re
import subprocess
import sys


def read_dump(path):
    switches, cur = {}, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r'^switch (0x[0-9a-f]{16}) "(.*)" DR .* top (0x[0-9a-f]+)$', line.rstrip("\n"))
        if m:
            cur = int(m.group(1), 16)
            switches[cur] = {"desc": m.group(2), "top": int(m.group(3), 16), "lft": {}}
            continue
        m = re.match(r"^(0x[0-9a-f]{4}) (\d+)$", line.strip())
        if not m or cur is None:
            raise SystemExit(f"{path}: cannot read line {line.rstrip()!r}")
        switches[cur]["lft"][int(m.group(1), 16)] = int(m.group(2))
    return switches


def read_guid2lid(path):
    lids = {}
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if len(f) == 3:
            lids[int(f[0], 16)] = int(f[1], 16)
    return lids


def ibroute(lid, max_lid, timeout):
    out = subprocess.run(["ibroute", "-a", "-n", str(lid), "1", str(max_lid)], capture_output=True, text=True,
                         timeout=timeout, check=True).stdout
    lft = {}
    for line in out.splitlines():
        m = re.match(r"^0x([0-9a-fA-F]{4})\s+(\d+)", line)
        if m and int(m.group(2)) != 255:  # 255: no route (ibroute -a lists those LIDs too)
            lft[int(m.group(1), 16)] = int(m.group(2))
    return lft


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--guid2lid", required=True)
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    dump = read_dump(a.dump)
    lid_of = read_guid2lid(a.guid2lid)
    errors, entries = [], 0
    for guid, sw in dump.items():
        if guid not in lid_of:
            errors.append(f"switch {guid:#018x} {sw['desc']} has no LID in {a.guid2lid}")
            continue
        held = ibroute(lid_of[guid], sw["top"], a.timeout)
        for lid, port in sw["lft"].items():
            entries += 1
            if held.get(lid) != port:
                errors.append(f"{sw['desc']} LID {lid:#06x}: plan {port}, switch holds {held.get(lid)}")
        for lid in sorted(set(held) - set(sw["lft"])):
            errors.append(f"{sw['desc']} LID {lid:#06x}: the switch routes it (port {held[lid]}), the plan does not")
    if not dump:
        errors.append(f"{a.dump}: no switches")
    if errors:
        print(f"check_plan_dump: {len(errors)} difference(s); first: " + "; ".join(errors[:8]), file=sys.stderr)
        return 1
    print(f"check_plan_dump: {len(dump)} switches, {entries} LFT entries of the plan as the switches hold them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
