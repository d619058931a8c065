#!/usr/bin/env python3
"""Inputs of the join storm (bench/mcast_join_storm.sh), from what infiniband-diags read of the fabric.

    mcast_storm_setup.py IBNETDISCOVER_P_TXT IBNETDISCOVER_TXT OUTDIR

IBNETDISCOVER_P_TXT is `ibnetdiscover -p` (one line per cabled port: "CA lid port guid ... - SW lid port
guid ..."), IBNETDISCOVER_TXT plain `ibnetdiscover` (for every switch's LID and port count). Writes
OUTDIR/members.txt (every CA port GUID, one per line: who joins) and OUTDIR/switches.txt for
tests/integration/tools/mft_watch ("lid num_ports" per switch, then "expect lid port" per CA: the switch
port facing it must end up in the group's MFT mask). Prints the number of members.
"""
import re
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    ports_txt, full_txt, outdir = sys.argv[1:]
    members = []
    expects = []
    for line in open(ports_txt, encoding="utf-8"):
        f = line.split()
        # CA   112  1 0x000000000010007f 4x SDR - SW    24  4 0x000000000020000f ( 'host-63' - 'sw-L0-15' )
        if len(f) >= 10 and f[0] == "CA" and "SW" in f:
            sw = f.index("SW")
            members.append(f[3])
            expects.append((int(f[sw + 1]), int(f[sw + 2])))
    switches = []
    header = re.compile(r'^Switch\s+(\d+)\s+"[^"]*".*\blid\s+(\d+)')
    for line in open(full_txt, encoding="utf-8"):
        m = header.match(line)
        if m:
            switches.append((int(m.group(2)), int(m.group(1))))
    if not members or not switches:
        print("mcast_storm_setup: no CA ports or no switches in the ibnetdiscover output", file=sys.stderr)
        return 1
    with open(f"{outdir}/members.txt", "w", encoding="utf-8") as out:
        out.writelines(g + "\n" for g in sorted(set(members)))
    with open(f"{outdir}/switches.txt", "w", encoding="utf-8") as out:
        out.writelines(f"{lid} {nports}\n" for lid, nports in switches)
        out.writelines(f"expect {lid} {port}\n" for lid, port in expects)
    print(len(set(members)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
