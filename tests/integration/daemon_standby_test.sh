#!/usr/bin/env bash
# Two smd on different nodes of one fabric (SIM_HOST): the higher priority becomes MASTER, the other
# STANDBY (sminfo, from infiniband-diags, sees the master). kill -9 of the master: the standby takes over
# within poll_interval x (poll_retries + 1) plus one sweep, and no LID changes. Both have the PerfMgr on:
# only the master reads counters; the standby says so, and starts reading once it has taken over.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a" "  priority: 10" "  poll_interval: 1" \
  "  poll_retries: 2" "perfmgr:" "  enabled: true" "  interval: 1"
write_policy "${IBSIM_WORKDIR}/b.yaml" "${IBSIM_WORKDIR}/state-b" "  priority: 5" "  poll_interval: 1" \
  "  poll_retries: 2" "perfmgr:" "  enabled: true" "  interval: 1"
SMCTL_BIN="${SMD_BUILD_DIR}/smd/smctl"
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
start_daemon b "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=host-1
wait_log b "-> STANDBY" 30
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo"
grep -Eq "sm guid 0x100001, activity count [0-9]+ priority 10 state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo"
wait_log a "perfmgr: reading PortCounters" 10
if "${SMCTL_BIN}" --socket "${IBSIM_WORKDIR}/state-b.control.socket" counters 2>"${IBSIM_WORKDIR}/b-counters"; then
  echo "FAIL: the standby answered counters" >&2
  exit 1
fi
grep -q "the PerfMgr is not running: .*(this SM is STANDBY)" "${IBSIM_WORKDIR}/b-counters"
if grep -q "perfmgr: reading" "${IBSIM_WORKDIR}/b.log"; then echo "FAIL: the standby started its PerfMgr" >&2; exit 1; fi
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.before"

kill -9 "${DAEMON_PID_a}"
start=${SECONDS}
wait_log b "-> MASTER" 10
wait_log b "SUBNET UP" 20
echo "takeover after $((SECONDS - start)) s"
sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"${IBSIM_WORKDIR}/lids.after"
diff "${IBSIM_WORKDIR}/lids.before" "${IBSIM_WORKDIR}/lids.after"
[[ -s "${IBSIM_WORKDIR}/lids.after" ]]
sim timeout 20 sminfo | grep -q "priority 5 state 3 SMINFO_MASTER"
wait_log b "perfmgr: reading PortCounters every 1 s" 10
check_with_diags --expect-switches 6 --expect-cas 16
