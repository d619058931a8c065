#!/usr/bin/env bash
# SL2VL and VLArbitration programming on tests/fabrics/twoswitch.net, read back with infiniband-diags:
# a sweep with QoS on and a spec unlike ibsim's defaults on every port type, then every table (every
# (in, out) SL2VL row of every switch out port, every CA port, both VLArb tables, OperVLs) must equal
# what tests/integration/check_qos.py computes from the spec and ibnetdiscover. Then a fresh ibsim and a
# sweep with QoS off: every table must still hold ibsim's defaults (nothing programmed, as OpenSM without
# -Q).
#
# The QoS spec is set in code by tests/integration/tools/qos_once.cpp (smd --once with that spec) until
# the policy loader reads `qos:`; qos_once writes it as JSON for the checker.
. "$(dirname "$0")/ibsim_env.sh"
CHECK_QOS="$(cd "$(dirname "$0")" && pwd)/check_qos.py"
QOS_ONCE="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/tests/integration/qos_once"

# run_qos on|off: ibsim on the two-switch fabric, one sweep, then the checker.
run_qos() {
  local mode=$1
  ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
  local state="${IBSIM_WORKDIR}/state-${mode}"
  { printf 'sm:\n  state_dir: %s\n' "${state}"
    printf 'control:\n  socket: %s.control.socket\nmetrics:\n  listen: 127.0.0.1:0\n' "${state}"; } >"${IBSIM_WORKDIR}/smd-${mode}.yaml"
  local spec="${IBSIM_WORKDIR}/qos-${mode}.json" out="${IBSIM_WORKDIR}/qos-${mode}.out"
  if ! sim timeout 120 "${QOS_ONCE}" --config "${IBSIM_WORKDIR}/smd-${mode}.yaml" --spec-out "${spec}" --qos "${mode}" \
      >"${out}" 2>"${IBSIM_WORKDIR}/qos-${mode}.err"; then
    cat "${out}" >&2
    tail -n 30 "${IBSIM_WORKDIR}/qos-${mode}.err" >&2
    echo "FAIL: qos_once (${mode}) did not bring the subnet up" >&2
    return 1
  fi
  cat "${out}"
  grep -q "SUBNET UP" "${out}"
  sim timeout 240 python3 "${CHECK_QOS}" "${spec}"
  ibsim_stop
}

run_qos on
run_qos off
echo "PASS: qos_tables_test"
