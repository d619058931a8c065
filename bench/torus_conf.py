#!/usr/bin/env python3
"""A torus-2QoS.conf (torus-2QoS.conf(5)) for a torus or mesh made by smd-fabric, from ibnetdiscover.

    torus_conf.py IBNETDISCOVER.txt DIMS [--mesh] > torus-2QoS.conf

DIMS as smd-fabric takes them ("6x6", "4x4x4"). smd-fabric names switch (x, y[, z]) "sw-x-y[-z]"; the
seed is sw-0-0[-0] with its + link along every dimension of radix 2 or more and, for a ring of 4 (where
torus-2QoS cannot tell + from - by 4-loops), its - link too. GUIDs are read from ibnetdiscover's
`Switch N "S-<guid>" # "<name>"` lines, so the file fits the fabric ibsim made of the netfile.
"""
import re
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    mesh = '--mesh' in sys.argv[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    guid = {}
    for line in open(args[0]):
        m = re.match(r'^Switch\s+\d+\s+"S-([0-9a-fA-F]{16})".*#\s+"([^"]+)"', line)
        if m:
            guid[m.group(2)] = '0x' + m.group(1)
    dims = [int(d) for d in args[1].split('x')]
    radix = dims + [1] * (3 - len(dims))

    def name(c):
        return 'sw-' + '-'.join(str(v) for v in c[:len(dims)])

    origin = [0] * len(dims)
    lines = [f"{'mesh' if mesh else 'torus'} {radix[0]} {radix[1]} {radix[2]}"]
    for d, r in enumerate(dims):
        if r < 2:
            continue
        plus = list(origin)
        plus[d] = 1
        lines.append(f"{'xyz'[d]}p_link {guid[name(origin)]} {guid[name(plus)]}")
        if not mesh and r == 4:
            minus = list(origin)
            minus[d] = r - 1
            lines.append(f"{'xyz'[d]}m_link {guid[name(origin)]} {guid[name(minus)]}")
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
