#!/usr/bin/env bash
# One measurement: a FRESH ibsim on NETFILE, one SM run (smd --once or opensm -o) under the umad2sim shim
# and the SMP-counting shim, then the forwarding tables read back from the switches with infiniband-diags
# while ibsim is still up. Everything started here is killed by PID on exit (bench/lib.sh).
#
#   bench/run_one.sh smd|opensm NETFILE OUTDIR [ibsim args...]
#
# Environment (set by bench/run.sh):
#   BENCH_SMD          smd binary                      BENCH_ENGINES   smd engine list, e.g. "ftree, updn, minhop"
#   BENCH_OSM_ENGINE   opensm -R value                 BENCH_COUNT_SO  path of smpcount.so
#   BENCH_OSM_ROOT     optional root switch GUID for opensm -a (updn)
#   BENCH_SM_TIMEOUT   seconds for the SM run          BENCH_RB_TIMEOUT seconds for the read-back
# Writes into OUTDIR: sm.out (stdout+stderr), time.txt (/usr/bin/time -v), smpcount.txt, run.txt
# (key=value: rc, start, end, wall), opensm.log (opensm), readback.json, readback.err, smps.bin (smd: every SMP
# as sent, for bench/replay_one.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sm=$1
netfile=$(realpath "$2")
outdir=$3
shift 3
sm_timeout=${BENCH_SM_TIMEOUT:-600}
rb_timeout=${BENCH_RB_TIMEOUT:-900}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((sm_timeout + rb_timeout + 120)) "$@"  # sets out, preload

rm -f "${out}/smpcount.txt"
case "${sm}" in
  smd)
    mkdir -p "${IBSIM_WORKDIR}/state"
    cat >"${IBSIM_WORKDIR}/smd.yaml" <<YAML
sm:
  state_dir: ${IBSIM_WORKDIR}/state
routing:
  engines: [${BENCH_ENGINES}]
YAML
    cp "${IBSIM_WORKDIR}/smd.yaml" "${out}/smd.yaml"
    cmd=("${BENCH_SMD}" --once --config "${IBSIM_WORKDIR}/smd.yaml")
    ;;
  opensm)
    mkdir -p "${IBSIM_WORKDIR}/osm-cache"
    export OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache"
    cmd=(opensm -o -f "${out}/opensm.log" -R "${BENCH_OSM_ENGINE}")
    if [[ -n "${BENCH_OSM_ROOT:-}" ]]; then
      echo "${BENCH_OSM_ROOT}" >"${out}/root_guids.txt"
      cmd+=(-a "${out}/root_guids.txt")
    fi
    ;;
  *)
    echo "run_one: unknown SM ${sm}" >&2
    exit 2
    ;;
esac
printf '%q ' "${cmd[@]}" >"${out}/cmd.txt"

rc=0
# Write back what earlier steps left dirty (the other SM's run, read-backs, the probe) before the clock
# starts: an SM that makes its own files durable (smd's syncfs for the FRR configs) would otherwise pay
# for flushing everybody else's.
sync
start=$(date +%s.%N)
# timeout -> /usr/bin/time -> env LD_PRELOAD=... -> SM: time measures the SM itself (env execs it);
# the preload applies to the SM only.
# smd's SMPs are also recorded as sent (smpcount.c, $SMPCOUNT_RECORD) for bench/replay_one.sh.
record=""
[[ "${sm}" == smd ]] && record="${out}/smps.bin"
rm -f "${out}/smps.bin"
(cd "${IBSIM_WORKDIR}" && SMPCOUNT_OUT="${out}/smpcount.txt" SMPCOUNT_RECORD="${record}" timeout -k 5 "${sm_timeout}" \
  /usr/bin/time -v -o "${out}/time.txt" env LD_PRELOAD="${preload}" "${cmd[@]}" >"${out}/sm.out" 2>&1) || rc=$?
end=$(date +%s.%N)
{
  echo "rc=${rc}"
  echo "start=${start}"
  echo "end=${end}"
  echo "ibsim_args=$*"
} >"${out}/run.txt"
echo "  ${sm}: exit ${rc} after $(python3 -c "print(f'{${end}-${start}:.2f}')") s"

# Read the tables back whatever the SM's exit code was: a partial fabric is worth seeing.
rbrc=0
sim timeout -k 5 "${rb_timeout}" python3 "${here}/readback.py" --out "${out}/readback.json" 2>"${out}/readback.err" || rbrc=$?
echo "readback_rc=${rbrc}" >>"${out}/run.txt"
[[ ${rbrc} -eq 0 ]] || { echo "  ${sm}: read-back failed (${rbrc}): $(tail -n 3 "${out}/readback.err")" >&2; }
exit 0
