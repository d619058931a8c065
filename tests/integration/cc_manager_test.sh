#!/usr/bin/env bash
# The congestion-control manager (smd/cc, congestion_control: in the policy) on ibsim's two-switch fabric
# (2 switches, 4 hosts).
#
# What ibsim 0.10 can show (measured 2026-12-07, also with OpenSM 3.3.23 and `congestion_control TRUE`, and
# with ibccconfig): it stores no CC attribute. Every CC Get is answered with status 0 and all-zero data; a
# CACongestionSetting Set is answered with status 0 and its own data reflected, but a Get after it reads zero
# again; a SwitchCongestionSetting Set is refused (MAD status 0x0008, method not supported). So the values smd
# writes cannot be read back here (tests/unit/smd/cc/cc_agent_test.cpp checks them against fake agents that store,
# as real switches and HCAs do). What this test checks on ibsim:
#   1. enabled: the subnet comes up; the manager reads every switch (SwitchCongestionSetting) and CA port
#      (CACongestionSetting, CongestionInfo), writes where they differ, does not take a reflected echo for a
#      stored value (its read-back shows "not held", as ibccquery, the independent witness, reads zero), and a
#      second sweep makes it read and write again (a reset switch is written again).
#   2. disabled (the default): nothing is logged about congestion control (no pass runs).
. "$(dirname "$0")/health_common.sh"
NET="${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
ibsim_start "${NET}"

write_policy "${IBSIM_WORKDIR}/cc.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 0" \
  "congestion_control:" "  enabled: true" "  switch:" "    control_map: 0x4" "    threshold: 15" "    packet_size: 8" \
  "  ca:" "    control_map: 0x1" "    ccti_timer: [150]" '  cct: "0:0,1:1"'
start_daemon smd "${IBSIM_WORKDIR}/cc.yaml"
wait_log smd "SUBNET UP" 60
wait_log smd "congestion control: pass 1: " 30
line=$(grep -E "congestion control: pass 1: " "${IBSIM_WORKDIR}/smd.log")
echo "${line}"
# 2 switches and 4 CA ports; 2 + 4 + 4 Gets answered (zeros); 2 switch Sets refused; 4 CA Sets echoed but
# not held when read back; ControlTableCap 0, so no CCT block.
grep -qF "2 switches, 4 CA ports; 10 reads answered, 6 Sets (4 echoed, 0 not echoed; 0 held, 4 not held on read-back), 2 MADs unanswered" <<<"${line}" ||
  { echo "FAIL: unexpected pass summary: ${line}" >&2; exit 1; }
sim timeout 30 ibnetdiscover >"${IBSIM_WORKDIR}/net.txt"
switch_lids=$(sed -n 's/^Switch.*base port 0 lid \([0-9]*\).*/\1/p' "${IBSIM_WORKDIR}/net.txt")
ca_lids=$(sed -n 's/^\[1\].*"H-[0-9a-f]*"\[[0-9]*\].*# ".*" lid \([0-9]*\) .*/\1/p' "${IBSIM_WORKDIR}/net.txt" | sort -u)
[[ $(wc -w <<<"${switch_lids}") -eq 2 ]] || { cat "${IBSIM_WORKDIR}/net.txt" >&2; echo "FAIL: switch LIDs" >&2; exit 1; }
for lid in ${switch_lids}; do
  sim timeout 10 ibccquery SwitchCongestionSetting "${lid}" >"${IBSIM_WORKDIR}/ss.txt"
  grep -q "^Threshold:\.*0x00$" "${IBSIM_WORKDIR}/ss.txt" || { cat "${IBSIM_WORKDIR}/ss.txt" >&2; exit 1; }
  grep -q "^Control_Map:\.*0x00000000$" "${IBSIM_WORKDIR}/ss.txt" || { cat "${IBSIM_WORKDIR}/ss.txt" >&2; exit 1; }
done
for lid in ${ca_lids}; do
  sim timeout 10 ibccquery CACongestionSetting "${lid}" >"${IBSIM_WORKDIR}/cs.txt"
  grep -q "^Control_Map:\.*0x0000$" "${IBSIM_WORKDIR}/cs.txt" || { cat "${IBSIM_WORKDIR}/cs.txt" >&2; exit 1; }
done
# A sweep later (smctl sweep): the manager asks again, so a switch reset or added meanwhile would be written.
smctl sweep >/dev/null
wait_log smd "congestion control: pass 2: " 30
kill -9 "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}" 2>/dev/null || true

write_policy "${IBSIM_WORKDIR}/off.yaml" "${IBSIM_WORKDIR}/state-off" "  sweep_interval: 0"
start_daemon off "${IBSIM_WORKDIR}/off.yaml"
wait_log off "SUBNET UP" 60
sleep 1
if grep -q "congestion control" "${IBSIM_WORKDIR}/off.log"; then
  grep "congestion control" "${IBSIM_WORKDIR}/off.log" >&2
  echo "FAIL: congestion control ran with the default policy" >&2
  exit 1
fi
echo "PASS: cc_manager_test"
