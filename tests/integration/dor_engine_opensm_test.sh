#!/usr/bin/env bash
# The dor engine (issue 41) with OpenSM 3.3.23's `-R dor` as the witness, on two fabrics smd-fabric makes:
# a 4x4 mesh and a 4x4 torus, one host per switch, dimension 0 cabled on the lower ports. For each, OpenSM
# routes a first ibsim once (`opensm -o -R dor`) and its LFTs are read back with ibroute/smpdump
# (read_lfts.py); then smd --once with `engines: [dor]` and OpenSM's guid2lid routes a FRESH ibsim of the
# same netfile, and every switch must hold exactly what OpenSM programmed (dor's choice is deterministic:
# the first shortest port in port order; no parallel cables here, so no balancing tie-break). What must
# hold besides, judged by check_fabric.py from the read-back tables alone: every LID delivered, every
# route shortest, and the single-VL channel-dependency graph acyclic on the mesh but cyclic on the torus
# (dimension order is deadlock free only without wraparound).
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
READ="${SMD_SOURCE_DIR}/tests/integration/read_lfts.py"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# witness SHAPE: OpenSM then smd on `smd-fabric SHAPE --dims 4x4`, LFTs compared; leaves smd's ibsim running.
witness() {
  local shape=$1 net="${w}/$1.net"
  "${SMD_BUILD_DIR}/smd/smd-fabric" "${shape}" --dims 4x4 --hosts-per-switch 1 -o "${net}"
  ibsim_start "${net}"
  mkdir -p "${w}/osm-${shape}"
  (cd "${w}" && exec env OSM_CACHE_DIR="${w}/osm-${shape}" LD_PRELOAD="${SIM_PRELOAD}" timeout 120 opensm -o \
    -R dor -f "${w}/osm-${shape}.log" >"${w}/osm-${shape}.out" 2>&1) &
  local osm=$!
  ibsim_track "${osm}"
  wait "${osm}" || fail "${shape}: opensm -o exited $?"
  grep -q "SUBNET UP" "${w}/osm-${shape}.log" || fail "${shape}: OpenSM did not bring the subnet up"
  sim timeout 120 python3 "${READ}" >"${w}/osm-${shape}.live" || fail "${shape}: reading OpenSM's LFTs back"
  ibsim_stop
  rm -rf "${w}/state"
  mkdir -p "${w}/state"
  cp "${w}/osm-${shape}/guid2lid" "${w}/state/guid2lid"
  once_bringup "${net}" 16 16 "routing:" "  engines: [dor]" >"${w}/once-${shape}.out" ||
    { cat "${w}/once-${shape}.out" >&2; fail "${shape}: smd --once"; }
  grep -q "routing:  engine dor" "${ONCE_OUT}" || fail "${shape}: smd did not route with dor"
  sim timeout 120 python3 "${READ}" >"${w}/smd-${shape}.live" || fail "${shape}: reading smd's LFTs back"
  diff -u "${w}/osm-${shape}.live" "${w}/smd-${shape}.live" >&2 || fail "${shape}: smd's LFTs differ from OpenSM's"
  echo "${shape}: $(grep -c top "${w}/smd-${shape}.live") switches hold OpenSM's dor LFTs," \
    "$(grep -c '^  ' "${w}/smd-${shape}.live") entries"
}

witness mesh
check_with_diags --expect-switches 16 --expect-cas 16 --min-hop --deadlock-free || fail "mesh: not shortest or not deadlock free"
ibsim_stop

witness torus
check_with_diags --expect-switches 16 --expect-cas 16 --min-hop || fail "torus: not delivered or not shortest"
if check_with_diags --deadlock-free >"${w}/torus-cdg.out" 2>&1; then fail "torus: dor's routes are acyclic, expected a cycle"; fi
grep -q "channel dependency cycle" "${w}/torus-cdg.out" || { cat "${w}/torus-cdg.out" >&2; fail "torus: no cycle named"; }
echo "PASS: dor equals OpenSM's on a mesh (deadlock free) and a torus (a dependency cycle, as expected)"
