#!/usr/bin/env bash
# One lossy-fabric measurement (bench/lossy.sh runs it): a FRESH ibsim on NETFILE, console
# `Error "switch"[port] PERCENT` on every port of every switch, one SM run, then the errors cleared and
# what the SM left read back with infiniband-diags. Everything started here is killed by PID on exit,
# success or failure (bench/lib.sh -> tests/integration/ibsim_env.sh).
#
#   bench/lossy_one.sh SM NETFILE PERCENT OUTDIR [ibsim args...]
#     SM: smd         smd --once, default policy (mad.retries 3, sm.max_resweeps 3)
#         smd-r8      smd --once with mad.retries 8
#         smd-daemon  smd --config (the daemon) until it logs SUBNET UP, then SIGTERM
#         opensm      opensm -o -R ftree (one sweep, then exit)
# Environment: BENCH_SMD, BENCH_SMCTL (binaries), BENCH_COUNT_SO (smpcount.so), BENCH_SM_TIMEOUT (s, 120)
# Writes OUTDIR/result.txt (key=value), sm.out, readback.txt, check.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sm=$1
netfile=$(realpath "$2")
rate=$3
outdir=$4
shift 4
limit=${BENCH_SM_TIMEOUT:-120}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((limit + 900)) "$@"  # sets out, preload
[[ ${rate} -eq 0 ]] || ibsim_switch_errors "${netfile}" "${rate}"

bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${IBSIM_WORKDIR}/control.socket"
[[ ${sm} != smd-r8 ]] || printf 'mad:\n  retries: 8\n' >>"${IBSIM_WORKDIR}/smd.yaml"

rc=0
sweeps="" retries="" lost=""
start=$(date +%s.%N)
case "${sm}" in
  smd | smd-r8)
    (cd "${IBSIM_WORKDIR}" && SMPCOUNT_OUT="${out}/smpcount.txt" timeout -k 5 "${limit}" \
      env LD_PRELOAD="${preload}" "${BENCH_SMD}" --once --config "${IBSIM_WORKDIR}/smd.yaml" \
      >"${out}/sm.out" 2>"${out}/sm.err") || rc=$?
    end=$(date +%s.%N)
    sweeps=$(grep -c '^smd sweep' "${out}/sm.out" || true)
    retries=$(awk '/^  SMPs:/ { s += $4 } END { print s + 0 }' "${out}/sm.out")
    lost=$(awk '/^  SMPs:/ { s += $6 } END { print s + 0 }' "${out}/sm.out")
    ;;
  smd-daemon)
    (cd "${IBSIM_WORKDIR}" && exec env SMPCOUNT_OUT="${out}/smpcount.txt" LD_PRELOAD="${preload}" \
      "${BENCH_SMD}" --config "${IBSIM_WORKDIR}/smd.yaml" >"${out}/sm.out" 2>&1) &
    pid=$!
    ibsim_track "${pid}"
    deadline=$((SECONDS + limit))
    until grep -q "SUBNET UP" "${out}/sm.out" 2>/dev/null; do
      if ((SECONDS >= deadline)) || ! kill -0 "${pid}" 2>/dev/null; then rc=124; break; fi
      sleep 0.05
    done
    end=$(date +%s.%N)
    "${BENCH_SMCTL}" --socket "${IBSIM_WORKDIR}/control.socket" --json status >"${out}/status.json" || true
    kill -TERM "${pid}" 2>/dev/null || true
    wait "${pid}" || true
    read -r sweeps retries lost < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s = s.get("result", s)
print(s["sweeps"]["heavy"], s["smps"]["retries"], s["smps"]["timeouts"])' "${out}/status.json" 2>/dev/null ||
      echo "? ? ?")
    ;;
  opensm)
    mkdir -p "${IBSIM_WORKDIR}/osm-cache"
    (cd "${IBSIM_WORKDIR}" && OSM_CACHE_DIR="${IBSIM_WORKDIR}/osm-cache" SMPCOUNT_OUT="${out}/smpcount.txt" \
      timeout -k 5 "${limit}" env LD_PRELOAD="${preload}" opensm -o -f "${out}/opensm.log" -R ftree \
      >"${out}/sm.out" 2>&1) || rc=$?
    end=$(date +%s.%N)
    ;;
  *)
    echo "lossy_one: unknown SM ${sm}" >&2
    exit 2
    ;;
esac

# infiniband-diags would suffer the same drops: clear them before reading back.
[[ ${rate} -eq 0 ]] || ibsim_switch_errors "${netfile}" 0
sim timeout -k 5 600 python3 "${here}/lossy_readback.py" >"${out}/readback.txt" 2>"${out}/readback.err" || true
switches=$(grep -c '^Switch' "${netfile}")
cas=$(grep -c '^Hca' "${netfile}")
check=pass
sim timeout -k 5 900 python3 "${here}/../tests/integration/check_fabric.py" --expect-switches "${switches}" \
  --expect-cas "${cas}" >"${out}/check.txt" 2>&1 || check=fail
{
  echo "sm=${sm}"
  echo "rate=${rate}"
  echo "rc=${rc}"
  echo "wall=$(python3 -c "print(f'{${end}-${start}:.2f}')")"
  echo "sweeps=${sweeps}"
  echo "retries=${retries}"
  echo "lost=${lost}"
  echo "smps=$(awk '$1 == "smp_total" { s += $2 } END { print s + 0 }' "${out}/smpcount.txt" 2>/dev/null || echo 0)"
  cat "${out}/readback.txt"
  echo "check=${check}"
} >"${out}/result.txt"
echo "  ${sm} ${rate}%: $(tr '\n' ' ' <"${out}/result.txt")"
