#!/usr/bin/env bash
# OpenSM's command-line overrides win over the policy file, also after a SIGHUP reload: smd started with
# `-p 3` over a file that says sm.priority 7 answers SMInfo with priority 3; the file rewritten to say 9
# and reloaded (the reload adopted: `smctl status` shows its generation, the log a heavy sweep under it),
# the SMInfo still says 3. The witness of the priority is infiniband-diags' sminfo.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
POLICY="${IBSIM_WORKDIR}/smd.yaml"
STATE="${IBSIM_WORKDIR}/state"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
fail() { echo "FAIL: $*" >&2; exit 1; }
# 0 light sweeps: only the SIGHUP (and traps) sweep.
write_policy "${POLICY}" "${STATE}" "  priority: 7" "  sweep_interval: 0"
start_daemon smd "${POLICY}" -- -p 3
wait_log smd "SUBNET UP" 60
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo.start"
grep -Eq " priority 3 state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo.start" || fail "sminfo: not priority 3 at start"

write_policy "${POLICY}.new" "${STATE}" "  priority: 9" "  sweep_interval: 0"
mv -f "${POLICY}.new" "${POLICY}"
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "SIGHUP: policy 2 read from" 10
wait_log smd "heavy sweep [0-9]+ done under policy 2 " 60
timeout 10 "${SMCTL}" --socket "${STATE}.control.socket" status --json >"${IBSIM_WORKDIR}/status.json" || fail "smctl status"
generation=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"]["policy"]["generation"])' \
  "${IBSIM_WORKDIR}/status.json")
[[ ${generation} == 2 ]] || fail "the reload is not in effect (policy generation ${generation})"
sim timeout 20 sminfo | tee "${IBSIM_WORKDIR}/sminfo.reloaded"
grep -Eq " priority 3 state 3 SMINFO_MASTER" "${IBSIM_WORKDIR}/sminfo.reloaded" ||
  fail "sminfo after SIGHUP: the reload dropped -p 3"
echo "PASS: -p 3 wins over sm.priority 7 at start and over 9 after a SIGHUP reload (sminfo)"
