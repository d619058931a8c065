#!/usr/bin/env bash
# The lash engine (issue 41) with OpenSM 3.3.23's `-R lash` (qos TRUE) as the witness, on a 4x4 2D torus with
# one host per switch (smd-fabric). Each SM runs as the daemon on its own fresh ibsim of the netfile and is
# judged only by what infiniband-diags and the independent SA client read back: every switch's LFT
# (ibroute), every SL2VL table (smpquery sl2vl, bench/readback.py) and one PathRecord per ordered pair of
# host LIDs (its SL; tests/integration/sa_client). For both: every route delivered and shortest
# (check_fabric.py --min-hop), every pair answered, one VL per flow end to end, the (cable, VL)
# channel-dependency graph acyclic with the same routes cyclic on one VL (check_vl_layers.py); and smd's
# lash may use no more VLs than OpenSM's. The paths may differ: OpenSM balances its layers with rand().
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

# judge NAME: read the live fabric back and check it (vl_judge.sh); the summary in ${w}/NAME-layers.json.
judge() {
  judge_vl_routing "$1" 16 16 "--expect-acyclic --expect-constant-vl --expect-all-paths --expect-one-vl-cyclic \
--min-vls 2 --max-vls 8" "--min-hop"
}

# --- OpenSM ---
ibsim_start "${net}"
start_opensm osm "" host-0 "qos TRUE" "routing_engine lash"
sa_wait_up osm 60
sa_wait_sa 20
grep -q "lash" "${w}/osm.log" || fail "OpenSM did not route with lash"
judge osm
kill -9 "${OSM_PID_osm}" 2>/dev/null || true
wait "${OSM_PID_osm}" 2>/dev/null || true
ibsim_stop

# --- smd ---
ibsim_start "${net}"
write_policy "${w}/sm.yaml" "${w}/state-sm" "routing:" "  engines: [lash]" "qos:" "  enabled: true" "  max_vls: 8"
start_daemon sm "${w}/sm.yaml" SIM_HOST=host-0
sa_wait_up sm 60
sa_wait_sa 20
grep -q "engine lash" "${w}/sm.log" || fail "smd did not route with lash"
judge smd

python3 - "${w}/osm-layers.json" "${w}/smd-layers.json" <<'PY'
import json, sys
osm, smd = (json.load(open(p)) for p in sys.argv[1:3])
print(f"VLs used: OpenSM {osm['vls_used']}, smd {smd['vls_used']}; flows: OpenSM {osm['flows']}, smd {smd['flows']}")
assert smd['flows'] == osm['flows'], "not every pair traced for both"
assert len(smd['vls_used']) <= len(osm['vls_used']), "smd's lash uses more VLs than OpenSM's"
PY
echo "PASS: smd's lash and OpenSM's both shortest and deadlock free on their VLs"
