#!/usr/bin/env bash
# Join storm (issue 17): every CA port of the fabric joins the default partition's IPoIB broadcast group
# (ff12:401b:ffff::ffff:ffff) at once; how long until every switch's MulticastForwardingTable carries the
# group's tree, and how many SMPs the SM sent for it — smd and OpenSM side by side, each on a fresh ibsim.
#
#   bench/mcast_join_storm.sh [--build DIR] [--fabric k12|k8|kary4-3] [--sms "opensm smd"] [--window N]
#                             [--mode broadcast|snm] [--smkey KEY] [--timeout S] [--raw DIR] [--out FILE]
#
# --mode snm (IPv6 solicited-node groups): every CA port creates and joins its OWN group
# ff12:601b:ffff::1:ffXX:XXXX (the low 24 bits of its port GUID, sa_client join --create --snm), as IPoIB
# hosts with IPv6 do. OpenSM runs with consolidate_ipv6_snm_req TRUE; smd with its default
# (multicast.consolidate_ipv6_snm: true); the SM name smd-nosnm is smd with it false (one MLID per group: the
# MLIDs run out at the smallest MulticastFDBCap, ibsim's 1024). The first port joins alone first, its answer
# names the MLID the watch follows (no watch for smd-nosnm: one-member groups get no tree); then the rest
# join at once. The report adds the MLIDs the answers used, the refused joins, and join latency p50/p99.
# --smkey KEY: the client's requests carry this SM_Key (trusted): smd then does not hold the one proxying
# client to its per-port share of the MLIDs (1/8), so smd-nosnm runs out where real hosts would, at the cap.
#
# For each SM: a fresh ibsim on the fabric (default k12: the 1728-host 3-level 12-ary tree), the SM as a
# daemon at host-0 (opensm -R ftree; smd with the default policy) under bench/smpcount.so with a trace of
# every SMP it sends, SUBNET UP, then ibnetdiscover reads the fabric once (members, switches, the port of
# each member's switch that faces it). Then, at once: tests/integration/tools/mft_watch starts reading the
# group's MFT entry on every switch, round after round, and the independent SA client
# (tests/integration/sa_client) sends one MCMemberRecord Set (JoinState full) per CA port, proxying for all
# of them from one host (ibsim takes 10 clients), N outstanding (default 64). Time = from the first join
# sent to the first MFT round of the state that then stays (every member's port in its switch's mask, the
# next round identical). SMPs = what the SM sent between those instants (its trace), MFT Sets among them.
# Afterwards the tables are read back with `ibroute -M` on every switch and walked by
# tests/integration/check_mft.py: delivery from every member to every other exactly once, no loop, and the
# switch-to-switch links the tree uses.
#
# Every process started is killed by PID on exit, failure included (tests/integration/ibsim_env.sh trap);
# ibsim, each SM and each client run under `timeout -s KILL`, the whole script under --timeout (default
# 1200 s). Raw outputs stay in --raw (default a fresh directory under $TMPDIR).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
smkey=()
build="${src}/build-rel" fabric=k12 sms="opensm smd" window=64 global=1200 raw="" out="" mode=broadcast
args=("$@")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --fabric) fabric=$2; shift 2 ;;
    --sms) sms=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --smkey) smkey=(--smkey "$2"); shift 2 ;;
    --timeout) global=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    *) echo "mcast_join_storm.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ ${mode} == broadcast || ${mode} == snm ]] || { echo "mcast_join_storm.sh: --mode broadcast or snm" >&2; exit 2; }
if [[ -z "${JOIN_STORM_INNER:-}" ]]; then
  JOIN_STORM_INNER=1 exec timeout -k 30 "${global}" bash "$0" "${args[@]}"
fi
sa_client="${build}/tests/integration/sa_client/sa_client"
mft_watch="${build}/tests/integration/mft_watch"
smd="${build}/smd/smd"
for tool in "${sa_client}" "${mft_watch}" "${smd}" "${build}/smd/smd-fabric"; do
  [[ -x "${tool}" ]] || { echo "mcast_join_storm.sh: build ${tool##*/} in ${build} first" >&2; exit 2; }
