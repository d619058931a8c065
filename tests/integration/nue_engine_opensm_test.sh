#!/usr/bin/env bash
# The nue engine (issue 41) with OpenSM 3.3.23's `-R nue` (qos TRUE, nue_max_num_vls 2) as the witness, on a
# 4x4 2D torus with one host per switch (smd-fabric). Each SM runs as the daemon on its own fresh ibsim of the
# netfile with two VLs for Nue and is judged only by what infiniband-diags and the independent SA client read
# back: every switch's LFT (ibroute), every SL2VL table (smpquery sl2vl, bench/readback.py) and one
# PathRecord per ordered pair of host LIDs (its SL; tests/integration/sa_client). For both: every LID
# delivered from every switch (check_fabric.py; Nue takes detours, so not --min-hop), every pair answered,
# one VL per flow end to end, at most 2 VLs, and the (cable, VL) channel-dependency graph acyclic
# (check_vl_layers.py). Then smd once more with its default routing.nue.max_vls (1 VL, no QoS needed): every
# flow on VL 0 and still acyclic. The VLs each SM used are printed; the paths may differ.
. "$(dirname "$0")/sa_common.sh"
# shellcheck source=vl_judge.sh
. "$(dirname "$0")/vl_judge.sh"
w=${IBSIM_WORKDIR}
net="${w}/torus4x4.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" torus --dims 4x4 --hosts-per-switch 1 -o "${net}"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# judge NAME MAX_VLS: read the live fabric back and check it (vl_judge.sh); the summary in ${w}/NAME-layers.json.
judge() {
  judge_vl_routing "$1" 16 16 "--expect-acyclic --expect-constant-vl --expect-all-paths --max-vls $2" ""
}

# --- OpenSM ---
ibsim_start "${net}"
start_opensm osm "" host-0 "qos TRUE" "routing_engine nue" "nue_max_num_vls 2"
sa_wait_up osm 60
sa_wait_sa 20
grep -q "nue" "${w}/osm.log" || fail "OpenSM did not route with nue"
judge osm 2
kill -9 "${OSM_PID_osm}" 2>/dev/null || true
wait "${OSM_PID_osm}" 2>/dev/null || true
ibsim_stop

# --- smd, two VLs ---
ibsim_start "${net}"
write_policy "${w}/sm.yaml" "${w}/state-sm" "routing:" "  engines: [nue]" "  nue:" "    max_vls: 2" \
  "qos:" "  enabled: true" "  max_vls: 8"
start_daemon sm "${w}/sm.yaml" SIM_HOST=host-0
sa_wait_up sm 60
sa_wait_sa 20
grep -q "engine nue" "${w}/sm.log" || fail "smd did not route with nue"
judge smd 2
kill -9 "${DAEMON_PID_sm}" 2>/dev/null || true
wait "${DAEMON_PID_sm}" 2>/dev/null || true
ibsim_stop

# --- smd, its default: one VL ---
ibsim_start "${net}"
write_policy "${w}/one.yaml" "${w}/state-one" "routing:" "  engines: [nue]"
start_daemon one "${w}/one.yaml" SIM_HOST=host-0
sa_wait_up one 60
sa_wait_sa 20
grep -q "engine nue" "${w}/one.log" || fail "smd (1 VL) did not route with nue"
judge one 1

python3 - "${w}/osm-layers.json" "${w}/smd-layers.json" "${w}/one-layers.json" <<'PY'
import json, sys
osm, smd, one = (json.load(open(p)) for p in sys.argv[1:4])
print(f"VLs used: OpenSM {osm['vls_used']}, smd {smd['vls_used']}, smd with max_vls 1 {one['vls_used']}; "
      f"flows: {osm['flows']}, {smd['flows']}, {one['flows']}")
assert smd['flows'] == osm['flows'] == one['flows'], "not every pair traced for all three"
assert one['vls_used'] == [0], "the one-VL run used VLs other than 0"
PY
echo "PASS: smd's nue and OpenSM's both deliver every LID, deadlock free within their VLs"
