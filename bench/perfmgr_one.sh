#!/usr/bin/env bash
# One PerfMgr measurement: a FRESH ibsim on NETFILE, one SM as a daemon (smd --config, or opensm without -o)
# under the umad2sim shim and the MAD-tracing shim, its PerfMgr off or on. After the subnet is up and has
# settled: a steady window of BENCH_STEADY seconds (the SM's CPU time read from /proc before and after);
# then one cable is unlinked and, 10 s later, relinked. With the PerfMgr on, the unlink is timed to fall 30 ms
# into a counter pass: the tracing shim marks the first PerfMgt MAD of each pass as it leaves (both SMs alike).
#
#   bench/perfmgr_one.sh smd|opensm off|on NETFILE OUTDIR 'NODE[PORT]' [ibsim args...]
#
# Environment: BENCH_SMD, BENCH_SMCTL, BENCH_COUNT_SO, BENCH_INTERVAL (s), BENCH_STEADY (s), BENCH_PMA_WINDOW
# (PMA MADs in flight, both SMs: smd perfmgr.max_outstanding, OpenSM perfmgr_max_outstanding_queries; 8).
# Writes into OUTDIR: sm.log/sm.out, trace.txt (SMPs), pma_trace.txt (PerfMgt MADs), faults.txt,
# pma_live.txt (pass starts), steady.txt ("t0 t1 cpu_s"), counters.json (smd), run.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sm=$1 mode=$2
netfile=$(realpath "$3")
outdir=$4 link=$5
shift 5
interval=${BENCH_INTERVAL:-10} steady=${BENCH_STEADY:-30} window=${BENCH_PMA_WINDOW:-8}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((900 + steady)) "$@"  # sets out, preload

rm -f "${out}"/trace.txt "${out}"/pma_trace.txt "${out}"/smpcount.txt "${out}"/faults.txt
: >"${out}/pma_live.txt"
socket="${IBSIM_WORKDIR}/control.socket"
case "${sm}" in
  smd)
    bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${socket}"
    if [[ "${mode}" == on ]]; then
      printf 'perfmgr:\n  enabled: true\n  interval: %s\n  max_outstanding: %s\n' "${interval}" "${window}" \
        >>"${IBSIM_WORKDIR}/smd.yaml"
    fi
    cmd=("${BENCH_SMD}" --config "${IBSIM_WORKDIR}/smd.yaml")
    log="${out}/sm.out"
    ;;
  opensm)
    mkdir -p "${IBSIM_WORKDIR}/osm-cache"
    export OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache"
    # OpenSM's default of 500 PerfMgr queries in flight wedges ibsim on the 1728-host tree (its first pass
    # never ends: "There are still 398 MADs out" at exit); both SMs get the same window.
    printf 'force_log_flush TRUE\nperfmgr_max_outstanding_queries %s\n' "${window}" >"${IBSIM_WORKDIR}/opensm.conf"
    cmd=(opensm -F "${IBSIM_WORKDIR}/opensm.conf" -f "${out}/sm.log" -R ftree)
    [[ "${mode}" == on ]] && cmd+=(--perfmgr --perfmgr_sweep_time_s "${interval}")
    log="${out}/sm.log"
    ;;
  *) echo "perfmgr_one: unknown SM ${sm}" >&2; exit 2 ;;
esac
printf '%q ' "${cmd[@]}" >"${out}/cmd.txt"
(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${preload}" SMPCOUNT_OUT="${out}/smpcount.txt" \
  SMPCOUNT_TRACE="${out}/trace.txt" SMPCOUNT_PMA_TRACE="${out}/pma_trace.txt" \
  SMPCOUNT_PMA_LIVE="${out}/pma_live.txt" "${cmd[@]}" >"${out}/sm.out" 2>&1) &
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
smd_counters() { "${BENCH_SMCTL}" --socket "${socket}" --json counters "$@"; }

wait_for "SUBNET UP" 600
sleep 5  # the first sweeps settle; a PerfMgr has done its first pass
t0=$(date +%s.%N) c0=$(cpu_s)
sleep "${steady}"
t1=$(date +%s.%N) c1=$(cpu_s)
echo "${t0} ${t1} $(python3 -c "print(${c1} - ${c0})")" >"${out}/steady.txt"

next_pass() {  # wait for the next counter pass's first MAD (the tracing shim marks it as it leaves)
  local seen deadline=$((SECONDS + 3 * interval))
  seen=$(wc -l <"${out}/pma_live.txt")
  while (($(wc -l <"${out}/pma_live.txt") == seen)); do
    ((SECONDS < deadline)) || { echo "perfmgr_one: no counter pass began within $((3 * interval)) s" >&2; return 1; }
    sleep 0.005
  done
}
if [[ "${mode}" == on ]]; then
  next_pass
  sleep 0.03
fi
echo "unlink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "Unlink ${link}"
sleep 10
echo "relink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "ReLink ${link}"
sleep 10

# OpenSM stopped in the middle of a counter pass does not exit (it waits for its PerfMgr's MADs until it is
# killed, and the shim's counts die with it): stop both SMs 2 s after a pass began, when it is over.
if [[ "${mode}" == on ]]; then
  next_pass
  sleep 2
fi
# smd's own account of its last pass (one node's ports: the whole fabric's answer is 20 MB).
if [[ "${sm}" == smd && "${mode}" == on ]]; then smd_counters host-0 >"${out}/counters.json"; fi
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
