#!/usr/bin/env bash
# VL-layered routing (issue 18): smd's dfsssp, sssp and updn against OpenSM's dfsssp (-Q) and updn on the
# same ibsim fabrics, scored on what is read back; and (issue 41) smd's dor and lash against OpenSM's
# (`-R dor`; `-R lash -Q`): runs osm-dor osm-lash smd-dor smd-lash, fabric m6; and nue: osm-nue (`-R nue`,
# OpenSM's default nue_max_num_vls 1, no QoS), osm-nue8 (`-R nue -Q --nue_max_num_vls 8`), smd-nue (its
# default routing.nue.max_vls 1) and smd-nue8 (routing.nue.max_vls 8); and
# torus-2QoS (`-R torus-2QoS -Q` with a torus-2QoS.conf bench/torus_conf.py writes from the fabric's GUIDs, smd reading the same file):
# runs osm-torus smd-torus, fabrics t6 t3d (tori only).
#
#   bench/vl_routing.sh [--build DIR] [--fabrics "t6 t2d t3d rnd df"] [--runs "osm-dfsssp osm-updn smd-updn
#                       smd-sssp smd-dfsssp"] [--ebb-samples N] [--timeout S] [--raw DIR] [--out FILE]
#
# Fabrics (smd-fabric): t6 = 6x6 2D torus with 4 hosts per switch (144 hosts, the issue's reference),
# m6 = 6x6 2D mesh with 4 hosts per switch (144, dor's case), t2d = 8x8 torus x 4 (256), t3d = 4x4x4 torus x 4 (256), rnd = random graph of 64 switches, degree 6,
# 4 hosts each (256, seed 1), df = dragonfly of 9 groups x 4 routers x 8 hosts, 2 global links per router (288).
#
# For every (fabric, run): a fresh ibsim; the SM as a daemon at host-0 (OpenSM: `-R dfsssp -Q` or `-R updn`
# with a root file, `-D 0x07` so that its log marks the start and end of routing; smd: a policy with
# `routing.engines: [ENGINE]` and `qos: {enabled: true, max_vls: 8}`), SUBNET UP, then the read-back:
# bench/readback.py --sl2vl (ibnetdiscover, ibroute, smpquery sl2vl: infiniband-diags only) and one SA
# PathRecord per ordered pair of host LIDs through the independent tests/integration/sa_client (its SL).
# Then, with ibsim gone: bench/quality.py (eBB and link loads from the LFTs) and
# tests/integration/check_vl_layers.py (deadlock freedom over (cable, VL) from the SLs and SL2VL tables).
# Routing time: smd's "routing computed and verified" phase; OpenSM's log from "building routing with" to
# "tables configured on all switches" (that includes queuing its LFT sends, a few ms).
#
# Every process started is killed by PID on exit, failure included (tests/integration/ibsim_env.sh trap);
# ibsim, each SM and each client run under `timeout -s KILL`, the whole script under --timeout.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" fabrics="t6 t2d t3d rnd df" runs="osm-dfsssp osm-updn smd-updn smd-sssp smd-dfsssp"
ebb_samples=100 global=5400 raw="" out=""
args=("$@")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --fabrics) fabrics=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --ebb-samples) ebb_samples=$2; shift 2 ;;
    --timeout) global=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    *) echo "vl_routing.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "${VL_ROUTING_INNER:-}" ]]; then
  VL_ROUTING_INNER=1 exec timeout -k 30 "${global}" bash "$0" "${args[@]}"
fi
sa_client="${build}/tests/integration/sa_client/sa_client"
smd="${build}/smd/smd"
for tool in "${sa_client}" "${smd}" "${build}/smd/smd-fabric"; do
  [[ -x "${tool}" ]] || { echo "vl_routing.sh: build ${tool##*/} in ${build} first" >&2; exit 2; }
done

# shellcheck source=setup.sh
. "${bench}/setup.sh"
# shellcheck source=lib.sh
. "${bench}/lib.sh"
export SMD_KEEP_WORKDIR=1
raw=$(bench_raw_dir "${raw}" smd-vl-routing)
echo "vl routing: fabrics ${fabrics}; runs ${runs}; raw outputs in ${raw}"
run_limit=900

fabric_args() {
  case "$1" in
    t6) echo "torus --dims 6x6 --hosts-per-switch 4" ;;
    m6) echo "mesh --dims 6x6 --hosts-per-switch 4" ;;
    t2d) echo "torus --dims 8x8 --hosts-per-switch 4" ;;
    t3d) echo "torus --dims 4x4x4 --hosts-per-switch 4" ;;
    rnd) echo "random --switches 64 --degree 6 --hosts-per-switch 4 --seed 1" ;;
    df) echo "dragonfly --groups 9 --routers 4 --hosts-per-router 8 --global-links 2" ;;
    *) echo "vl_routing.sh: unknown fabric $1" >&2; return 2 ;;
  esac
}

# write_torus_conf DIR NET: DIR/torus-2QoS.conf for the torus the running ibsim made of NET (its GUIDs by
# ibnetdiscover from host-1).
write_torus_conf() {
  local dir=$1 dims
  dims=$(fabric_args "${fabric}" | sed -nE 's/.*--dims ([0-9x]+).*/\1/p')
  [[ -n "${dims}" ]] || { echo "vl_routing.sh: torus-2QoS needs a torus fabric, not ${fabric}" >&2; return 1; }
  bench_on_host host-1 ibnetdiscover >"${dir}/ibnetdiscover.txt" 2>/dev/null
  python3 "${bench}/torus_conf.py" "${dir}/ibnetdiscover.txt" "${dims}" >"${dir}/torus-2QoS.conf"
}

