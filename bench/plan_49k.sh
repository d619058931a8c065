#!/usr/bin/env bash
# `smd plan` of the largest 3-level Clos that fits a subnet's unicast LIDs (issue 43, target 4): 45,056
# hosts and 3,840 switches, 48,896 LIDs of the 49,151 (LMC 0), routed by the default chain (ftree wins).
#
#   bench/plan_49k.sh [--build DIR] [--before SMD] [--runs N] [--dump] [--raw DIR] [--out FILE]
#
# `smd-fabric fattree3 --pods 44 --leaves-per-pod 32 --aggs-per-pod 32 --cores-per-agg 32
# --leaf-down-ports 32 --hosts-per-leaf 32` writes the netfile once; then `smd plan --topology NET
# --linear-fdb-cap 49152 --format json` (with --dump also `--lft-dump FILE`, 1.9 GB of text) runs N times
# (default 3) under `timeout -s KILL` and `/usr/bin/time -v`. With --before SMD (another smd binary, e.g. a
# copy of main's) the two run alternately, run by run, so both see the same load; their JSON reports
# (timings left out) and LFT dumps must be byte for byte the same, or the script fails. The report
# (bench/plan_49k_report.py) gives, per binary, the run with the median CPU time: each phase of the plan's
# own timings_ms, wall, user and system seconds and peak RSS, the after/before ratios, and the load average
# around the runs (the machine is shared: CPU seconds are the figure, wall is noisy).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" before="" runs=3 dump=0 raw="" out=""
cmdline="bench/plan_49k.sh$(printf ' %q' "$@")"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --before) before=$(realpath "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --dump) dump=1; shift ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "plan_49k.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
smd="${build}/smd/smd"
fabgen="${build}/smd/smd-fabric"
for tool in "${smd}" "${fabgen}" ${before:+"${before}"}; do
  [[ -x "${tool}" ]] || { echo "plan_49k.sh: ${tool} is not an executable (build it, Release)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "plan_49k.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
[[ "${runs}" =~ ^[1-9][0-9]*$ ]] || { echo "plan_49k.sh: --runs must be a positive integer" >&2; exit 2; }

# shellcheck source=setup.sh
. "${bench}/setup.sh"
raw=$(bench_raw_dir "${raw}" smd-plan-49k)
net="${raw}/fattree3-45056.net"
"${fabgen}" fattree3 --pods 44 --leaves-per-pod 32 --aggs-per-pod 32 --cores-per-agg 32 --leaf-down-ports 32 \
  --hosts-per-leaf 32 -o "${net}"
labels=(after)
bins=("${smd}")
if [[ -n "${before}" ]]; then
  labels+=(before)
  bins+=("${before}")
fi
cut -d' ' -f1-3 /proc/loadavg >"${raw}/load_start.txt"
echo "plan 49k: ${runs} runs of ${labels[*]}; raw outputs in ${raw}"
for ((i = 1; i <= runs; ++i)); do
  for b in "${!bins[@]}"; do
    d="${raw}/${labels[b]}"
    mkdir -p "${d}"
    dump_args=()
    [[ "${dump}" == 0 ]] || dump_args=(--lft-dump "${d}/lfts${i}.txt")
    # 300 s is 30x what the plan took before issue 43's work on 2 loaded cores: only a hang reaches it.
    if ! timeout -s KILL 300 /usr/bin/time -v -o "${d}/time${i}.txt" \
      "${bins[b]}" plan --topology "${net}" --linear-fdb-cap 49152 --format json "${dump_args[@]}" \
      >"${d}/plan${i}.json" 2>"${d}/plan${i}.err"; then
      echo "plan_49k.sh: ${bins[b]} plan failed (run ${i}); see ${d}/plan${i}.err" >&2
      exit 1
    fi
  done
  echo "plan 49k: run ${i} done"
done
cut -d' ' -f1-3 /proc/loadavg >"${raw}/load_end.txt"
python3 "${bench}/plan_49k_report.py" "${raw}" --labels "${labels[@]}" --runs "${runs}" --cmd "${cmdline}" \
  --bins "${bins[@]}" | tee "${raw}/report.md"
[[ -z "${out}" ]] || cp "${raw}/report.md" "${out}"
