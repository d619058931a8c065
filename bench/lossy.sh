#!/usr/bin/env bash
# smd and OpenSM on a lossy ibsim fabric: every port of every switch drops PERCENT of the SMPs entering it
# (console `Error`), out and back. For each fabric, drop rate and SM, bench/lossy_one.sh runs one SM on a
# fresh ibsim, clears the errors and reads back links Active, LIDs set and the check_fabric.py verdict.
#
#   bench/lossy.sh [--build DIR] [--fabrics "kary4-3 k8"] [--rates "0 2 5 10"]
#                  [--sms "smd smd-r8 smd-daemon opensm"] [--out FILE]
#
# kary4-3: tests/fabrics/kary4-3.net (48 switches, 64 hosts); k8: smd-fabric kary --k 8 --n 3 (192
# switches, 512 hosts). Writes the table to FILE (default bench/results/lossy.md) and keeps the raw
# outputs in a fresh directory under $TMPDIR, named at the top of the table. Every run has a hard time
# limit and kills what it started by PID.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
. "${bench}/setup.sh"
build="${src}/build"
fabrics="kary4-3"
rates="0 2 5 10"
sms="smd smd-r8 smd-daemon opensm"
out="${bench}/results/lossy.md"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --fabrics) fabrics=$2; shift 2 ;;
    --rates) rates=$2; shift 2 ;;
    --sms) sms=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "lossy.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in ibsim opensm iblinkinfo ibnetdiscover gcc python3; do
  command -v "${tool}" >/dev/null || { echo "lossy.sh: ${tool} not found (see bench/README.md)" >&2; exit 2; }
done
[[ -x "${build}/smd/smd" ]] || { echo "lossy.sh: no ${build}/smd/smd; build first" >&2; exit 2; }

raw=$(bench_raw_dir "" smd-lossy)
gcc -shared -fPIC -O2 -Wall -o "${raw}/smpcount.so" "${bench}/smpcount.c" -ldl -lpthread
export BENCH_SMD="${build}/smd/smd" BENCH_SMCTL="${build}/smd/smctl" BENCH_COUNT_SO="${raw}/smpcount.so"
export BENCH_SM_TIMEOUT=${BENCH_SM_TIMEOUT:-120}
echo "raw outputs: ${raw}"

for fabric in ${fabrics}; do
  bench_small_netfile "${build}" "${fabric}" "${raw}/${fabric}.net"
  for rate in ${rates}; do
    for sm in ${sms}; do
      # A hard bound on the whole measurement, on top of lossy_one.sh's own limits.
      timeout -s KILL $((BENCH_SM_TIMEOUT + 1800)) bash "${bench}/lossy_one.sh" "${sm}" "${raw}/${fabric}.net" \
        "${rate}" "${raw}/${fabric}-${rate}-${sm}" || echo "  ${sm} ${rate}%: measurement failed" >&2
    done
  done
done

python3 "${bench}/lossy_report.py" "${raw}" "${fabrics}" "${rates}" "${sms}" >"${out}"
cat "${out}"
