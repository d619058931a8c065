#!/usr/bin/env bash
# dfsssp on a 4x4 2D torus (16 switches, 2 hosts each), judged only by what infiniband-diags and an
# independent SA client read back: every switch's LFT (ibroute), every SL2VL table of every cabled (in, out)
# port pair and CA port (smpquery sl2vl), and one PathRecord per ordered pair of host LIDs (its SL) through
# tests/integration/sa_client, cross-checked for a sample against saquery. check_vl_layers.py traces every
# flow with its SL and requires: every pair answered and delivered, one VL per flow end to end, no VL15,
# the (cable, VL) channel-dependency graph acyclic, at least 2 VLs used, at most the 8 ibsim ports operate,
# and the same LFTs on one VL cyclic (the layers are what makes these shortest paths deadlock-free).
#   SA_TEST_SM=opensm runs OpenSM's dfsssp with qos on instead, which proves the checks on another SM.
. "$(dirname "$0")/sa_common.sh"
net="${IBSIM_WORKDIR}/torus4x4.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" torus --dims 4x4 --hosts-per-switch 2 -o "${net}"
ibsim_start "${net}"
if [[ ${SA_TEST_SM} == opensm ]]; then
  start_opensm sm "" host-0 "qos TRUE" "routing_engine dfsssp"
else
  write_policy "${IBSIM_WORKDIR}/sm.yaml" "${IBSIM_WORKDIR}/state-sm" "routing:" "  engines: [dfsssp]" \
    "qos:" "  enabled: true" "  max_vls: 8"
  start_daemon sm "${IBSIM_WORKDIR}/sm.yaml" SIM_HOST=host-0
fi
sa_wait_up sm 60
sa_wait_sa 20
if [[ ${SA_TEST_SM} == smd ]]; then
  grep -q "dfsssp" "${IBSIM_WORKDIR}/sm.log" || { echo "FAIL: smd did not route with dfsssp" >&2; exit 1; }
fi
(cd "${IBSIM_WORKDIR}" && sim timeout 120 python3 "${SMD_SOURCE_DIR}/bench/readback.py" --sl2vl \
  --out "${IBSIM_WORKDIR}/readback.json")
python3 - "${IBSIM_WORKDIR}/readback.json" >"${IBSIM_WORKDIR}/pairs" <<'PY'
import json, sys
nodes = json.load(open(sys.argv[1]))['nodes']
lids = sorted(l for n in nodes.values() if n['type'] == 'ca' for l, _ in n['port_lids'].values())
print('\n'.join(f"{a} {b}" for a in lids for b in lids if a != b))
PY
[[ $(wc -l <"${IBSIM_WORKDIR}/pairs") -eq $((32 * 31)) ]]
sim timeout 100 "${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client" paths --by-lid \
  --pairs "${IBSIM_WORKDIR}/pairs" >"${IBSIM_WORKDIR}/paths.jsonl"
python3 "${SMD_SOURCE_DIR}/tests/integration/check_vl_layers.py" "${IBSIM_WORKDIR}/readback.json" \
  "${IBSIM_WORKDIR}/paths.jsonl" --expect-acyclic --expect-constant-vl --expect-all-paths --min-vls 2 \
  --max-vls 8 --expect-one-vl-cyclic
# saquery decodes the same SLs (a sample: every 37th pair). OpenSM's dfsssp spreads each layer over spare VLs
# with rand() per query (osm_ucast_dfsssp.c path_sl), so for OpenSM the SL only has to be a data VL's.
checked=0
while read -r slid dlid; do
  want=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["slid_q"] == int(sys.argv[2]) and r["dlid_q"] == int(sys.argv[3]): print(r["sl"])' \
    "${IBSIM_WORKDIR}/paths.jsonl" "${slid}" "${dlid}")
  got=$(saq -p --slid "${slid}" --dlid "${dlid}" | sed -nE 's/^[[:space:]]*sl\.+(0x[0-9a-f]+|[0-9]+)$/\1/p' | head -n 1)
  if [[ ${SA_TEST_SM} == opensm ]]; then want=$((got < 8 ? got : -1)); fi
  [[ -n "${got}" && $((got)) -eq ${want} ]] || { echo "FAIL: saquery SL '${got}' for ${slid} -> ${dlid}, sa_client ${want}" >&2; exit 1; }
  checked=$((checked + 1))
done < <(awk 'NR % 37 == 1' "${IBSIM_WORKDIR}/pairs")
echo "saquery agrees on the SL of ${checked} sampled pairs"
