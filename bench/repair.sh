#!/usr/bin/env bash
# Daemon repair benchmark (issues 6 and 7): OpenSM and smd each run as a long-lived SM on a fresh ibsim
# of the same fabric; one inter-switch cable is unlinked, then relinked, on ibsim's console. Measured
# from the SMP trace of each SM (bench/smpcount.c): time from the fault to the last LFT block written,
# LFT blocks written, SMPs sent; the tables after the unlink are read back with infiniband-diags.
#
#   bench/repair.sh [--build DIR] [--fabric k12|k8|ls512] [--link 'NODE[PORT]'] [--window S] [--raw DIR]
#
#   --fabric   default k12 (12-ary 3-tree, 1728 hosts, 432 switches)
#   --link     the cable to fail, by ibsim node name and port (default: the first leaf's first up-link)
#   --window   seconds each fault is given before the next step (default 20)
# Writes bench/results/repair.md. Every process started is killed by PID on exit (bench/lib.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
cmdline="bench/repair.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"
build="" fabric="k12" link="" window=20 raw=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift ;;
    --fabric) fabric=$2; shift ;;
    --link) link=$2; shift ;;
    --window) window=$2; shift ;;
    --raw) raw=$2; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "repair.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for pkg in opensm ibsim-utils libumad2sim0 infiniband-diags python3 gcc; do
  dpkg -s "${pkg}" >/dev/null 2>&1 || { echo "repair.sh: package ${pkg} missing (bench/run.sh installs them)" >&2; exit 2; }
done
build=$(bench_build_dir "${build}")
genargs=$(bench_fabric_args "${fabric}" k12,k8,ls512)
raw=$(bench_raw_dir "${raw}" smd-repair)
echo "== raw outputs in ${raw}"
gcc -shared -fPIC -O2 -Wall -o "${raw}/smpcount.so" "${bench}/smpcount.c" -ldl -lpthread
simline=$(bench_netfile "${build}" "${genargs}" "${raw}/fabric.net")
read -r -a simargs <<<"${simline}"
if [[ -z "${link}" ]]; then
  # The first switch in the file is a leaf; its first port whose peer is a switch is an up-link.
  link=$(awk '/^Switch/ {sw=$3; next} sw && /^\[[0-9]+\] "sw/ {match($0, /^\[[0-9]+\]/); print sw substr($0, RSTART, RLENGTH); exit}' "${raw}/fabric.net")
fi
echo "== ${fabric}: smd-fabric ${genargs}; failing ${link}"
export BENCH_SMD="${build}/smd/smd" BENCH_COUNT_SO="${raw}/smpcount.so" BENCH_OSM_ENGINE=ftree BENCH_WINDOW="${window}"
for sm in opensm smd; do
  "${bench}/repair_one.sh" "${sm}" "${raw}/fabric.net" "${raw}/${sm}" "${link}" "${simargs[@]}" || echo "  ${sm}: failed ($?)" >&2
done
table=$(python3 "${bench}/repair_report.py" "${raw}")
echo "${table}"
commit=$(git -C "${src}" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Repair after a cable failure: smd vs OpenSM $(dpkg-query -W -f '${Version}' opensm 2>/dev/null)"
  echo
  echo "\`${cmdline}\` at ${commit}, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Fabric: smd-fabric ${genargs}; cable failed: ${link}. Both SMs run with their default policy"
  echo "(OpenSM: \`opensm -R ftree\`; smd: \`smd --config\` with only state_dir set)."
  echo
  echo "${table}"
  echo
  echo "Repair time is measured from the console command to the moment the SM's last LFT Set left it"
  echo "(SMP trace from bench/smpcount.c); see bench/README.md."
} >"${bench}/results/repair.md"
echo "== wrote bench/results/repair.md"
