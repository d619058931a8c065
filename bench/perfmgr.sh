#!/usr/bin/env bash
# PerfMgr benchmark (issue 19): smd's PerfMgr against OpenSM's (--perfmgr) on a fresh ibsim of the same
# fabric, each SM run twice: counters off, then on. Measured, per SM, from the MAD traces
# (bench/smpcount.c) and /proc: PMA MADs per counter pass, the wall time of a pass, the SM's CPU time per
# pass (CPU over a steady window with the PerfMgr on, minus the same window with it off), and the repair
# after one cable failure with the PerfMgr off and with the cable failing during a counter pass.
#
#   bench/perfmgr.sh [--build DIR] [--fabric k12|k8|ls512] [--interval S] [--steady S] [--raw DIR]
#
#   --fabric    default k12 (12-ary 3-tree, 1728 hosts, 432 switches)
#   --interval  seconds between counter passes, both SMs (default 10; OpenSM's perfmgr_sweep_time_s)
#   --steady    seconds of the steady window the CPU is read over (default 30)
# Writes bench/results/perfmgr.md. Every process started is killed by PID on exit (bench/lib.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
cmdline="bench/perfmgr.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"
build="" fabric="k12" interval=10 steady=30 raw=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift ;;
    --fabric) fabric=$2; shift ;;
    --interval) interval=$2; shift ;;
    --steady) steady=$2; shift ;;
    --raw) raw=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "perfmgr.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for pkg in opensm ibsim-utils libumad2sim0 infiniband-diags python3 gcc; do
  dpkg -s "${pkg}" >/dev/null 2>&1 || { echo "perfmgr.sh: package ${pkg} missing (bench/run.sh installs them)" >&2; exit 2; }
done
build=$(bench_build_dir "${build}")
genargs=$(bench_fabric_args "${fabric}" k12,k8,ls512)
raw=$(bench_raw_dir "${raw}" smd-perfmgr)
echo "== raw outputs in ${raw}"
gcc -shared -fPIC -O2 -Wall -o "${raw}/smpcount.so" "${bench}/smpcount.c" -ldl -lpthread
simline=$(bench_netfile "${build}" "${genargs}" "${raw}/fabric.net")
read -r -a simargs <<<"${simline}"
# The first switch in the file is a leaf; its first port whose peer is a switch is an up-link.
link=$(awk '/^Switch/ {sw=$3; next} sw && /^\[[0-9]+\] "sw/ {match($0, /^\[[0-9]+\]/); print sw substr($0, RSTART, RLENGTH); exit}' "${raw}/fabric.net")
echo "== ${fabric}: smd-fabric ${genargs}; failing ${link}; passes every ${interval} s"
export BENCH_SMD="${build}/smd/smd" BENCH_SMCTL="${build}/smd/smctl" BENCH_COUNT_SO="${raw}/smpcount.so"
export BENCH_INTERVAL="${interval}" BENCH_STEADY="${steady}"
for sm in opensm smd; do
  for mode in off on; do
    "${bench}/perfmgr_one.sh" "${sm}" "${mode}" "${raw}/fabric.net" "${raw}/${sm}-${mode}" "${link}" "${simargs[@]}" ||
      echo "  ${sm} ${mode}: failed ($?)" >&2
  done
done
table=$(python3 "${bench}/perfmgr_report.py" "${raw}" --interval "${interval}")
echo "${table}"
commit=$(git -C "${src}" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# PerfMgr cost: smd vs OpenSM $(dpkg-query -W -f '${Version}' opensm 2>/dev/null)"
  echo
  echo "\`${cmdline}\` at ${commit}, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Fabric: smd-fabric ${genargs}; cable failed: ${link}. OpenSM: \`opensm -R ftree [--perfmgr"
  echo "--perfmgr_sweep_time_s ${interval}]\` with perfmgr_max_outstanding_queries 8 (its default, 500, wedges ibsim"
  echo "here); smd: \`smd --config\` with state_dir and [perfmgr.enabled, interval ${interval}, max_outstanding 8]."
  echo
  echo "${table}"
} >"${bench}/results/perfmgr.md"
echo "== wrote bench/results/perfmgr.md"
