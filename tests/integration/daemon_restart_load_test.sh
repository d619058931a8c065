#!/usr/bin/env bash
# kill -9 of the master and an immediate restart on the same port, on a busy machine, with the standby
# started 6 s later (issue 13): ibsim clears the IsSM bit of the master's port when it notices the old
# process gone, which can be after the new one attached, so the standby's election may not see the master
# and both end up MASTER. smd re-asserts IsSM in every light sweep and the two masters resolve. Repeated
# three times; every time the subnet ends with one master (the priority-10 smd) and the two masters, if
# they happen, last no longer than sm.sweep_interval + sm.poll_interval (the bound of the issue, measured
# in whole seconds between two sminfo samples). Witnesses: sminfo at both SM ports, sampled every half second; smpquery of the
# master port's CapabilityMask; check_fabric.py at the end.
. "$(dirname "$0")/opensm_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
A=0,1,1 B=0,1,2  # from host-3: host-0 (A, priority 10), host-1 (B, priority 5)
SWEEP=2 POLL=1
BOUND=$((SWEEP + POLL))
for name in a b; do
  prio=$([[ ${name} == a ]] && echo 10 || echo 5)
  write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" "  priority: ${prio}" \
    "  sweep_interval: ${SWEEP}" "  poll_interval: ${POLL}" "  poll_retries: 2"
done
# Two busy loops on the two cores for the test's duration (killed by PID at exit, as everything else).
for _ in 1 2; do
  bash -c 'while :; do :; done' &
  ibsim_track $!
done

start_daemon a0 "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a0 "SUBNET UP" 60
pid_a=${DAEMON_PID_a0}
pid_b=""
restored=0
for round in 1 2 3; do
  kill -9 "${pid_a}"
  [[ -n "${pid_b}" ]] && kill -9 "${pid_b}"
  start_daemon "a${round}" "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0  # at once, on the same port
  pid_a=$(eval echo "\${DAEMON_PID_a${round}}")
  sleep 6
  start_daemon "b${round}" "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=host-1
  t_b=${SECONDS}
  pid_b=$(eval echo "\${DAEMON_PID_b${round}}")
  # Sample both SMs' states for 20 s: the longest stretch with two masters, and the end state.
  both_since="" longest=0 t_end=$((SECONDS + 20)) settled="" first_one=""
  while ((SECONDS < t_end)); do
    sa=$(sm_state host-3 "${A}") sb=$(sm_state host-3 "${B}")
    if [[ ${sa} == MASTER && ${sb} == MASTER ]]; then
      [[ -z "${both_since}" ]] && both_since=${SECONDS}
      ((SECONDS - both_since > longest)) && longest=$((SECONDS - both_since))
    else
      both_since=""
    fi
    if [[ ${sa} == MASTER && ${sb} == STANDBY ]]; then
      [[ -z "${settled}" ]] && settled=${SECONDS} && first_one=$((SECONDS - t_b))
    else
      settled=""
    fi
    # One master for 8 s in a row (four light sweeps, eight polls): settled.
    [[ -n "${settled}" ]] && ((SECONDS - settled >= 8)) && break
    sleep 0.5
  done
  n=$(grep -c "IsSM restored" "${IBSIM_WORKDIR}/a${round}.log" || true)
  restored=$((restored + n))
  echo "round ${round}: A=$(sm_state host-3 "${A}") B=$(sm_state host-3 "${B}"), two masters for at most" \
    "${longest} s (bound ${BOUND} s), one master for good from ${first_one:-never} s after B started, IsSM restored ${n}x on A"
  [[ -n "${settled}" ]] || { echo "FAIL: round ${round} did not settle on one master" >&2; tail -n 30 "${IBSIM_WORKDIR}/a${round}.log" "${IBSIM_WORKDIR}/b${round}.log" >&2; exit 1; }
  ((longest <= BOUND)) || { echo "FAIL: two masters for ${longest} s" >&2; exit 1; }
done
echo "IsSM restored ${restored} times over three rounds"
sim env SIM_HOST=host-3 timeout 10 smpquery -D portinfo "${A}" 1 | tee "${IBSIM_WORKDIR}/pi-a"
capmask=$(sed -nE 's/^CapMask:\.+(0x[0-9a-f]+).*/\1/p' "${IBSIM_WORKDIR}/pi-a")
(((capmask & 0x2) != 0)) || { echo "FAIL: master port CapabilityMask ${capmask} lacks IsSM" >&2; exit 1; }
check_with_diags --expect-switches 6 --expect-cas 16