# start_sm RUN DIR NET: the SM of RUN as a daemon at host-0; sets sm_log, sm_pid, sm_timeout_pid.
start_sm() {
  local run=$1 dir=$2 net=$3
  local -a cmd
  case "${run}" in
    osm-*)
      mkdir -p "${dir}/osm-cache"
      printf 'force_log_flush TRUE\n' >"${dir}/opensm.conf"
      sm_log="${dir}/opensm.log"
      cmd=(env OSM_CACHE_DIR="${dir}/osm-cache" opensm -F "${dir}/opensm.conf" -f "${sm_log}" -D 0x07)
      if [[ "${run}" == osm-dfsssp || "${run}" == osm-lash ]]; then
        cmd+=(-R "${run#osm-}" -Q)
      elif [[ "${run}" == osm-torus ]]; then
        write_torus_conf "${dir}" "${net}"
        cmd+=(-R torus-2QoS -Q --torus_config "${dir}/torus-2QoS.conf")
      elif [[ "${run}" == osm-dor ]]; then
        cmd+=(-R dor)
      elif [[ "${run}" == osm-nue ]]; then
        cmd+=(-R nue)
      elif [[ "${run}" == osm-nue8 ]]; then
        cmd+=(-R nue -Q --nue_max_num_vls 8)
      else
        # OpenSM's updn finds no roots on these graphs by itself (bench/README.md): one switch of least
        # eccentricity, as bench/run.sh gives it.
        python3 "${bench}/fabric_stats.py" "${net}" >"${dir}/stats.json"
        python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['updn_root']['guid'])" "${dir}/stats.json" \
          >"${dir}/root.guids"
        cmd+=(-R updn -a "${dir}/root.guids")
      fi
      ;;
    smd-*)
      mkdir -p "${dir}/state"
      local engine=${run#smd-} engine_section=""
      if [[ "${engine}" == nue8 ]]; then
        engine=nue engine_section=$'\n  nue:\n    max_vls: 8'
      elif [[ "${run}" == smd-torus ]]; then
        write_torus_conf "${dir}" "${net}"
        engine=torus-2QoS
        engine_section=$'\n  torus_2qos:\n    config_file: '"${dir}/torus-2QoS.conf"
      fi
      cat >"${dir}/smd.yaml" <<EOF
sm:
  state_dir: ${dir}/state
control:
  socket: ${dir}/control.socket
metrics:
  listen: 127.0.0.1:0
routing:
  engines: [${engine}]${engine_section}
qos:
  enabled: true
  max_vls: 8
EOF
      chmod 0644 "${dir}/smd.yaml"
      sm_log="${dir}/sm.out"
      cmd=("${smd}" --config "${dir}/smd.yaml")
      ;;
    *) echo "vl_routing.sh: unknown run ${run}" >&2; return 1 ;;
  esac
  bench_spawn "${run_limit}" host-0 "${cmd[@]}" >"${dir}/sm.out" 2>&1
  # shellcheck disable=SC2034  # both are read by bench_stop_sm (lib.sh)
  sm_pid=${spawned_child:-${spawned}}
  # shellcheck disable=SC2034
  sm_timeout_pid=${spawned}
}

measure() {
  local fabric=$1 run=$2 net=$3 dir="${raw}/$1/$2"
  shift 3
  mkdir -p "${dir}"
  bench_ibsim_start "${net}" "${run_limit}" "$@"
  start_sm "${run}" "${dir}" "${net}"
  if ! bench_wait_up "${fabric}/${run}" 300; then
    echo "not up" >"${dir}/verdict.txt"
    bench_stop_sm
    ibsim_stop
    return 0
  fi
  sleep 3 # the first master sweep's tail (OpenSM answers SA only after it)
  local reader=host-1
  (cd "${dir}" && bench_on_host "${reader}" python3 "${bench}/readback.py" --sl2vl --out "${dir}/readback.json") \
    2>"${dir}/readback.err" || echo "readback failed" >>"${dir}/verdict.txt"
  python3 - "${dir}/readback.json" >"${dir}/pairs.txt" <<'EOF'
import json, sys
nodes = json.load(open(sys.argv[1]))['nodes']
lids = sorted(l for n in nodes.values() if n['type'] == 'ca' for l, _ in n['port_lids'].values())
for a in lids:
    for b in lids:
        if a != b:
            print(a, b)
EOF
  bench_on_host "${reader}" "${sa_client}" --timeout-ms 2000 --retries 3 paths --by-lid --pairs "${dir}/pairs.txt" \
    --window 32 >"${dir}/paths.jsonl" 2>"${dir}/paths.err" || true
  bench_stop_sm
  ibsim_stop
  python3 "${bench}/quality.py" "${dir}/readback.json" "${net}" --ebb-samples "${ebb_samples}" \
    >"${dir}/quality.json" 2>"${dir}/quality.err" || true
  python3 "${src}/tests/integration/check_vl_layers.py" "${dir}/readback.json" "${dir}/paths.jsonl" \
    --json "${dir}/vl_layers.json" >/dev/null 2>"${dir}/vl_layers.err" || true
  echo "vl routing: ${fabric}/${run} measured"
}

for fabric in ${fabrics}; do
  mkdir -p "${raw}/${fabric}"
  net="${raw}/${fabric}/fabric.net"
  genargs=$(fabric_args "${fabric}")
  read -r -a ibsim_args <<<"$(bench_netfile "${build}" "${genargs}" "${net}")"
  for run in ${runs}; do measure "${fabric}" "${run}" "${net}" "${ibsim_args[@]}"; done
done
# shellcheck disable=SC2086  # one argument per fabric and run
python3 "${bench}/vl_routing_report.py" "${raw}" --fabrics ${fabrics} --runs ${runs} | tee "${raw}/report.md"
[[ -z "${out}" ]] || cp "${raw}/report.md" "${out}"
