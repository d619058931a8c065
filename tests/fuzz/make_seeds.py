#!/usr/bin/env python3
"""Writes the binary seed files of tests/fuzz/corpus/ (the text seeds are copied from the repository).

Field values are those ibsim 0.10 reports for the bundled fabrics (smpquery on a running ibsim), laid out
by hand from the IBA tables cited in mad/*.cpp; run from the repository root:
    python3 tests/fuzz/make_seeds.py
"""
import os
import shutil
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def pad(b, n=64):
    assert len(b) <= n
    return b + bytes(n - len(b))


def node_info(node_type, ports, guid, port_guid, local_port):
    # base, class, type, ports, sysimg, node GUID, port GUID, partcap, devid, revision, local port + vendor
    return pad(struct.pack(">BBBBQQQHHIB", 1, 1, node_type, ports, guid, guid, port_guid, 64, 0xB924, 0, local_port)
               + (0x0002C9).to_bytes(3, "big"))


def port_info(lid, state, phys, lmc, width=2, speed=1, local_port=1):
    b = bytearray(64)
    struct.pack_into(">QQHHIHH", b, 0, 0, 0xFE80000000000000, lid, 1, 0x02510A68, 0, 0)
    b[28], b[29], b[30], b[31] = local_port, 3, 3, width
    b[32] = (1 << 4) | state          # LinkSpeedSupported SDR, PortState
    b[33] = (phys << 4) | 2           # PortPhysicalState, LinkDownDefaultState Polling
    b[34] = lmc & 7
    b[35] = (speed << 4) | 1          # LinkSpeedActive, LinkSpeedEnabled
    b[36] = (5 << 4)                  # NeighborMTU 4096
    b[37] = (4 << 4)                  # VLCap VL0-7
    b[41] = 5                         # MTUCap 4096
    b[43] = (4 << 4)                  # OperationalVLs
    b[50] = 1                         # GUIDCap
    b[51] = 18                        # SubnetTimeOut
    return bytes(b)


def switch_info(cap, top):
    b = bytearray(64)
    struct.pack_into(">HHHHBBBB", b, 0, cap, 0, 1024, top, 0, 0xFF, 0xFF, (18 << 3) | (1 << 2))
    struct.pack_into(">HH", b, 12, 1, 32)
    b[16] = 0x80
    return bytes(b)


def smp(mgmt_class, method, attr, mod, hops, data, status=0):
    b = bytearray(256)
    b[0], b[1], b[2], b[3] = 1, mgmt_class, 1, method
    struct.pack_into(">H", b, 4, status)
    if mgmt_class == 0x81:
        b[6], b[7] = (len(hops) + 1 if method & 0x80 else 0), len(hops)
        struct.pack_into(">HH", b, 32, 0xFFFF, 0xFFFF)
        for i, h in enumerate(hops):
            b[129 + i] = h
    struct.pack_into(">QHHI", b, 8, 0x0000000100000042, attr, 0, mod)
    b[64:128] = data
    return bytes(b)


def notice(trap, lid, details):
    b = bytearray(80)
    b[0] = 0x80 | 1                   # generic, urgent
    b[1:4] = (2).to_bytes(3, "big")   # producer: switch
    struct.pack_into(">HHH", b, 4, trap, lid, 1)
    b[10:10 + len(details)] = details
    return bytes(b)


# The shape of ibnetdiscover output (as in tests/unit/routing/netfile/netfile_test.cpp), tabs included.
IBNETDISCOVER = b"""#
vendid=0x2c9
devid=0xcf08
sysimgguid=0x2c9030011a2b0
switchguid=0x2c9030011a2b0(2c9030011a2b0)
Switch\t36 "S-0002c9030011a2b0"\t\t# "MF0;leaf01:MSB7700/U1" enhanced port 0 lid 3 lmc 0
[1]\t"H-0002c90300e0b720"[1](2c90300e0b721) \t\t# "node01 mlx5_0" lid 5 4xEDR
[2]\t"H-0002c90300e0b730"[1](2c90300e0b731) \t\t# "node02 mlx5_0" lid 6 4xEDR

caguid=0x2c90300e0b720
Ca\t1 "H-0002c90300e0b720"\t\t# "node01 mlx5_0"
[1](2c90300e0b721) \t"S-0002c9030011a2b0"[1]\t\t# lid 5 lmc 0 "MF0;leaf01:MSB7700/U1" lid 3 4xEDR

caguid=0x2c90300e0b730
Ca\t1 "H-0002c90300e0b730"\t\t# "node02 mlx5_0"
[1](2c90300e0b731) \t"S-0002c9030011a2b0"[2]\t\t# lid 6 lmc 1 "MF0;leaf01:MSB7700/U1" lid 3 4xEDR
"""


def sa_mad(method, attr, comp_mask, record, sm_key=0, tid=0x5A):
    # SA MAD (IBA 15.2.1.1): MAD header 24, RMPP header 12 (unused in requests), SM_Key 36, AttributeOffset
    # 44, ComponentMask 48, record at 56; the last byte of a sa_request input is the requester's LID.
    head = struct.pack(">BBBBHHQHHI", 1, 0x03, 2, method, 0, 0, tid, attr, 0, 0) + bytes(12)
    head += struct.pack(">QHHQ", sm_key, 0, 0, comp_mask)
    return (head + record + bytes(200 - len(record)))[:255] + b"\x02"


def gid(guid):
    return struct.pack(">QQ", 0xFE80000000000000, guid)


