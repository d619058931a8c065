# Shared body of the `smd --once` integration tests: start ibsim on a netfile, run smd --once with a
# policy, then let infiniband-diags (tests/integration/check_fabric.py) judge the result.
#   once_bringup NETFILE SWITCHES CAS [extra YAML lines for the policy]
# Sets ONCE_OUT (smd's stdout) and ONCE_STATE (state_dir). Fails the test on any mismatch.
. "$(dirname "${BASH_SOURCE[0]}")/ibsim_env.sh"

SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
CHECK_FABRIC="$(dirname "${BASH_SOURCE[0]}")/check_fabric.py"

# write_policy FILE STATE_DIR [YAML lines appended]
write_policy() {
  local file=$1 state=$2
  shift 2
  # Each smd of a test gets its own control socket and an ephemeral metrics port (no clashes).
  { printf 'sm:\n  state_dir: %s\n' "${state}"; printf '%s\n' "$@"
    printf 'control:\n  socket: %s.control.socket\nmetrics:\n  listen: 127.0.0.1:0\n' "${state}"; } >"${file}"
  chmod 0644 "${file}"
}

once_bringup() {
  local netfile=$1 switches=$2 cas=$3
  shift 3
  ibsim_start "${netfile}"
  ONCE_STATE="${IBSIM_WORKDIR}/state"
  write_policy "${IBSIM_WORKDIR}/smd.yaml" "${ONCE_STATE}" "$@"
  ONCE_OUT="${IBSIM_WORKDIR}/smd.out"
  if ! sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${ONCE_OUT}" 2>"${IBSIM_WORKDIR}/smd.err"; then
    cat "${ONCE_OUT}" >&2
    tail -n 30 "${IBSIM_WORKDIR}/smd.err" >&2
    echo "FAIL: smd --once did not bring the subnet up" >&2
    return 1
  fi
  cat "${ONCE_OUT}"
  grep -q "SUBNET UP" "${ONCE_OUT}"
  grep -q "fabric:   ${switches} switches, ${cas} CAs" "${ONCE_OUT}" || {
    echo "FAIL: smd reported a different fabric than ${switches} switches, ${cas} CAs" >&2
    return 1
  }
}

# check_with_diags [check_fabric args]: the independent verdict.
check_with_diags() { sim timeout 240 python3 "${CHECK_FABRIC}" "$@"; }
