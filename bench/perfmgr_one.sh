#!/usr/bin/env bash
# One PerfMgr measurement: a FRESH ibsim on NETFILE, one SM as a daemon (smd --config, or opensm without -o)
# under the umad2sim shim and the MAD-tracing shim, its PerfMgr off or on. After the subnet is up and has
# settled: a steady window of BENCH_STEADY seconds (the SM's CPU time read from /proc before and after);
# then one cable is unlinked and, 10 s later, relinked. With smd and the PerfMgr on, the unlink is timed to
# fall 30 ms into a counter pass (smd's own pass statistics say when the next one starts); OpenSM's pass
# is not observable live, so its fault lands where it lands and the report says whether a pass was running.
#
#   bench/perfmgr_one.sh smd|opensm off|on NETFILE OUTDIR 'NODE[PORT]' [ibsim args...]
#
# Environment: BENCH_SMD, BENCH_SMCTL, BENCH_COUNT_SO, BENCH_INTERVAL (s), BENCH_STEADY (s).
# Writes into OUTDIR: sm.log/sm.out, trace.txt (SMPs), pma_trace.txt (PerfMgt MADs), faults.txt,
# steady.txt ("t0 t1 cpu_s"), counters.json (smd), run.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sm=$1 mode=$2
netfile=$(realpath "$3")
outdir=$4 link=$5
shift 5
interval=${BENCH_INTERVAL:-10} steady=${BENCH_STEADY:-30}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((900 + steady)) "$@"  # sets out, preload

rm -f "${out}"/trace.txt "${out}"/pma_trace.txt "${out}"/smpcount.txt "${out}"/faults.txt
socket="${IBSIM_WORKDIR}/control.socket"
case "${sm}" in
  smd)
    bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${socket}"
    if [[ "${mode}" == on ]]; then
      printf 'perfmgr:\n  enabled: true\n  interval: %s\n' "${interval}" >>"${IBSIM_WORKDIR}/smd.yaml"
    fi
    cmd=("${BENCH_SMD}" --config "${IBSIM_WORKDIR}/smd.yaml")
    log="${out}/sm.out"
    ;;
  opensm)
    mkdir -p "${IBSIM_WORKDIR}/osm-cache"
    export OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache"
    echo "force_log_flush TRUE" >"${IBSIM_WORKDIR}/opensm.conf"
    cmd=(opensm -F "${IBSIM_WORKDIR}/opensm.conf" -f "${out}/sm.log" -R ftree)
    [[ "${mode}" == on ]] && cmd+=(--perfmgr --perfmgr_sweep_time_s "${interval}")
    log="${out}/sm.log"
    ;;
  *) echo "perfmgr_one: unknown SM ${sm}" >&2; exit 2 ;;
esac
printf '%q ' "${cmd[@]}" >"${out}/cmd.txt"
(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${preload}" SMPCOUNT_OUT="${out}/smpcount.txt" \
  SMPCOUNT_TRACE="${out}/trace.txt" SMPCOUNT_PMA_TRACE="${out}/pma_trace.txt" "${cmd[@]}" >"${out}/sm.out" 2>&1) &
sm_pid=$!
ibsim_track "${sm_pid}"

wait_for() {  # wait_for PATTERN SECONDS
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    grep -q -e "$1" "${log}" 2>/dev/null && return 0
    kill -0 "${sm_pid}" 2>/dev/null || { echo "perfmgr_one: ${sm} exited" >&2; return 1; }
    sleep 0.2
  done
  echo "perfmgr_one: '$1' not seen in ${log} within $2 s" >&2
  return 1
}
cpu_s() {  # utime + stime of the SM process, seconds
  awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/${sm_pid}/stat"
}
smd_counters() { "${BENCH_SMCTL}" --socket "${socket}" --json counters; }

wait_for "SUBNET UP" 600
sleep 5  # the first sweeps settle; a PerfMgr has done its first pass
t0=$(date +%s.%N) c0=$(cpu_s)
sleep "${steady}"
t1=$(date +%s.%N) c1=$(cpu_s)
echo "${t0} ${t1} $(python3 -c "print(${c1} - ${c0})")" >"${out}/steady.txt"

if [[ "${sm}" == smd && "${mode}" == on ]]; then
  # Wait for a pass to end, then sleep until 30 ms into the next (passes start every interval).
  before=$(smd_counters | python3 -c "import json,sys; print(json.load(sys.stdin)['result']['passes'])")
  while :; do
    smd_counters >"${out}/counters.json"
    now=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['result']['passes'])" "${out}/counters.json")
    ((now > before)) && break
    sleep 0.01
  done
  wall_s=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['result']['last_pass']['wall_ms'] / 1000)" "${out}/counters.json")
  sleep "$(python3 -c "print(max(0.0, ${interval} - ${wall_s} + 0.03))")"
fi
echo "unlink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "Unlink ${link}"
sleep 10
echo "relink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "ReLink ${link}"
sleep 10
[[ "${sm}" == smd && "${mode}" == on ]] && smd_counters >"${out}/counters.json"

kill -TERM "${sm_pid}"
for _ in $(seq 1 150); do kill -0 "${sm_pid}" 2>/dev/null || break; sleep 0.2; done
kill -KILL "${sm_pid}" 2>/dev/null || true
wait "${sm_pid}" 2>/dev/null || true
{
  echo "ibsim_args=$*"
  echo "link=${link}"
  echo "mode=${mode}"
} >"${out}/run.txt"
echo "  ${sm} perfmgr ${mode}: done"
