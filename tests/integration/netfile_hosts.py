"""ibsim netfiles read and edited as text alone (no smd code), for the cli tests' witnesses.

host_switches(path) -> {host: switch}, from each `Hca N "host"` header and its `[1] "switch"[p]` line:
    which switch each single-port host is cabled to.
without(path, switch=None, end=None) -> the netfile's text without a switch or a cable.
directed_route(path, src, dst) -> the out-ports of a shortest directed route from node src to node dst,
    starting with 0 (the source's own port, as ibsim's tools take a DR path).
"""
import re


def host_switches(path):
    out = {}
    host = None
    for line in open(path):
        m = re.match(r'Hca \d+ "([^"]+)"', line)
        if m:
            host = m.group(1)
            continue
        m = re.match(r'\[1\]\s+"([^"]+)"', line)
        if host and m:
            out[host] = m.group(1)
            host = None
    return out


def without(path, switch=None, end=None):
    """The netfile's text without switch `switch` (its block and every line cabled to it) or without the
    cable at `end` = (node, port) (its line at both ends): the fabric after a loss, written by hand."""
    blocks = []
    for block in open(path).read().split('\n\n'):
        m = re.search(r'(?:Switch|Hca) \d+ "([^"]+)"', block)
        node = m.group(1) if m else None
        if switch is not None and node == switch:
            continue
        lines = []
        for line in block.split('\n'):
            if switch is not None and f'"{switch}"[' in line:
                continue
            if end is not None and node == end[0] and line.startswith(f'[{end[1]}]'):
                continue
            if end is not None and f'"{end[0]}"[{end[1]}]' in line:
                continue
            lines.append(line)
        blocks.append('\n'.join(lines))
    return '\n\n'.join(blocks)


def directed_route(path, src, dst):
    """[0, p1, p2, ...]: the ports a breadth-first walk over the netfile's cables leaves by from `src`
    to reach `dst` (KeyError when `dst` is not reachable)."""
    links, node = {}, None
    for line in open(path):
        m = re.match(r'^(?:Switch|Hca)\s+\d+\s+"([^"]+)"', line)
        if m:
            node = m.group(1)
            continue
        m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
        if m and node:
            links.setdefault(node, []).append((int(m.group(1)), m.group(2)))
    paths, queue = {src: [0]}, [src]
    while queue:
        here = queue.pop(0)
        for port, peer in links.get(here, []):
            if peer not in paths:
                paths[peer] = paths[here] + [port]
                queue.append(peer)
    return paths[dst]
