"""Which switch each single-port host of an ibsim netfile is cabled to, read from the netfile's text
alone (no smd code): the witness the cli tests count leaves and cut-off hosts with.

host_switches(path) -> {host: switch}, from each `Hca N "host"` header and its `[1] "switch"[p]` line.
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