done

# shellcheck source=setup.sh
. "${bench}/setup.sh"
# shellcheck source=lib.sh
. "${bench}/lib.sh"
export SMD_KEEP_WORKDIR=1
raw=$(bench_raw_dir "${raw}" smd-join-storm)
echo "join storm: fabric ${fabric}, mode ${mode}, window ${window}; raw outputs in ${raw}"
gcc -shared -fPIC -O2 -Wall -o "${raw}/smpcount.so" "${bench}/smpcount.c" -ldl -lpthread
net="${raw}/fabric.net"
if [[ "${fabric}" == kary4-3 ]]; then
  cp "${src}/tests/fabrics/kary4-3.net" "${net}"
  ibsim_args=()
else
  genargs=$(bench_fabric_args "${fabric}" k8,k12)
  read -r -a ibsim_args <<<"$(bench_netfile "${build}" "${genargs}" "${net}")"
fi
mapfile -t hosts < <(awk '$1 == "Hca" { gsub(/"/, "", $3); print $3 }' "${net}")
sm_host=${hosts[0]} join_host=${hosts[$((${#hosts[@]} / 3))]} watch_host=${hosts[$((2 * ${#hosts[@]} / 3))]}
run_limit=600
broadcast_mgid="ff12:401b:ffff::ffff:ffff"  # as saquery prints it
snm_family="ff12:601b:ffff::1:ff00:0"        # --snm fills in each port's low 24 GUID bits

# start_sm SM DIR: the SM as a daemon at sm_host under smpcount.so (trace in DIR/trace.txt).
start_sm() {
  local sm=$1 dir=$2
  local -a cmd
  case "${sm}" in
    opensm)
      mkdir -p "${dir}/osm-cache"
      printf 'force_log_flush TRUE\n' >"${dir}/opensm.conf"
      [[ ${mode} == snm ]] && printf 'consolidate_ipv6_snm_req TRUE\n' >>"${dir}/opensm.conf"
      sm_log="${dir}/opensm.log"
      cmd=(env OSM_CACHE_DIR="${dir}/osm-cache" opensm -F "${dir}/opensm.conf" -f "${sm_log}" -R ftree)
      ;;
    smd | smd-nosnm)
      bench_smd_policy "${dir}/smd.yaml" "${dir}/state" "${dir}/control.socket"
      [[ ${sm} == smd-nosnm ]] && printf 'multicast:\n  consolidate_ipv6_snm: false\n' >>"${dir}/smd.yaml"
      sm_log="${dir}/sm.out"
      cmd=("${smd}" --config "${dir}/smd.yaml")
      ;;
    *) echo "mcast_join_storm.sh: unknown SM ${sm}" >&2; return 1 ;;
  esac
  BENCH_PRELOAD="${raw}/smpcount.so:${SIM_PRELOAD}" bench_spawn "${run_limit}" "${sm_host}" \
    env SMPCOUNT_TRACE="${dir}/trace.txt" SMPCOUNT_OUT="${dir}/smpcount.txt" "${cmd[@]}" >"${dir}/sm.out" 2>&1
  # shellcheck disable=SC2034  # both are read by bench_stop_sm (lib.sh)
  sm_pid=${spawned_child:-${spawned}}
  # shellcheck disable=SC2034
  sm_timeout_pid=${spawned}
}

measure() {
  local sm=$1 dir="${raw}/$1"
  mkdir -p "${dir}"
  bench_ibsim_start "${net}" "${run_limit}" "${ibsim_args[@]}"
  start_sm "${sm}" "${dir}"
  if ! bench_wait_up "${sm}" 300; then
    echo "${sm}: not up" >"${dir}/verdict.txt"
    bench_stop_sm
    ibsim_stop
    return 0
  fi
  sleep 3 # the first master sweep's tail (OpenSM answers SA only after it)
  bench_on_host "${join_host}" ibnetdiscover -p >"${dir}/ibnetdiscover-p.txt"
  bench_on_host "${join_host}" ibnetdiscover >"${dir}/ibnetdiscover.txt"
  python3 "${src}/tests/integration/tools/mft_watch_inputs.py" "${dir}/ibnetdiscover-p.txt" "${dir}/ibnetdiscover.txt" "${dir}" \
    >"${dir}/members.count"
  bench_on_host "${join_host}" saquery -g >"${dir}/saquery-g-before.txt" 2>&1 || true
  local mlid
  mlid=$(awk -v mgid="${broadcast_mgid}" '
      /MGID/ { split($0, a, "\\.+"); g = a[2] }
      /Mlid/ { split($0, a, "\\.+"); if (g == mgid) { print a[2]; exit } }' "${dir}/saquery-g-before.txt")
  if [[ -z "${mlid}" ]]; then
    echo "${sm}: no broadcast group in saquery -g" | tee "${dir}/verdict.txt"
    bench_stop_sm
    ibsim_stop
    return 0
  fi
  local -a join_args=(--mgid "${broadcast_mgid}")
  local ports="${dir}/members.txt"
  if [[ ${mode} == snm ]]; then
    # The first port alone: its answer names the MLID the family gets (the watch needs it up front).
    join_args=(--create --snm --mgid "${snm_family}")
    bench_on_host "${join_host}" "${sa_client}" --timeout-ms 2000 --retries 3 "${smkey[@]}" join "${join_args[@]}" --join-state 1 \
      --port "$(head -n 1 "${dir}/members.txt")" >"${dir}/join-first.jsonl" 2>"${dir}/join-first.err" || true
    mlid=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    if "record" in j: print(j["record"]["mlid"])' "${dir}/join-first.jsonl")
    tail -n +2 "${dir}/members.txt" >"${dir}/members-rest.txt"
    ports="${dir}/members-rest.txt"
    [[ -n "${mlid}" ]] || echo "${sm}: the first solicited-node join was not answered"
  fi
  echo "join storm: ${sm}: $(cat "${dir}/members.count") members join ${join_args[*]} (MLID ${mlid})"
  local watch_pid=""
  if [[ ${sm} != smd-nosnm && -n "${mlid}" ]]; then
    bench_spawn 300 "${watch_host}" "${mft_watch}" --switches "${dir}/switches.txt" --mlid "${mlid}" --timeout-s 240 \
      >"${dir}/watch.txt" 2>"${dir}/watch.err"
    watch_pid=${spawned}
  fi
  local t0
  t0=$(date +%s%N)
  bench_on_host "${join_host}" "${sa_client}" --timeout-ms 2000 --retries 3 "${smkey[@]}" join "${join_args[@]}" \
    --join-state 1 --ports "${ports}" --window "${window}" >"${dir}/join.jsonl" 2>"${dir}/join.err" || true
  local t_joined
  t_joined=$(date +%s%N)
  [[ -z "${watch_pid}" ]] || wait "${watch_pid}" || true
  # The read-back, then the SM's exit (its trace).
  : >"${dir}/ibroute-M.txt"
  local lid
  while read -r lid _; do
    [[ "${lid}" == expect ]] && continue
    {
      echo "### switch lid ${lid}"
      bench_on_host "${join_host}" ibroute -M "${lid}" 0xc000 0xc01f || true
    } >>"${dir}/ibroute-M.txt" 2>&1
  done <"${dir}/switches.txt"
  bench_stop_sm
  echo "t0_ns=${t0} joined_ns=${t_joined} mlid=${mlid} mode=${mode}" >"${dir}/verdict.txt"
  [[ ! -f "${dir}/watch.txt" ]] || cat "${dir}/watch.txt" >>"${dir}/verdict.txt"
  ibsim_stop
}

for sm in ${sms}; do measure "${sm}"; done
# shellcheck disable=SC2086  # one argument per SM name
python3 "${bench}/mcast_join_storm_report.py" "${raw}" "${src}/tests/integration/check_mft.py" ${sms} |
  tee "${raw}/report.md"
[[ -z "${out}" ]] || cp "${raw}/report.md" "${out}"