def main():
    sw = node_info(2, 8, 0x200000, 0x200000, 0)
    ca = node_info(1, 1, 0x100000, 0x100001, 1)
    put("node_info", "ibsim-switch", sw)
    put("node_info", "ibsim-ca", ca)
    put("node_description", "host-0", pad(b"host-0"))
    put("node_description", "hca-full", b"node-17 HCA-1 mlx5_0 with a description filling all 64 bytes!!"[:64].ljust(64, b"x"))
    put("port_info", "ca-active", port_info(1, 4, 5, 0))
    put("port_info", "switch-port0", port_info(7, 4, 5, 0, local_port=0))
    put("port_info", "down", port_info(0, 1, 2, 0, width=1))
    put("switch_info", "ibsim", switch_info(30720, 0x40))
    put("switch_info", "cap0", switch_info(0, 0))
    put("lft_block", "block0", bytes([0] + [1, 2, 3, 4] * 15 + [255, 255, 255]))
    put("sm_info", "master", pad(struct.pack(">QQIB", 0x100001, 0, 42, (15 << 4) | 3)))
    put("sm_info", "standby", pad(struct.pack(">QQIB", 0x100003, 0x1234, 7, (1 << 4) | 2)))
    put("notice", "trap128", notice(128, 3, struct.pack(">H", 3)))
    put("notice", "trap144", notice(144, 5, struct.pack(">HHI", 0, 5, 0x02510A68)))
    put("smp_header", "dr-getresp-nodeinfo", smp(0x81, 0x81, 0x0011, 0, [1, 5, 3], sw))
    put("smp_header", "lid-get-sminfo", smp(0x01, 0x01, 0x0020, 0, [], bytes(64)))
    put("smp_header", "trap", smp(0x01, 0x05, 0x0002, 0, [], notice(128, 3, b"\x00\x03")[:64]))
    # discovery: answer bytes (control, then per attribute); see discovery_fuzz.cpp for the layout.
    put("discovery", "ca-then-switch", bytes([0x10, 1, 0x00, 1,  0x00,  0x40, 0x01,
                                               0x20, 4, 0x01, 1,  0x00,  0x00, 0x78,
                                               0x40, 0x02, 0x40, 0x00, 0x20, 0x00, 0x20, 0x00, 0x10, 0x00]))
    put("discovery", "switch-sm", bytes([0x20, 3, 0x05, 0, 0x01, 0x00, 0x78, 0x40, 0x03, 0x40, 0x00,
                                          0x40, 0x00, 0x10, 0x00, 0x10, 1, 0x06, 1, 0x02, 0x40, 0x04]))
    for name in ["twoswitch.net", "ring.net", "leafspine.net"]:
        put("netfile", name, open(os.path.join(ROOT, "tests", "fabrics", name), "rb").read())
    put("netfile", "ibnetdiscover.net", IBNETDISCOVER)
    put("policy", "smd.yaml", open(os.path.join(ROOT, "config", "smd.yaml"), "rb").read())
    put("policy", "small.yaml", b"sm:\n  priority: 3\nrouting:\n  engines: [updn, minhop]\n  updn:\n    roots: [0x200000]\n"
                               b"lid:\n  lmc: 2\nmetrics:\n  listen: '[::1]:9464'\ncontrol:\n  mode: \"0660\"\n")
    # Found by the policy target: yaml-cpp 0.7's LoadAll looped forever on it (config/yaml_scan.h).
    put("policy", "stray-comma.yaml", b",sm:\n  p: '[946'\n6\n")
    put("partitions_conf", "man-examples.conf",
        b"Default=0x7fff : ALL, ALL_SWITCHES=full, SELF=full ;\n"
        b"NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;\n"
        b"ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;\n"
        b"ShareIO = 0x80 : defmember=limited : 0x123456, 0x123457, 0x123458=full;\n")
    put("partitions_conf", "groups.conf",
        b"Default=0x7fff,ipoib,rate=7,scope=2,scope=5:\n  mgid=ff12:401b::0707,sl=1 # IPv4\n"
        b"  mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2\n  ALL=full;\n")
    put("guid2lid", "three-ports", b"0x0000000000200000 0x0001 0x0001\n0x0000000000100001 0x0004 0x0007\n"
                                   b"# comment\n0x0002c90300001234 0x0008 0x0008\n")
    # sa_request: requests against the fuzz target's fabric (CA A 0xA01 at LID 2, CA B 0xB01 at LIDs 4..5).
    path = bytes(8) + gid(0xB01) + gid(0xA01) + struct.pack(">HH", 4, 2)
    put("sa_request", "get-path-gids", sa_mad(0x01, 0x35, (1 << 2) | (1 << 3), path))
    put("sa_request", "gettable-path-slid", sa_mad(0x12, 0x35, 1 << 5, path))
    put("sa_request", "get-node-lid", sa_mad(0x01, 0x11, 1, struct.pack(">H", 2)))
    put("sa_request", "gettable-portinfo-capmask", sa_mad(0x12, 0x12, (1 << 2) | (1 << 7),
                                                         struct.pack(">HBBQQHHI", 0, 0, 0x80, 0, 0, 0, 0, 0x200)))
    service = struct.pack(">Q", 0x1000) + gid(0xA01) + struct.pack(">HHI", 0xFFFF, 0, 60) + bytes(16) + b"fuzz.svc"
    put("sa_request", "set-service", sa_mad(0x02, 0x31, 0b10011, service))
    inform = bytes(16) + struct.pack(">HHHBBHHI", 0xFFFF, 0, 0, 1, 1, 0xFFFF, 65, 1 << 8) + b"\x00\xff\xff\xff"
    put("sa_request", "set-inform-65", sa_mad(0x02, 0x03, 0, inform))


if __name__ == "__main__":
    main()
