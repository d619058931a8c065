#!/usr/bin/env python3
"""A what-if drain's predicted LFT blocks against the blocks the fabric then holds (issue 46 item 3).

usage: drain_blocks_check.py BEFORE.lfts AFTER.lfts WHATIF.json

BEFORE and AFTER are read_lfts.py's text (every switch's LFT as read back with infiniband-diags) before
and after the drain; WHATIF is `smctl --json what-if drain` asked before the drain. A 64-entry block
counts as changed when any of its entries differs (an entry read nowhere is 0xFF). The total of changed
blocks and the number of switches with one must equal the report's lft_blocks and switches_changed, and
each switch of its most_changed_switches list must have changed exactly its blocks and hold its top_after
as LinearFDBTop. Prints the two counts; exits 1 (AssertionError) when they differ.
"""
import json
import sys


def read(path):
    tables, tops, cur = {}, {}, None
    for line in open(path):
        f = line.split()
        if f[1] == "top":
            cur = int(f[0], 16)
            tables[cur] = {}
            tops[cur] = int(f[2])
        else:
            tables[cur][int(f[0], 16)] = int(f[1])
    return tables, tops


def main():
    (before, _), (after, tops) = read(sys.argv[1]), read(sys.argv[2])
    blocks = {}
    for guid in before:
        b, a = before[guid], after.get(guid, {})
        changed = {lid // 64 for lid in set(b) | set(a) if b.get(lid, 255) != a.get(lid, 255)}
        if changed:
            blocks[guid] = len(changed)
    rep = json.load(open(sys.argv[3]))["result"]["report"]
    total = sum(blocks.values())
    print(f"fabric: {total} LFT blocks changed on {len(blocks)} switches; "
          f"predicted {rep['lft_blocks']} on {rep['switches_changed']}")
    assert total == rep["lft_blocks"] and len(blocks) == rep["switches_changed"], (total, len(blocks))
    for m in rep["most_changed_switches"]:
        guid = int(m["switch"], 16)
        assert blocks.get(guid) == m["blocks"], (m, blocks.get(guid))
        assert tops[guid] == m["top_after"], (m, tops[guid])
    print(f"fabric: the {len(rep['most_changed_switches'])} switches listed changed the predicted blocks, "
          "tops as predicted")


if __name__ == "__main__":
    main()
