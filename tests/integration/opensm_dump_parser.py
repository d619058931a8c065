#!/usr/bin/env python3
"""A strict reader of OpenSM's dump files, written from OpenSM 3.3's osm_dump.c layout and checked against
the files a real OpenSM writes (tests/integration/opensm_dumps_test.sh): opensm-lfts.dump,
opensm-subnet.lst, opensm.mcfdbs, opensm-sl2vl.dump. Every line must be one the format allows, with its
field widths; blocks must come in OpenSM's GUID-table order (ascending by the GUID byte-reversed, as its
cl_qmap keys hold it on a little-endian host); trailers must agree with what they close. A site script
that reads OpenSM's files reads the same things out of these. Errors raise DumpError naming file:line.

  opensm_dump_parser.py FILE...   # parse each (by its OpenSM file name) and print a one-line summary
"""
import os
import re
import sys


class DumpError(Exception):
    pass


def qmap_key(guid):
    """OpenSM's table order: the 64-bit GUID with its bytes reversed."""
    return int.from_bytes(guid.to_bytes(8, 'big'), 'little')


def _fail(name, n, msg, line):
    raise DumpError(f"{name}:{n}: {msg}: {line!r}")


def _check_order(name, guids, what):
    keys = [qmap_key(g) for g in guids]
    if keys != sorted(keys) or len(set(keys)) != len(keys):
        raise DumpError(f"{name}: {what} not in OpenSM's GUID-table order (or repeated)")


LFT_HDR = re.compile(r"^Unicast lids \[0-(\d+)\] of switch Lid (\d+) guid 0x([0-9a-f]{16}) \('(.*)'\):$")
LFT_ROW = re.compile(r"^0x([0-9a-f]{4}) (\d{3}) # (?:(Channel Adapter|Switch|Router) portguid 0x([0-9a-f]{16}): '(.*)'"
                     r"|unknown node and type)$")
LFT_END = re.compile(r"^(\d+) lids dumped$")


def parse_lfts(text, name='opensm-lfts.dump'):
    """-> {switch guid: {lid, desc, top, entries: {lid: port}, dest: {lid: (type, port guid, desc) | None}}}"""
    out, cur, order = {}, None, []
    for n, line in enumerate(text.split('\n'), 1):
        if line == '' and n == len(text.split('\n')):
            break
        if cur is None:
            m = LFT_HDR.match(line)
            if not m:
                _fail(name, n, "expected 'Unicast lids [0-N] of switch Lid L guid 0x... ('desc'):'", line)
            guid = int(m.group(3), 16)
            cur = dict(top=int(m.group(1)), lid=int(m.group(2)), desc=m.group(4), entries={}, dest={})
            out[guid] = cur
            order.append(guid)
            last = -1
            continue
        m = LFT_ROW.match(line)
        if m:
            lid = int(m.group(1), 16)
            if lid <= last or lid > cur['top']:
                _fail(name, n, f"LID out of order or past the top {cur['top']}", line)
            last = lid
            cur['entries'][lid] = int(m.group(2))
            cur['dest'][lid] = (m.group(3), int(m.group(4), 16), m.group(5)) if m.group(3) else None
            continue
        m = LFT_END.match(line)
        if m:
            if int(m.group(1)) != cur['top']:
                _fail(name, n, f"trailer does not repeat the header's top {cur['top']}", line)
            cur = None
            continue
        _fail(name, n, "not an LFT row or trailer", line)
    if cur is not None:
        raise DumpError(f"{name}: last switch has no 'N lids dumped' trailer")
    _check_order(name, order, "switches")
    return out


SIDE = (r"\{ (SW|CA|Rt)(-SM)? Ports:([0-9A-F]{2}) SystemGUID:([0-9a-f]{16}) NodeGUID:([0-9a-f]{16}) "
        r"PortGUID:([0-9a-f]{16}) VenID:([0-9A-F]{%d}) DevID:([0-9A-F]{4}|[0-9A-F]{8}) Rev:([0-9A-F]{8}) "
        r"\{(.*?)\} LID:([0-9A-F]{4}) PN:([0-9A-F]{2}) \} ")
SUBNET_ROW = re.compile("^" + SIDE % 6 + SIDE % 8 +
                        r"PHY=(1x|4x|8x|12x|\?\?) LOG=(ACT|ARM|INI|DWN) SPD=(2\.5|5|10|14|25|FDR10|\?\?)$")
SIDE_FIELDS = ('type', 'sm', 'ports', 'system_guid', 'node_guid', 'port_guid', 'ven', 'dev', 'rev', 'desc', 'lid',
               'pn')


def _side(groups):
    d = dict(zip(SIDE_FIELDS, groups))
    d['sm'] = d['sm'] is not None
    for k in ('ports', 'ven', 'dev', 'rev', 'lid', 'pn'):
        d[k] = int(d[k], 16)
    for k in ('system_guid', 'node_guid', 'port_guid'):
        d[k] = int(d[k], 16)
    return d


