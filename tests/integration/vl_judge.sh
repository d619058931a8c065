# shellcheck shell=bash
# The read-back judgement the VL-routing engine tests share (lash, nue, torus-2QoS against OpenSM): source it
# after sa_common.sh, in a test that defines fail(). Only infiniband-diags and the independent SA client look
# at the live fabric; the checks are tests/integration/check_vl_layers.py and check_fabric.py.

# judge_vl_routing NAME HOSTS SWITCHES "CHECK_VL_LAYERS ARGS" "CHECK_WITH_DIAGS ARGS": read every LFT and every
# SL2VL table back (bench/readback.py --sl2vl), ask one PathRecord per ordered pair of the HOSTS host LIDs (its
# SL), check the (cable, VL) channel-dependency graph with the given check_vl_layers.py options (summary in
# ${IBSIM_WORKDIR}/NAME-layers.json) and delivery with check_with_diags (HOSTS CAs, SWITCHES switches and the
# given options). Fails the test, naming NAME and the step, on any miss.
judge_vl_routing() {
  local name=$1 hosts=$2 switches=$3 w=${IBSIM_WORKDIR}
  local -a vl_args diag_args
  read -r -a vl_args <<<"$4"
  read -r -a diag_args <<<"$5"
  (cd "${w}" && sim timeout 120 python3 "${SMD_SOURCE_DIR}/bench/readback.py" --sl2vl --out "${w}/${name}.json") ||
    fail "${name}: read-back"
  python3 - "${w}/${name}.json" >"${w}/${name}.pairs" <<'PY'
import json, sys
nodes = json.load(open(sys.argv[1]))['nodes']
lids = sorted(l for n in nodes.values() if n['type'] == 'ca' for l, _ in n['port_lids'].values())
print('\n'.join(f"{a} {b}" for a in lids for b in lids if a != b))
PY
  [[ $(wc -l <"${w}/${name}.pairs") -eq $((hosts * (hosts - 1))) ]] || fail "${name}: not ${hosts} hosts"
  sim timeout 100 "${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client" paths --by-lid \
    --pairs "${w}/${name}.pairs" >"${w}/${name}.paths.jsonl" || fail "${name}: PathRecords"
  python3 "${SMD_SOURCE_DIR}/tests/integration/check_vl_layers.py" "${w}/${name}.json" "${w}/${name}.paths.jsonl" \
    "${vl_args[@]}" --json "${w}/${name}-layers.json" >/dev/null || fail "${name}: VL layers"
  check_with_diags --expect-switches "${switches}" --expect-cas "${hosts}" "${diag_args[@]}" ||
    fail "${name}: not every LID delivered${diag_args[*]:+ (${diag_args[*]})}"
}
