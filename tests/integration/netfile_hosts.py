"""ibsim netfiles read and edited as text alone (no smd code), for the cli tests' witnesses.

host_switches(path) -> {host: switch}, from each `Hca N "host"` header and its `[1] "switch"[p]` line:
    which switch each single-port host is cabled to.
without(path, switch=None, end=None) -> the netfile's text without a switch or a cable.
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
