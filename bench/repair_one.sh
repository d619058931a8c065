#!/usr/bin/env bash
# One repair measurement: a FRESH ibsim on NETFILE, one SM running as a daemon (smd --config, or opensm
# without -o) under the umad2sim shim and the SMP-tracing shim. After the subnet is up and quiet, one
# cable is unlinked on ibsim's console; after BENCH_WINDOW seconds the forwarding tables are read back
# with infiniband-diags (the witness that they are consistent again); then the cable is relinked and
# another window passes. The SM is stopped with SIGTERM so the shim writes its trace. Everything started
# here is killed by PID on exit (bench/lib.sh).
#
#   bench/repair_one.sh smd|opensm NETFILE OUTDIR 'NODE[PORT]' [ibsim args...]
#
# Environment: BENCH_SMD (smd binary), BENCH_COUNT_SO (smpcount.so), BENCH_OSM_ENGINE (opensm -R),
# BENCH_WINDOW (seconds per fault, default 20), BENCH_RB_TIMEOUT (read-back seconds).
# Writes into OUTDIR: sm.log, trace.txt (shim), smpcount.txt, faults.txt ("unlink|relink realtime_s"),
# readback.json, quality.json, run.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sm=$1
netfile=$(realpath "$2")
outdir=$3
link=$4
shift 4
window=${BENCH_WINDOW:-20}
rb_timeout=${BENCH_RB_TIMEOUT:-900}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((600 + 2 * window + rb_timeout)) "$@"  # sets out, preload

rm -f "${out}/trace.txt" "${out}/smpcount.txt" "${out}/faults.txt"
case "${sm}" in
  smd)
    bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${IBSIM_WORKDIR}/control.socket"
    cmd=("${BENCH_SMD}" --config "${IBSIM_WORKDIR}/smd.yaml")
    log="${out}/sm.log"
    ;;
  opensm)
    mkdir -p "${IBSIM_WORKDIR}/osm-cache"
    export OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache"
    # OpenSM buffers its log file unless told otherwise; the benchmark watches it for SUBNET UP.
    echo "force_log_flush TRUE" >"${IBSIM_WORKDIR}/opensm.conf"
    cmd=(opensm -F "${IBSIM_WORKDIR}/opensm.conf" -f "${out}/sm.log" -R "${BENCH_OSM_ENGINE:-ftree}")
    log="${out}/sm.log"
    ;;
  *)
    echo "repair_one: unknown SM ${sm}" >&2
    exit 2
    ;;
esac
printf '%q ' "${cmd[@]}" >"${out}/cmd.txt"
(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${preload}" SMPCOUNT_OUT="${out}/smpcount.txt" \
  SMPCOUNT_TRACE="${out}/trace.txt" "${cmd[@]}" >"${out}/sm.out" 2>&1) &
sm_pid=$!
ibsim_track "${sm_pid}"
[[ "${sm}" == smd ]] && log="${out}/sm.out"

wait_for() {  # wait_for PATTERN SECONDS
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    grep -q -e "$1" "${log}" 2>/dev/null && return 0
    kill -0 "${sm_pid}" 2>/dev/null || { echo "repair_one: ${sm} exited" >&2; return 1; }
    sleep 0.2
  done
  echo "repair_one: '$1' not seen in ${log} within $2 s" >&2
  return 1
}
wait_for "SUBNET UP" 600
sleep 5  # let the first sweeps settle: only the fault's work is measured

echo "unlink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "Unlink ${link}"
sleep "${window}"
rbrc=0
sim timeout -k 5 "${rb_timeout}" python3 "${here}/readback.py" --out "${out}/readback.json" 2>"${out}/readback.err" || rbrc=$?
echo "relink $(date +%s.%N)" >>"${out}/faults.txt"
ibsim_console "ReLink ${link}"
sleep "${window}"

kill -TERM "${sm_pid}"
for _ in $(seq 1 150); do kill -0 "${sm_pid}" 2>/dev/null || break; sleep 0.2; done
kill -KILL "${sm_pid}" 2>/dev/null || true
wait "${sm_pid}" 2>/dev/null || true
{
  echo "readback_rc=${rbrc}"
  echo "ibsim_args=$*"
  echo "link=${link}"
} >"${out}/run.txt"
if [[ ${rbrc} -eq 0 ]]; then
  python3 "${here}/quality.py" "${out}/readback.json" "${netfile}" --shifts 16 --perm-seeds 2 --ebb-samples 4 \
    >"${out}/quality.json" 2>"${out}/quality.err" || echo "repair_one: quality.py failed" >&2
fi
echo "  ${sm}: done (read-back rc ${rbrc})"
