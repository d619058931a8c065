#!/usr/bin/env python3
"""Give a generated fat tree I/O nodes, and write the GUID files OpenSM and smd read.

    ftree_io_fabric.py NETFILE --top-prefix sw-L2- --ios N [--placement top|leaf] --out NETFILE2 --cn CN
                       --io IO --roots ROOTS

--placement top (the default): the I/O nodes io-0 .. io-(N-1) are added round-robin over the switches whose
name starts with --top-prefix (in file order), each on the lowest port the switch has free: io-j on top
switch j mod T. Their Hca blocks are appended after everything else, so the hosts keep their GUIDs.
--placement leaf: N of the H hosts become I/O nodes where they are, spread evenly: host
floor((2j + 1) H / 2N) is renamed io-j (GUIDs unchanged); the compute nodes are the hosts left. GUIDs follow ibsim's counters
(tests/fabrics/README.md): CAs in file order from 0x100000 (port 1 = node + 1, one-port CAs step 2),
switches in file order from 0x200000. Written: CN = every host-i's port GUID in host order, IO = the I/O
nodes' port GUIDs, ROOTS = the top switches' GUIDs (OpenSM ranks from every CA without a root file).
"""
import argparse
import re

HDR = re.compile(r'^(Switch|Hca)\s+(\d+)\s+"([^"]+)"')
PORT = re.compile(r'^\[(\d+)\]')


def rename_hosts(blocks, count):
    """host-floor((2j + 1) H / 2N) -> io-j in every line that names it (its block and its switch's port)."""
    hosts = [b[2] for b in blocks if b[0] == 'Hca' and b[2].startswith('host-')]
    new = {f'"host-{(2 * j + 1) * len(hosts) // (2 * count)}"': f'"io-{j}"' for j in range(count)}
    for b in blocks:
        b[3] = [re.sub(r'"host-\d+"', lambda m: new.get(m.group(0), m.group(0)), line) for line in b[3]]
        m = HDR.match(b[3][0])
        if m:
            b[2] = m.group(3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('netfile')
    ap.add_argument('--top-prefix', required=True)
    ap.add_argument('--ios', type=int, required=True)
    ap.add_argument('--placement', choices=('top', 'leaf'), default='top')
    ap.add_argument('--out', required=True)
    ap.add_argument('--cn', required=True)
    ap.add_argument('--io', required=True)
    ap.add_argument('--roots', required=True)
    a = ap.parse_args()
    blocks, cur = [], None  # [kind, nports, name, [lines]]
    for line in open(a.netfile):
        m = HDR.match(line)
        if m:
            cur = [m.group(1), int(m.group(2)), m.group(3), [line]]
            blocks.append(cur)
        elif cur is not None:
            cur[3].append(line)
        else:
            blocks.append(['text', 0, '', [line]])
    switches = [b for b in blocks if b[0] == 'Switch']
    cas = [b for b in blocks if b[0] == 'Hca']
    tops = [b for b in switches if b[2].startswith(a.top_prefix)]
    if not tops:
        raise SystemExit(f"ftree_io_fabric: no switch named {a.top_prefix}*")
    used = {b[2]: {int(PORT.match(l).group(1)) for l in b[3] if PORT.match(l)} for b in tops}
    extra = []
    if a.placement == 'leaf':
        rename_hosts(blocks, a.ios)
    for j in range(a.ios if a.placement == 'top' else 0):
        top = tops[j % len(tops)]
        port = min(p for p in range(1, top[1] + 1) if p not in used[top[2]])
        used[top[2]].add(port)
        # The port line goes before the block's trailing blank line.
        body = top[3]
        at = len(body)
        while at > 1 and not body[at - 1].strip():
            at -= 1
        body.insert(at, f'[{port}] "io-{j}"[1]\n')
        extra.append(['Hca', 1, f'io-{j}', [f'Hca 1 "io-{j}"\n', f'[1] "{top[2]}"[{port}]\n', '\n']])
    with open(a.out, 'w') as f:
        for b in blocks + extra:
            f.writelines(b[3])
    cas = [b for b in blocks if b[0] == 'Hca']
    ca_guid, port_guid = 0x100000, {}
    for b in cas + extra:
        port_guid[b[2]] = ca_guid + 1
        ca_guid += b[1] + 1
    sw_guid = {b[2]: 0x200000 + i for i, b in enumerate(switches)}
    hosts = sorted((n for n in port_guid if n.startswith('host-')), key=lambda n: int(n[5:]))
    with open(a.cn, 'w') as f:
        f.writelines(f'0x{port_guid[h]:016x}\n' for h in hosts)
    with open(a.io, 'w') as f:
        f.writelines(f'0x{port_guid[n]:016x}\n' for n in sorted((n for n in port_guid if n.startswith('io-')),
                                                                key=lambda n: int(n[3:])))
    with open(a.roots, 'w') as f:
        f.writelines(f'0x{sw_guid[b[2]]:016x}\n' for b in tops)


if __name__ == '__main__':
    main()
