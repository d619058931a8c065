# Shared body of the `smd --once` integration tests: start ibsim on a netfile, run smd --once with a
# policy, then let infiniband-diags (tests/integration/check_fabric.py) judge the result.
#   once_bringup NETFILE SWITCHES CAS [extra YAML lines for the policy]
# Sets ONCE_OUT (smd's stdout) and ONCE_STATE (state_dir). Fails the test on any mismatch.
# ONCE_IBSIM_ARGS (an array, e.g. from `smd-fabric ... --ibsim-args`) is passed on to ibsim.
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
  ibsim_start "${netfile}" ${ONCE_IBSIM_ARGS[@]+"${ONCE_IBSIM_ARGS[@]}"}
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

# check_roce_state SWITCHES CAS: the RoCE plan smd left in ONCE_STATE (policy roce.export and roce.frr,
# both on by default) parses, has one host per CA and one switch entry per switch, and state_dir/frr
# holds one frr.conf per switch and nothing else.
check_roce_state() {
  python3 - "${ONCE_STATE}" "$1" "$2" <<'PY'
import json, os, sys
state, switches, cas = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(os.path.join(state, "roce-plan.json")) as f:
    plan = json.load(f)
hosts = plan["hosts"]
assert len(hosts) == cas, f"roce-plan.json: {len(hosts)} hosts, the fabric has {cas} CAs"
assert len({h["ip"] for h in hosts}) == cas, "roce-plan.json: host addresses are not distinct"
assert len(plan["switches"]) == switches, f"roce-plan.json: {len(plan['switches'])} switches, expected {switches}"
for sw in plan["switches"]:
    assert sw["routes"], f"roce-plan.json: switch {sw['name']} has no routes"
    for route in sw["routes"]:
        assert route["nexthops"] and all("port" in nh for nh in route["nexthops"]), route
frr = os.path.join(state, "frr")
entries = os.listdir(frr)
confs = [e for e in entries if os.path.isfile(os.path.join(frr, e, "frr.conf"))]
assert len(confs) == switches and len(entries) == switches, f"frr/: {sorted(entries)}"
print(f"roce state: {cas} hosts, {switches} switches, {len(confs)} frr.conf")
PY
}
