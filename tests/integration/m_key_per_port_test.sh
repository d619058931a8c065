#!/usr/bin/env bash
# security.m_key_per_port on ibsim, checked by what ibsim can show. ibsim 0.10 neither checks nor stores
# PortInfo:M_Key (measured: `smpquery -K portinfo` reads Mkey 0, ProtectBits 0 and MkeyLeasePeriod 4089 on every
# port whatever an SM wrote, and the GetResp to a Set echoes the same), so the per-port keys themselves are
# tested against SMAs that check them on the unit-test fabric (tests/unit/smd/sweep/m_key_per_port_test.cpp). Here:
# state_dir/neighbors, which a restarted smd needs to name the port at the end of each directed path, holds
# the SM's port and both ends of every cable exactly as ibnetdiscover reports them (peer node GUID and port,
# and the GUID of the port whose M_Key guards it: a switch's port 0, or the CA port); guid2mkey stays empty,
# since no port echoed a key (smd records only keys a port confirmed); a second smd --once (a new process,
# which reads both files) brings the subnet up and leaves the neighbors file as it was.
. "$(dirname "$0")/once_common.sh"
SECRET=0x0123456789abcdef
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16 "security:" "  m_key: ${SECRET}" \
  "  m_key_protect: 2" "  m_key_lease_period: 90" "  m_key_per_port: true"

# check_neighbors TAG: state_dir/neighbors against ibnetdiscover's cables.
check_neighbors() {
  sim timeout 120 ibnetdiscover 2>/dev/null >"${IBSIM_WORKDIR}/ibnetdiscover.$1"
  python3 - "${IBSIM_WORKDIR}/ibnetdiscover.$1" "${ONCE_STATE}/neighbors" "$1" <<'PY'
import re, sys
topo, neighbors, tag = sys.argv[1:4]
want, node = set(), None
for line in open(topo):
    m = re.match(r'^(Switch|Ca)\s+\d+\s+"[SH]-([0-9a-f]+)"', line)
    if m:
        node = int(m.group(2), 16)
        continue
    m = re.match(r'^\[(\d+)\](?:\([0-9a-f]+\))?\s+"([SH])-([0-9a-f]+)"\[(\d+)\](?:\(([0-9a-f]+)\))?', line)
    if m and node is not None:
        peer = int(m.group(3), 16)
        key_port = peer if m.group(2) == "S" else int(m.group(5), 16)
        kind = "switch" if m.group(2) == "S" else "ca"
        want.add(f"0x{node:016x} {m.group(1)} 0x{peer:016x} {m.group(4)} 0x{key_port:016x} {kind}")
got = {l.strip() for l in open(neighbors) if l.strip() and not l.startswith("sm ")}
print(f"{tag}: ibnetdiscover {len(want)} cable ends, neighbors {len(got)}, "
      f"{len(want - got)} missing, {len(got - want)} not in the fabric")
for l in sorted(want ^ got):
    print("  " + l)
sys.exit(0 if want == got and len(want) == 48 else 1)
PY
}
check_neighbors first
grep -qx 'sm 0x0000000000100000 1 0x0000000000100001 ca' "${ONCE_STATE}/neighbors"  # SIM_HOST: host-0, port 1
[[ -f "${ONCE_STATE}/guid2mkey" && ! -s "${ONCE_STATE}/guid2mkey" ]]
cp "${ONCE_STATE}/neighbors" "${IBSIM_WORKDIR}/neighbors.first"

sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/smd2.out" \
  2>"${IBSIM_WORKDIR}/smd2.err"
cat "${IBSIM_WORKDIR}/smd2.out"
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/smd2.out"
check_neighbors restarted
cmp "${IBSIM_WORKDIR}/neighbors.first" "${ONCE_STATE}/neighbors"
check_with_diags --expect-switches 6 --expect-cas 16
