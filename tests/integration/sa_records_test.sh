#!/usr/bin/env bash
# The SA's records, one at a time, against the ports themselves: ClassPortInfo, NodeRecord, PortInfoRecord,
# SwitchInfoRecord, LinkRecord, SMInfoRecord, LFTRecord, MFTRecord (after two joins, against smpdump's MFT
# block), GUIDInfoRecord, PKeyTableRecord (refused without
# the SM_Key, then with it), SL2VLTableRecord and VLArbTableRecord, each compared with smpquery/smpdump/
# sminfo/ibnetdiscover (sa_check_records.py); one whole-table query per type returns one MAD's worth.
# twoswitch: 6 nodes, parallel cables, small enough to ask for every record of every port.
# SA_TEST_SM=opensm runs the same checks against OpenSM's SA (sa_common.sh).
. "$(dirname "$0")/sa_common.sh"
# SA_RECORDS_NET=NETFILE runs it on another fabric (leafspine: ~50 s; kary4-3 asks too many records for
# one saquery each: thousands of SL2VL in/out pairs).
if [[ -n "${SA_RECORDS_NET:-}" ]]; then
  sa_bringup "${SA_RECORDS_NET}" sm host-0 10
  check_with_diags
else
  sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" sm host-0 10
  check_with_diags --expect-switches 2 --expect-cas 4
fi
# Both SAs serve multicast (MCMemberRecord) and say so (ClassPortInfo CapabilityMask bit 9).
sa_check records --expect-sms 1 --expect-mcast
# saquery -s: "every port whose CapabilityMask has IsSM", a PortInfoRecord GetTable with CapabilityMask
# match (AttributeModifier bit 31): the SM's own port, and only ports that really advertise IsSM.
saq -s >"${IBSIM_WORKDIR}/sm-ports.txt" 2>&1
sm_port_lids=$(sed -nE 's/^[[:space:]]*EndPortLid\.+([0-9]+)$/\1/p' "${IBSIM_WORKDIR}/sm-ports.txt")
own_lid=$(sim timeout 10 smpquery -D portinfo 0 | sed -nE 's/^Lid:\.+([0-9]+)$/\1/p')
grep -qx "${own_lid}" <<<"${sm_port_lids}" || {
  cat "${IBSIM_WORKDIR}/sm-ports.txt" >&2
  echo "FAIL: saquery -s does not list the SM's port (LID ${own_lid})" >&2
  exit 1
}
for lid in ${sm_port_lids}; do
  sim timeout 10 smpquery portinfo "${lid}" 1 | grep -q "IsSM" ||
    sim timeout 10 smpquery portinfo "${lid}" 0 | grep -q "IsSM" || { echo "FAIL: saquery -s listed LID ${lid} without IsSM" >&2; exit 1; }
done
echo "saquery -s: IsSM ports at LID(s) $(echo ${sm_port_lids})"
# MulticastForwardingTableRecord (saquery MFTR LID): once host-0 (behind sw-0) and host-2 (behind sw-1)
# joined the IPoIB broadcast group, each switch's record of MFT block 0, position 0 shows for MLID 0xC000
# the port mask the switch itself holds (smpdump of MulticastForwardingTable block 0: its first word).
printf '0x%016x\n' 0x100001 0x100005 >"${IBSIM_WORKDIR}/mcast-members.txt"
sim env SIM_HOST=host-1 timeout 60 "${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client" --timeout-ms 2000 \
  --retries 3 join --mgid ff12:401b:ffff::ffff:ffff --ports "${IBSIM_WORKDIR}/mcast-members.txt" --join-state 1 \
  >"${IBSIM_WORKDIR}/mcast-join.jsonl" 2>&1 || { tail -n 3 "${IBSIM_WORKDIR}/mcast-join.jsonl" >&2; echo "FAIL: join" >&2; exit 1; }
sim timeout 60 ibnetdiscover >"${IBSIM_WORKDIR}/net-mft.txt"
for lid in $(sed -nE 's/^Switch.*base port 0 lid ([0-9]+).*/\1/p' "${IBSIM_WORKDIR}/net-mft.txt"); do
  held=0000
  for _ in $(seq 1 100); do  # the SM writes the tree a moment after the joins
    held=$(sim timeout 10 smpdump "${lid}" 0x1b 0 2>/dev/null | awk 'NR == 1 { print $1 }')
    [[ ${held} != 0000 && -n ${held} ]] && break
    sleep 0.1
  done
  shown=$(saq MFTR "${lid}" | awk '$1 == "0xc000" { sub(/^0x/, "", $2); print $2; exit }')
  if [[ ${held} == 0000 || ${shown} != "${held}" ]]; then
    echo "FAIL: switch LID ${lid}: MFTRecord shows MLID 0xc000 mask '${shown}', the switch holds '${held}'" >&2
    exit 1
  fi
  echo "MFTRecord: switch LID ${lid}, MLID 0xc000 mask 0x${shown} (as smpdump reads it)"
done
