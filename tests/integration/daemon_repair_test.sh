#!/usr/bin/env bash
# The daemon repairs a link failure: Unlink a cable between two switches -> trap 128 -> heavy sweep ->
# every switch delivers every LID again without the dead cable (ibroute read-back); ReLink -> the cable is
# Active and used again. sminfo (infiniband-diags) must see smd as MASTER. The RoCE plan in state_dir
# follows the repairs and smctl export roce serves it. SIGTERM stops it cleanly.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 1" "routing:" \
  "  engines: [ftree, updn, minhop]"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo"
grep -q "state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo"
check_with_diags --expect-switches 48 --expect-cas 64
# smctl over the control socket agrees.
"${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state.control.socket" status | tee "${IBSIM_WORKDIR}/status"
grep -q "MASTER" "${IBSIM_WORKDIR}/status"
# The RoCE plan is written after the sweep, off its path; smctl export roce serves the same file.
wait_log smd "roce: plan of 64 hosts, 48 switches" 30
# (The socket from SMCTL_SOCKET, --json after the command: both as an operator types them.)
SMCTL_SOCKET="${IBSIM_WORKDIR}/state.control.socket" "${SMD_BUILD_DIR}/smd/smctl" export roce --json \
  >"${IBSIM_WORKDIR}/export.json"
python3 - "${IBSIM_WORKDIR}/export.json" "${IBSIM_WORKDIR}/state/roce-plan.json" <<'PY'
import json, sys
exported = json.load(open(sys.argv[1]))
assert exported["ok"], exported
assert exported["result"]["plan"] == json.load(open(sys.argv[2])), "smctl export roce differs from the file"
assert len(exported["result"]["plan"]["hosts"]) == 64
PY

# sw-L1-0 port 5 is an up-link from level 1 to level 2.
ibsim_console 'Unlink "sw-L1-0"[5]'
wait_log smd "repair: fabric consistent" 30
wait_log smd "SUBNET UP" 30 2
# One cable fewer: the plan is written again (an unchanged fabric would be left as it is).
wait_log smd "roce: plan of 64 hosts, 48 switches" 30 2
check_with_diags --expect-switches 48 --expect-cas 64
# check_fabric walks every LFT over the cables ibnetdiscover sees now: an entry that still pointed at the
# dead port is reported as not delivering, so the check above covers "no route uses the dead cable".

ibsim_console 'ReLink "sw-L1-0"[5]'
wait_log smd "SUBNET UP" 30 3
check_with_diags --expect-switches 48 --expect-cas 64

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${IBSIM_WORKDIR}/smd.log"
