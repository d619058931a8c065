#!/usr/bin/env bash
# Named partitions on tests/fabrics/twoswitch.net (4 hosts; smd, the SM, on host-0), with the daemon:
#   1. every P_Key table read back with `smpquery pkeys` (CA ports, switch ports 0, switch ports facing CAs)
#      equals what check_pkeys.py computes from the spec below and ibnetdiscover;
#   2. the SA honours the partitions (sa_check_partitions.py, saquery): a PathRecord only between ports that
#      share a partition, carrying the shared P_Key; NodeRecords only of nodes sharing one with the requester;
#   3. SIGHUP with one host's membership changed: the tables then hold the new membership, the SA answers by
#      it, and the heavy sweep wrote only the two P_KeyTable blocks that differ.
#
# ibsim GUIDs (checked below with ibnetdiscover): host-N's port is 0x100001 + 2N. The policy
# (samples/partitions-named.yaml, its checker spec samples/partitions-named.json), SM on host-0:
#   0x7fff  ALL limited (SELF full is added)      host-0 full, the rest limited: hosts share nothing here
#   0x000a  index0, default full: host-1 (a bare GUID), host-2 ({guid:})
#   0x000b  default limited: host-1, host-3 (limited; full after the SIGHUP)
#   0x000c  ALL_CAS limited, {node: "host-0"} full
# Pairs: host-1/host-2 share 0x000a (full-full); host-1/host-3 are both limited in 0x000b (no path until the
# SIGHUP makes host-3 full); host-2/host-3 share nothing.
. "$(dirname "$0")/sa_common.sh"  # with daemon_common.sh (start_daemon, wait_log)
CHECK_PKEYS="$(cd "$(dirname "$0")" && pwd)/check_pkeys.py"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
POLICY="${IBSIM_WORKDIR}/smd.yaml"
STATE="${IBSIM_WORKDIR}/state"
SOCK="${STATE}.control.socket"
LOG="${IBSIM_WORKDIR}/smd.log"

# The GUIDs the policy names are the ones the fabric has.
sim timeout 30 ibnetdiscover >"${IBSIM_WORKDIR}/net0"
for n in 0 1 2 3; do
  grep -qE "^\\[1\\]\\($(printf '%x' $((0x100001 + 2 * n)))\\).*\"sw-" "${IBSIM_WORKDIR}/net0" ||
    { echo "FAIL: host-${n}'s port GUID is not $(printf '0x%x' $((0x100001 + 2 * n)))" >&2; exit 1; }
  grep -qE "^Ca.*\"H-0*$(printf '%x' $((0x100000 + 2 * n)))\".*# \"host-${n}\"" "${IBSIM_WORKDIR}/net0" ||
    { echo "FAIL: host-${n} is not node 0x$(printf '%x' $((0x100000 + 2 * n)))" >&2; exit 1; }
done

SAMPLE_YAML="${SMD_SOURCE_DIR}/tests/integration/samples/partitions-named.yaml"
SAMPLE_JSON="${SMD_SOURCE_DIR}/tests/integration/samples/partitions-named.json"
H3_YAML='{guid: 0x0000000000100007, membership: limited}'
H3_JSON='"0x100007", "limited"'
grep -qF "${H3_YAML}" "${SAMPLE_YAML}" && grep -qF "${H3_JSON}" "${SAMPLE_JSON}"

# set_policy MEMBERSHIP: the sample policy with host-3's 0x000b membership MEMBERSHIP, replaced in one
# rename (the daemon never reads half of one).
set_policy() {
  { printf 'sm:\n  state_dir: %s\n  sweep_interval: 600\n' "${STATE}"
    sed "s/${H3_YAML}/{guid: 0x0000000000100007, membership: $1}/" "${SAMPLE_YAML}"
    printf 'control:\n  socket: %s\nmetrics:\n  listen: 127.0.0.1:0\n' "${SOCK}"; } >"${POLICY}.new"
  chmod 0644 "${POLICY}.new"
  mv -f "${POLICY}.new" "${POLICY}"
}
# spec MEMBERSHIP: the same for check_pkeys.py ({node: "host-0"} is written there as host-0's port GUID).
spec() { sed "s/${H3_JSON}/\"0x100007\", \"$1\"/" "${SAMPLE_JSON}" >"${IBSIM_WORKDIR}/spec.json"; }
report() { timeout 10 "${SMCTL}" --socket "${SOCK}" --json report >"${IBSIM_WORKDIR}/report.json"; }
report_field() {
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r.get("result", r)[sys.argv[2]])' \
    "${IBSIM_WORKDIR}/report.json" "$1"
}

set_policy limited
start_daemon smd "${POLICY}"
wait_log smd "SUBNET UP" 60
sa_wait_sa 20

# 1. The tables.
spec limited
sim timeout 60 python3 "${CHECK_PKEYS}" "${IBSIM_WORKDIR}/spec.json"

# 2. The SA. host-0 is a full member of 0x7fff and 0x000c, so it shares a partition with every host; host-3
# holds only limited entries and sees no other host but host-0. Switch ports 0 are limited 0x7fff members.
sa_check partitions \
  --path host-1:host-2=0x800a --path host-2:host-1=0x800a \
  --path host-1:host-3=none --path host-3:host-1=none \
  --path host-2:host-3=none --path host-3:host-2=none \
  --path host-0:host-3=0xffff --path host-3:host-0=0x7fff \
  --nodes host-2=host-0,host-1,host-2 --nodes host-1=host-0,host-1,host-2

# 3. SIGHUP: host-3 becomes a full member of 0x000b. What differs: host-3's block 0 (0x000b -> 0x800b at the
# same index) and the P_Key table of the switch port facing it (sw-1 port 4); nothing else. (ibsim's switches
# report Inbound/OutboundEnforcementCap 0, so smd sets no PartitionEnforcement bits: no PortInfo Set either.)
report
first_written=$(report_field pkey_blocks_written)
(( first_written > 0 )) || { echo "FAIL: the first heavy sweep wrote no P_Key block" >&2; exit 1; }
before=$(grep -c "SIGHUP: policy [0-9]* read from" "${LOG}" || true)
set_policy full
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "SIGHUP: policy [0-9]+ read from" 10 $((before + 1))
policy=$(grep -o "SIGHUP: policy [0-9]* read from" "${LOG}" | tail -n 1 | awk '{print $3}')
wait_log smd "heavy sweep [0-9]+ done under policy ${policy} \(" 30
report
cat "${IBSIM_WORKDIR}/report.json"
written=$(report_field pkey_blocks_written)
[[ ${written} == 2 ]] || { echo "FAIL: the sweep after the SIGHUP wrote ${written} P_Key blocks, expected 2" >&2; exit 1; }
for field in port_sets lft_blocks_written; do
  [[ $(report_field "${field}") == 0 ]] || { echo "FAIL: the sweep after the SIGHUP has ${field} $(report_field "${field}")" >&2; exit 1; }
done
spec full
sim timeout 60 python3 "${CHECK_PKEYS}" "${IBSIM_WORKDIR}/spec.json"
sa_check partitions \
  --path host-1:host-3=0x000b --path host-3:host-1=0x800b \
  --path host-2:host-3=none --path host-1:host-2=0x800a \
  --nodes host-3=host-0,host-1,host-3

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${LOG}"