def parse_subnet(text, name='opensm-subnet.lst'):
    """-> [{'a': side, 'b': peer side, 'phy', 'log', 'spd'}] in file order (a side: SIDE_FIELDS)."""
    rows = []
    lines = text.split('\n')
    for n, line in enumerate(lines, 1):
        if line == '' and n == len(lines):
            break
        m = SUBNET_ROW.match(line)
        if not m:
            _fail(name, n, "not an opensm-subnet.lst line", line)
        g = m.groups()
        rows.append(dict(a=_side(g[0:12]), b=_side(g[12:24]), phy=g[24], log=g[25], spd=g[26]))
    nodes = []
    for r in rows:
        if not nodes or nodes[-1] != r['a']['node_guid']:
            nodes.append(r['a']['node_guid'])
    _check_order(name, nodes, "nodes")
    return rows


MC_ROW = re.compile(r"^0x([0-9A-F]{4}) :((?: 0x[0-9A-F]{3} )+)$")


def parse_mcfdbs(text, name='opensm.mcfdbs'):
    """-> {switch guid: {mlid: set(ports)}} (switches that forward no MLID are absent, as in the file)."""
    out, order = {}, []
    lines = text.split('\n')
    n = 0
    cur = None
    while n < len(lines):
        line = lines[n]
        n += 1
        if line == '' and n == len(lines):
            break
        if line == '':
            if n + 1 >= len(lines):
                _fail(name, n, "empty line without a switch after it", line)
            m = re.match(r"^Switch 0x([0-9a-f]{16})$", lines[n])
            if not m or lines[n + 1] != "LID    : Out Port(s)":
                _fail(name, n + 1, "expected 'Switch 0x...' and 'LID    : Out Port(s)' after an empty line", lines[n])
            cur = out.setdefault(int(m.group(1), 16), {})
            order.append(int(m.group(1), 16))
            n += 2
            continue
        m = MC_ROW.match(line)
        if not m or cur is None:
            _fail(name, n, "not an MLID row under a switch header", line)
        mlid = int(m.group(1), 16)
        if mlid < 0xC000 or (cur and mlid <= max(cur)):
            _fail(name, n, "MLID below 0xC000 or out of order", line)
        ports = [int(p, 16) for p in re.findall(r"0x([0-9A-F]{3})", m.group(2))]
        if ports != sorted(set(ports)):
            _fail(name, n, "ports out of order", line)
        cur[mlid] = set(ports)
    _check_order(name, order, "switches")
    for sw, t in out.items():
        if not t:
            raise DumpError(f"{name}: switch 0x{sw:016x} has a header but no MLID")
    return out


SL_HDR = re.compile(r'^(Channel Adapter|Switch|Router) 0x([0-9a-f]{16}), base LID (\d+), "(.*)"$')
SL_COLS = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15"
SL_SEP = "#" + "-" * 56
SL_ROW = re.compile(r"^(\d+)\s*(\d+)\s*:((?: \d+\s*){16})$")


def sl_row_text(inp, out, vls):
    return "%-3d %-3d :" % (inp, out) + "".join(" %-2d" % v for v in vls)


def parse_sl2vl(text, name='opensm-sl2vl.dump'):
    """-> {port guid: {type, lid, desc, rows: {(in, out): [VL of SL 0..15]}}}"""
    out, order = {}, []
    lines = text.split('\n')
    n = 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if line == '' and n == len(lines):
            break
        m = SL_HDR.match(line)
        if not m:
            _fail(name, n, "expected '<type> 0x<guid>, base LID N, \"desc\"'", line)
        if lines[n:n + 2] != [SL_COLS, SL_SEP]:
            _fail(name, n + 1, "expected the column header and separator", lines[n] if n < len(lines) else '')
        n += 2
        entry = dict(type=m.group(1), lid=int(m.group(3)), desc=m.group(4), rows={})
        guid = int(m.group(2), 16)
        out[guid] = entry
        order.append(guid)
        while n < len(lines) and lines[n] != SL_SEP:
            r = SL_ROW.match(lines[n])
            if not r:
                _fail(name, n + 1, "not an SL2VL row", lines[n])
            inp, o = int(r.group(1)), int(r.group(2))
            vls = [int(v) for v in r.group(3).split()]
            if lines[n] != sl_row_text(inp, o, vls):
                _fail(name, n + 1, "SL2VL row not in '%-3d %-3d :' + ' %-2d' x16 layout", lines[n])
            entry['rows'][(inp, o)] = vls
            n += 1
        if n >= len(lines) or (n + 1 < len(lines) and lines[n + 1] != ''):
            _fail(name, n + 1, "a block must end with the separator and an empty line", lines[n] if n < len(lines) else '')
        if not entry['rows']:
            _fail(name, n, "a block without rows", line)
        n += 2
    _check_order(name, order, "ports")
    return out


PARSERS = {
    'opensm-lfts.dump': parse_lfts,
    'opensm-subnet.lst': parse_subnet,
    'opensm.mcfdbs': parse_mcfdbs,
    'opensm-sl2vl.dump': parse_sl2vl,
}


def parse_file(path):
    """Parse `path` by its OpenSM file name."""
    base = os.path.basename(path)
    if base not in PARSERS:
        raise DumpError(f"{path}: not one of {', '.join(sorted(PARSERS))}")
    with open(path, encoding='ascii') as f:
        return PARSERS[base](f.read(), path)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for path in sys.argv[1:]:
        try:
            parsed = parse_file(path)
        except DumpError as e:
            raise SystemExit(f"opensm_dump_parser: {e}")
        print(f"{path}: {len(parsed)} {'lines' if isinstance(parsed, list) else 'entries'}")


if __name__ == '__main__':
    main()
