#!/usr/bin/env bash
# The simulator gone under a running daemon: its SM port takes no SMP any more, and nothing in this process
# can open it again. After six heavy sweeps that sent nothing (about half a minute at the default
# sweep_interval; a few seconds here, at 1 s) smd must stop with exit status 1 and say why, so that systemd's Restart=on-failure starts it again
# on a port that works, instead of staying "MASTER" of a fabric it cannot reach.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" '  sweep_interval: 1'
start_daemon d "${IBSIM_WORKDIR}/smd.yaml"
wait_log d "SUBNET UP" 60
ibsim_stop
wait_log d "every SMP of the last 6 heavy sweeps failed to send" 120
rc=0
wait "${DAEMON_PID_d}" || rc=$?
[[ ${rc} -eq 1 ]] || { echo "FAIL: smd exited with status ${rc}, want 1" >&2; tail -n 20 "${IBSIM_WORKDIR}/d.log" >&2; exit 1; }
grep -q "smd stopped" "${IBSIM_WORKDIR}/d.log" || { echo "FAIL: smd did not stop cleanly" >&2; exit 1; }
echo "daemon_port_lost_test: smd stopped with status 1 after its port went away"
