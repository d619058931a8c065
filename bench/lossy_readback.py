#!/usr/bin/env python3
"""Count what an SM left configured, with infiniband-diags only (under the umad2sim shim, ibsim up).

Prints key=value lines:
  links, active   cables (from iblinkinfo, which lists every cable from both ends) and those whose two
                  ends are both Active
  endports, lids  switch port 0 and cabled CA ports (from ibnetdiscover), and those with a LID
Unlike tests/integration/check_fabric.py it does not stop at the first thing missing: a half-configured
fabric is what bench/lossy.sh measures. Parsing reuses check_fabric.py.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'integration'))
import check_fabric as cf  # noqa: E402

HEADER = re.compile(r'^(?:CA|Switch):\s+(?:0x[0-9a-f]+\s+)?(.*):\s*$')
PEER = re.compile(r'\]\s+"([^"]+)"')


def main():
    state = {}  # (node, port) -> state text of that end
    peer_of = {}  # (node, port) -> (peer node, peer port)
    node = None
    for line in cf.run(['iblinkinfo'], 300).splitlines():
        m = HEADER.match(line)
        if m:
            node = m.group(1)
            continue
        m = cf.LINK.match(line)
        if not m or not m.group(4) or node is None:
            continue
        p = PEER.search(line[m.end() - 1:])
        if not p:
            continue
        state[(node, int(m.group(2)))] = m.group(3)
        peer_of[(node, int(m.group(2)))] = (p.group(1), int(m.group(5)))
    links = active = 0
    for end, far in peer_of.items():
        if end > far:
            continue  # count each cable once, from its smaller end
        links += 1
        active += 'Active' in state[end] and 'Active' in state.get(far, '')
    nodes = cf.parse_netdiscover(cf.run(['ibnetdiscover'], 300))
    endports = lids = 0
    for n in nodes.values():
        if n['type'] == 'sw':
            endports += 1
            lids += n['lid'] != 0
        else:
            for lid, _ in n['port_lids'].values():
                endports += 1
                lids += lid != 0
    print(f"links={links}")
    print(f"active={active}")
    print(f"endports={endports}")
    print(f"lids={lids}")


if __name__ == '__main__':
    main()
