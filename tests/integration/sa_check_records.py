#!/usr/bin/env python3
"""Every SA record type the umad2sim shim can carry, checked against what the ports themselves say.

The SA's answers come from saquery; the witnesses are infiniband-diags reading the ports with SMPs
(smpquery nodeinfo/nodedesc/portinfo/switchinfo/guidinfo/pkeys/sl2vl/vlarb, smpdump for LFT blocks,
sminfo) and ibnetdiscover for the topology. No SM code is involved in the witnesses.

Because the shim cuts every answer to one 256-byte MAD (no RMPP), records are asked for one at a time
(filtered by LID, port, block); one whole-table query per record type then checks that the answer holds
the number of records that fits in one MAD (SA-NOTES 1.2), or all of them when fewer exist.

Run under the shim (sa_common.sh: sa_check records). Exit 0 when every check holds.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_fabric  # noqa: E402  (ibnetdiscover parser)
from sa_diags import RETRIES, bar_row, must, num, one, parse_fields, saquery  # noqa: E402

# Record size in bytes (AttributeOffset * 8) and records per 256-byte MAD, (256 - 56) // size.
RECORD_SIZE = {'NR': 112, 'PIR': 72, 'SWIR': 24, 'LR': 8, 'SMIR': 32, 'LFTR': 72, 'GIR': 72, 'PKTR': 72,
               'SL2VL': 16, 'VLAR': 72}
CAPACITY = {q: (256 - 56) // size for q, size in RECORD_SIZE.items()}
# Whole-table answers are checked for content only in their first 168 data bytes: OpenSM's (RMPP) answers
# through the shim carry garbage in the MAD's last 32 bytes (seen on leafspine: LinkRecords 22-25 of 25,
# SL2VL record 12 of 12), while saquery still counts (length - 56) / size records.
CONTENT_BYTES = 168
# The field of each whole-table record that names the LID it is about.
LID_FIELD = {'NR': 'lid', 'PIR': 'EndPortLid', 'SWIR': 'LID', 'SMIR': 'LID', 'LFTR': 'LID', 'GIR': 'LID',
             'PKTR': 'LID', 'SL2VL': 'LID', 'VLAR': 'LID', 'LR': 'FromLID'}

# NodeRecord field -> smpquery nodeinfo field.
NR_VS_NODEINFO = [('node_type', 'NodeType'), ('num_ports', 'NumPorts'), ('sys_guid', 'SystemGuid'),
                  ('node_guid', 'Guid'), ('port_guid', 'PortGuid'), ('partition_cap', 'PartCap'),
                  ('device_id', 'DevId'), ('revision', 'Revision'), ('port_num', 'LocalPort'),
                  ('vendor_id', 'VendorId'), ('base_version', 'BaseVers'), ('class_version', 'ClassVers')]
# SwitchInfoRecord field -> smpquery switchinfo field.
SWIR_VS_SWITCHINFO = [('LinearFDBCap', 'LinearFdbCap'), ('RandomFDBCap', 'RandomFdbCap'),
                      ('MulticastFDBCap', 'McastFdbCap'), ('LinearFDBTop', 'LinearFdbTop'),
                      ('DefaultPort', 'DefPort'), ('DefaultMulticastPrimaryPort', 'DefMcastPrimPort'),
                      ('DefaultMulticastNotPrimaryPort', 'DefMcastNotPrimPort'),
                      ('LIDsPerPort', 'LidsPerPort'), ('PartitionEnforcementCap', 'PartEnforceCap'),
                      ('MulticastFDBTop', 'MulticastFDBTop')]
# PortInfo fields that are not state of the port: the M_Key is never displayed.
PIR_SKIP = {'Mkey'}


class Checker:
    def __init__(self):
        self.errors = []
        self.counts = {}

    def fail(self, msg):
        self.errors.append(msg)

    def ok(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def same(self, kind, what, pairs):
        """pairs: (field, sa value, witness value); integers compared as numbers, the rest as text."""
        bad = []
        for field, a, b in pairs:
            if a is None or b is None:
                bad.append(f"{field}: SA {a!r}, witness {b!r}")
                continue
            na, nb = num(a), num(b)
            if (na != nb) if (na is not None and nb is not None) else (a.strip() != b.strip()):
                bad.append(f"{field}: SA {a!r}, witness {b!r}")
        if bad:
            self.fail(f"{kind} {what}: " + '; '.join(bad[:6]))
        else:
            self.ok(kind)


def smp(*args):
    return parse_fields(must(['smpquery'] + list(args)))


def table_rows(text):
    """The values of "  N: v v v" rows (smpquery guidinfo / pkeys), in order."""
    vals = []
    for line in text.splitlines():
        m = re.match(r'^\s*\d+:\s+(.*)$', line)
        if m:
            vals += [int(v, 16) for v in m.group(1).split()]
    return vals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--expect-sms', type=int, default=1, help='SMInfoRecords expected (SMs on the subnet)')
    ap.add_argument('--expect-mcast', action='store_true',
                    help='ClassPortInfo must advertise UD multicast (CapabilityMask bit 9)')
    args = ap.parse_args()
    c = Checker()

    nodes = check_fabric.parse_netdiscover(must(['ibnetdiscover'], 60))
    switches = {k: v for k, v in nodes.items() if v['type'] == 'sw'}
    cas = {k: v for k, v in nodes.items() if v['type'] == 'ca'}
    if not switches or not cas:
        raise SystemExit("ibnetdiscover: no switches or no CAs")

    def lid_of(name, port):
        n = nodes[name]
        return n['lid'] if n['type'] == 'sw' else n['port_lids'][port][0]

    ca_ports = [(name, p, lid_of(name, p)) for name, n in sorted(cas.items()) for p in sorted(n['port_lids'])]
    sw_lids = [(name, n['lid']) for name, n in sorted(switches.items())]
    sw_lid_set = {lid for _, lid in sw_lids}
    nports = {name: int(smp('nodeinfo', str(lid))['NumPorts']) for name, lid in sw_lids}

    # ClassPortInfo.
    st, recs = saquery('-c')
    cpi, err = one(st, recs, 'ClassPortInfo')
    if err:
        c.fail(err)
    else:
        cap, cap2, rtv = num(cpi.get('Capability mask', '')), num(cpi.get('Capability mask 2', '')), \
            num(cpi.get('Response time value', ''))
        if num(cpi.get('Base version', '')) != 1 or num(cpi.get('Class version', '')) != 2:
            c.fail(f"ClassPortInfo: base/class version {cpi.get('Base version')}/{cpi.get('Class version')}, want 1/2")
        elif cap is None or (args.expect_mcast and not cap & (1 << 9)):
            c.fail(f"ClassPortInfo: CapabilityMask {cpi.get('Capability mask')} lacks bit 9 (UD multicast)")
        elif cap2 is None or not cap2 & (1 << 12):
            c.fail(f"ClassPortInfo: CapabilityMask2 {cpi.get('Capability mask 2')} lacks bit 12 (send-only full member)")
        elif rtv is None or not 1 <= rtv <= 31:
            c.fail(f"ClassPortInfo: RespTimeValue {cpi.get('Response time value')} not in 1..31")
        else:
            c.ok('ClassPortInfo')

    # NodeRecord, by LID: one per switch, one per CA port.
    for name, port, lid in [(n, 0, l) for n, l in sw_lids] + ca_ports:
        rec, err = one(*saquery('NR', str(lid)), f"NodeRecord lid {lid}")
        if err:
            c.fail(err)
            continue
        info = smp('nodeinfo', str(lid))
        desc = smp('nodedesc', str(lid)).get('Node Description')
        pairs = [(k, rec.get(k), info.get(w)) for k, w in NR_VS_NODEINFO]
        pairs += [('lid', rec.get('lid'), str(lid)), ('NodeDescription', rec.get('NodeDescription'), desc),
                  ('NodeDescription(ibnetdiscover)', rec.get('NodeDescription'), nodes[name]['desc'])]
        m = re.match(r'^[SH]-([0-9a-fA-F]{16})$', name)
        if m:
            pairs.append(('node_guid(ibnetdiscover)', rec.get('node_guid'), '0x' + m.group(1)))
        c.same('NodeRecord', f"lid {lid} ({name})", pairs)

    # PortInfoRecord, by LID and port: every CA port, every port 0..N of every switch.
    pir_keys = [(lid, port) for _, port, lid in ca_ports] + \
               [(lid, p) for name, lid in sw_lids for p in range(nports[name] + 1)]
    for lid, port in pir_keys:
        rec, err = one(*saquery('PIR', f"{lid}/{port}"), f"PortInfoRecord {lid}/{port}")
        if err:
            c.fail(err)
            continue
        info = smp('portinfo', str(lid), str(port))
        # A switch's PortInfo.LocalPortNum is the port the SMP came in on: the reader's path, not the port.
        skip = PIR_SKIP | ({'LocalPort'} if lid in sw_lid_set else set())
        common = [k for k in info if k in rec and k not in skip]
        if len(common) < 20:
            c.fail(f"PortInfoRecord {lid}/{port}: only {len(common)} PortInfo fields to compare")
            continue
        pairs = [(k, rec[k], info[k]) for k in common]
        pairs += [('EndPortLid', rec.get('EndPortLid'), str(lid)), ('PortNum', rec.get('PortNum'), str(port))]
        c.same('PortInfoRecord', f"{lid}/{port}", pairs)

    # SwitchInfoRecord, by LID.
    for name, lid in sw_lids:
        rec, err = one(*saquery('SWIR', str(lid)), f"SwitchInfoRecord lid {lid}")
        if err:
            c.fail(err)
            continue
        info = smp('switchinfo', str(lid))
        # saquery prints MulticastFDBTop only when the SA's CapabilityMask2 has IsMulticastTopSupported (bit 3).
        pairs = [(k, rec.get(k), info.get(w)) for k, w in SWIR_VS_SWITCHINFO
                 if k != 'MulticastFDBTop' or 'MulticastFDBTop' in rec]
        life = num(rec.get('LifeTimeValue/PortStateChange/OpSL2VL', ''))
        pairs += [('LID', rec.get('LID'), str(lid)),
                  ('LifeTimeValue', None if life is None else str(life >> 3), info.get('LifeTime'))]
        c.same('SwitchInfoRecord', f"lid {lid} ({name})", pairs)

    # LinkRecord, by (FromLID, FromPort): every cabled port, the far end as ibnetdiscover saw it.
    links = set()
    for name, n in sorted(nodes.items()):
        for port, (peer, peer_port) in sorted(n['ports'].items()):
            links.add((lid_of(name, port), port, lid_of(peer, peer_port), peer_port))
    for frm, fport, to, tport in sorted(links):
        rec, err = one(*saquery('LR', f"{frm}/{fport}"), f"LinkRecord {frm}/{fport}")
        if err:
            c.fail(err)
            continue
        c.same('LinkRecord', f"{frm}/{fport}", [('FromLID', rec.get('FromLID'), str(frm)),
                                                 ('FromPort', rec.get('FromPort'), str(fport)),
                                                 ('ToLID', rec.get('ToLID'), str(to)),
                                                 ('ToPort', rec.get('ToPort'), str(tport))])

    # SMInfoRecord: the master sminfo sees, by its LID and in the table.
    sminfo = must(['sminfo'])
    m = re.search(r'sm lid (\d+) sm guid (0x[0-9a-fA-F]+), activity count \d+ priority (\d+) state (\d+)', sminfo)
    if not m:
        c.fail(f"sminfo: unexpected output {sminfo.strip()!r}")
    else:
        smlid, guid, prio, state = m.groups()
        rec, err = one(*saquery('SMIR', smlid), f"SMInfoRecord lid {smlid}")
        if err:
            c.fail(err)
        else:
            c.same('SMInfoRecord', f"lid {smlid}", [('LID', rec.get('LID'), smlid), ('GUID', rec.get('GUID'), guid),
                                                     ('Priority', rec.get('Priority'), prio),
                                                     ('SMState', rec.get('SMState'), state)])

    # LFTRecord, by LID and block, up to LinearFDBTop: all 64 entries against the block read raw (smpdump).
    for name, lid in sw_lids:
        top = num(smp('switchinfo', str(lid))['LinearFdbTop'])
        for block in range(top // 64 + 1):
            rec, err = one(*saquery('LFTR', f"{lid}/{block}"), f"LFTRecord {lid}/{block}")
            if err:
                c.fail(err)
                continue
            got = {}
            for line in rec['_lines']:
                mm = re.match(r'^\s*(\d+)\s+(\d+)\s*$', line)
                if mm:
                    got[int(mm.group(1))] = int(mm.group(2))
            want = check_fabric.smpdump_block(lid, block, 10)
            diff = [f"lid {block * 64 + i}: SA {got.get(block * 64 + i)}, switch {p}"
                    for i, p in enumerate(want) if got.get(block * 64 + i) != p]
            if rec.get('LID') != str(lid) or rec.get('Block') != str(block):
                c.fail(f"LFTRecord {lid}/{block}: record says LID {rec.get('LID')} block {rec.get('Block')}")
            elif diff:
                c.fail(f"LFTRecord {lid}/{block} ({name}): " + '; '.join(diff[:6]))
            else:
                c.ok('LFTRecord')

    # GUIDInfoRecord, block 0 of every CA port (ibsim answers GUIDInfo block 0 only).
    for name, port, lid in ca_ports:
        rec, err = one(*saquery('GIR', f"{lid}/0"), f"GUIDInfoRecord {lid}/0")
        if err:
            c.fail(err)
            continue
        want = table_rows(must(['smpquery', 'guidinfo', str(lid)]))[:8]
        c.same('GUIDInfoRecord', f"{lid}/0", [(f"GUID {i}", rec.get(f"GUID {i}"), hex(v)) for i, v in enumerate(want)]
               + [('LID', rec.get('LID'), str(lid)), ('Block', rec.get('Block'), '0')])

    # PKeyTableRecord: untrusted (SM_Key 0) is refused with REQ_INVALID; trusted, block 0 of every CA port
    # and every switch port 0..N.
    _, _, lid0 = ca_ports[0]
    st, _ = saquery('PKTR', f"{lid0}/1/0")
    if st != 0x0200:
        c.fail(f"PKeyTableRecord without the SM_Key: status {st if isinstance(st, str) else hex(st)}, want 0x200 REQ_INVALID")
    else:
        c.ok('PKeyTableRecord(untrusted refused)')
    pktr_keys = [(lid, port, ['smpquery', 'pkeys', str(lid)]) for _, port, lid in ca_ports] + \
                [(lid, p, ['smpquery', 'pkeys', str(lid), str(p)]) for name, lid in sw_lids for p in range(nports[name] + 1)]
    for lid, port, witness in pktr_keys:
        rec, err = one(*saquery('PKTR', f"{lid}/{port}/0", smkey=True), f"PKeyTableRecord {lid}/{port}/0")
        if err:
            c.fail(err)
            continue
        got = [int(v, 16) for line in rec['_lines'] for v in re.findall(r'0x[0-9a-fA-F]{4}\b', line)]
        # smpquery prints only PartitionCap entries (8 on a switch port 0); the block's rest reads 0.
        want = (table_rows(must(witness)) + [0] * 32)[:32]
        if rec.get('LID') != str(lid) or rec.get('Port') != str(port) or rec.get('Block') != '0':
            c.fail(f"PKeyTableRecord {lid}/{port}/0: record says {rec.get('LID')}/{rec.get('Port')}/{rec.get('Block')}")
        elif got != want:
            c.fail(f"PKeyTableRecord {lid}/{port}/0: SA {[hex(v) for v in got[:8]]}..., port {[hex(v) for v in want[:8]]}...")
        else:
            c.ok('PKeyTableRecord')

    # SL2VLTableRecord: CA (in 0, out 0); switch every (in, out) with out 1..N, in 0..N.
    def sl2vl_rows(text):
        rows = {}
        for line in text.splitlines():
            mm = re.match(r'^ports: in\s+(\d+), out\s+(\d+):\s*\|(.*)$', line)
            if mm:
                rows[(int(mm.group(1)), int(mm.group(2)))] = [int(v) for v in mm.group(3).split('|') if v.strip()]
        return rows
    sl2vl_keys = []
    for _, _, lid in ca_ports:
        sl2vl_keys += [(lid, i, o, vl) for (i, o), vl in sl2vl_rows(must(['smpquery', 'sl2vl', str(lid)])).items()]
    for name, lid in sw_lids:
        for out in range(1, nports[name] + 1):
            sl2vl_keys += [(lid, i, o, vl) for (i, o), vl in
                           sl2vl_rows(must(['smpquery', 'sl2vl', str(lid), str(out)])).items()]
    if not sl2vl_keys:
        c.fail("smpquery sl2vl: no tables read")
    for lid, i, o, want in sl2vl_keys:
        rec, err = one(*saquery('SL2VL', f"{lid}/{i}/{o}"), f"SL2VLTableRecord {lid}/{i}/{o}")
        if err:
            c.fail(err)
            continue
        got = (bar_row(rec['_lines'], 'VL:') or [[]])[0]
        if got != want:
            c.fail(f"SL2VLTableRecord {lid}/{i}/{o}: SA {got}, port {want}")
        else:
            c.ok('SL2VLTableRecord')

    # VLArbTableRecord: block 1 (low 0-31) and 3 (high 0-31) of every CA port and switch port 0..N, the
    # first VLArbLow/HighCap entries against smpquery vlarb.
    vlarb_keys = [(lid, port) for _, port, lid in ca_ports] + \
                 [(lid, p) for name, lid in sw_lids for p in range(nports[name] + 1)]
    for lid, port in vlarb_keys:
        text = must(['smpquery', 'vlarb', str(lid), str(port)])
        if 'No VLArbitration tables' in text:
            c.ok('VLArbTableRecord(skipped: base switch port 0 has none)')
            continue
        caps = re.search(r'LowCap (\d+) HighCap (\d+)', text)
        vls = [[int(v, 16) for v in re.findall(r'0x[0-9a-fA-F]+', ln)] for ln in text.splitlines() if ln.startswith('VL ')]
        wts = [[int(v, 16) for v in re.findall(r'0x[0-9a-fA-F]+', ln)] for ln in text.splitlines() if ln.startswith('WEIGHT')]
        if not caps or len(vls) < 2 or len(wts) < 2:
            c.fail(f"smpquery vlarb {lid} {port}: cannot parse")
            continue
        for block, table, cap in ((1, 0, int(caps.group(1))), (3, 1, int(caps.group(2)))):
            rec, err = one(*saquery('VLAR', f"{lid}/{port}/{block}"), f"VLArbTableRecord {lid}/{port}/{block}")
            if err:
                c.fail(err)
                continue
            got_vl = sum(bar_row(rec['_lines'], 'VL'), [])[:cap]
            got_wt = sum(bar_row(rec['_lines'], 'Weight'), [])[:cap]
            if (got_vl, got_wt) != (vls[table][:cap], wts[table][:cap]):
                c.fail(f"VLArbTableRecord {lid}/{port}/{block}: SA VL {got_vl} W {got_wt}, "
                       f"port VL {vls[table][:cap]} W {wts[table][:cap]}")
            else:
                c.ok('VLArbTableRecord')

    # Whole tables: one MAD's worth (or all, when fewer exist), and the records real.
    totals = {'NR': len(sw_lids) + len(ca_ports), 'PIR': len(pir_keys), 'SWIR': len(sw_lids), 'LR': len(links),
              'SMIR': args.expect_sms, 'LFTR': len(sw_lids), 'GIR': len(ca_ports), 'PKTR': len(pktr_keys),
              'SL2VL': len(sl2vl_keys), 'VLAR': 2 * len(vlarb_keys)}
    all_lids = {lid for _, _, lid in ca_ports} | sw_lid_set
    for q, cap in CAPACITY.items():
        st, recs = saquery(q, smkey=(q == 'PKTR'))
        want = min(cap, totals[q])
        if st != 0:
            c.fail(f"whole table {q}: status {st if isinstance(st, str) else hex(st)}")
        elif len(recs) != want:
            c.fail(f"whole table {q}: {len(recs)} records, want {want} (one MAD holds {cap}, {totals[q]} exist)")
        else:
            head = recs[:CONTENT_BYTES // RECORD_SIZE[q]]
            strangers = [r.get(LID_FIELD[q]) for r in head if num(r.get(LID_FIELD[q], '')) not in all_lids]
            if q == 'LR':
                strangers += [f"{r['FromLID']}/{r['FromPort']}->{r['ToLID']}/{r['ToPort']}" for r in head
                              if (num(r['FromLID']), num(r['FromPort']), num(r['ToLID']), num(r['ToPort'])) not in links]
            if strangers:
                c.fail(f"whole table {q}: records about LIDs or links the fabric does not have: {strangers[:6]}")
            else:
                c.ok(f"whole table {q}")

    for kind, n in sorted(c.counts.items()):
        print(f"sa_check_records: {kind}: {n} ok")
    for e in c.errors[:60]:
        print(f"sa_check_records: FAIL: {e}", file=sys.stderr)
    if len(c.errors) > 60:
        print(f"sa_check_records: ... {len(c.errors)} failures in all", file=sys.stderr)
    print(f"sa_check_records: {sum(c.counts.values())} checks ok, {len(c.errors)} failed")
    if RETRIES['count']:
        print(f"sa_check_records: {RETRIES['count']} queries sent again after no answer (last: {RETRIES['last']})")
    return 1 if c.errors else 0


if __name__ == '__main__':
    sys.exit(main())
