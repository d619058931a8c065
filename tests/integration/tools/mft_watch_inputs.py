#!/usr/bin/env python3
"""Inputs of tests/integration/tools/mft_watch (bench/mcast_join_storm.sh, tests/integration/mcast_mft_test.sh),
from what infiniband-diags read of the fabric.

    mft_watch_inputs.py IBNETDISCOVER_P_TXT IBNETDISCOVER_TXT OUTDIR [MEMBERS]

IBNETDISCOVER_P_TXT is `ibnetdiscover -p` (one line per cabled port: "CA lid port guid ... - SW lid port
guid ..."), IBNETDISCOVER_TXT plain `ibnetdiscover` (for every switch's LID and port count). Writes
OUTDIR/members.txt (every CA port GUID, one per line: who joins) and OUTDIR/switches.txt for
tests/integration/tools/mft_watch ("lid num_ports" per switch, then "expect lid port" per CA: the switch
port facing it must end up in the group's MFT mask). With MEMBERS (a file of port GUIDs), only those CA
ports are expected, every other CA port gets an "absent lid port" line (its switch must not send the group
to it), and members.txt is left alone. Prints the number of members.
"""
import re
import sys


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    ports_txt, full_txt, outdir = sys.argv[1:4]
    only = {int(g, 16) for g in open(sys.argv[4], encoding="utf-8").read().split()} if len(sys.argv) == 5 else None
    members = []
    expects = []
    absents = []
    for line in open(ports_txt, encoding="utf-8"):
        f = line.split()
        # CA   112  1 0x000000000010007f 4x SDR - SW    24  4 0x000000000020000f ( 'host-63' - 'sw-L0-15' )
        if len(f) >= 10 and f[0] == "CA" and "SW" in f:
            sw = f.index("SW")
            if only is not None and int(f[3], 16) not in only:
                absents.append((int(f[sw + 1]), int(f[sw + 2])))
                continue
            members.append(f[3])
            expects.append((int(f[sw + 1]), int(f[sw + 2])))
    switches = []
    header = re.compile(r'^Switch\s+(\d+)\s+"[^"]*".*\blid\s+(\d+)')
    for line in open(full_txt, encoding="utf-8"):
        m = header.match(line)
        if m:
            switches.append((int(m.group(2)), int(m.group(1))))
    if not members or not switches:
        print("mft_watch_inputs: no CA ports or no switches in the ibnetdiscover output", file=sys.stderr)
        return 1
    if only is None:
        with open(f"{outdir}/members.txt", "w", encoding="utf-8") as out:
            out.writelines(g + "\n" for g in sorted(set(members)))
    with open(f"{outdir}/switches.txt", "w", encoding="utf-8") as out:
        out.writelines(f"{lid} {nports}\n" for lid, nports in switches)
        out.writelines(f"expect {lid} {port}\n" for lid, port in expects)
        out.writelines(f"absent {lid} {port}\n" for lid, port in absents)
    print(len(set(members)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
