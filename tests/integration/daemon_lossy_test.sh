#!/usr/bin/env bash
# The daemon on a lossy fabric: 2% of SMPs dropped at every switch port (ibsim `Error`, traps included).
# It must bring the 4-ary 3-tree up, repair an Unlink and a ReLink, and report the SMPs it retried on
# the control socket; infiniband-diags then find every LID, every link Active and every route
# delivering (with the loss cleared, as they would suffer it too).
. "$(dirname "$0")/daemon_common.sh"
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
ibsim_start "${NET}"
ibsim_switch_errors "${NET}" 2
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 1"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
ups=$(grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log")

# sw-L1-0 port 5 is an up-link from level 1 to level 2.
ibsim_console 'Unlink "sw-L1-0"[5]'
wait_log smd "SUBNET UP" 60 $((ups + 1))
ups=$(grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log")
ibsim_console 'ReLink "sw-L1-0"[5]'
wait_log smd "SUBNET UP" 60 $((ups + 1))

"${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state.control.socket" --json status \
  >"${IBSIM_WORKDIR}/status.json"
retries=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s.get("result", s)["smps"]["retries"])' \
  "${IBSIM_WORKDIR}/status.json")
echo "SMP retries reported by the daemon: ${retries}"
[[ ${retries} -gt 0 ]] || { echo "FAIL: no SMP retried: was the loss injected?" >&2; exit 1; }

# The daemon may still be re-sweeping a lost write: the read-back waits for a sweep that ended up.
ibsim_switch_errors "${NET}" 0
ups=$(grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log")
"${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state.control.socket" sweep
wait_log smd "SUBNET UP" 60 $((ups + 1))
check_with_diags --expect-switches 48 --expect-cas 64
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
