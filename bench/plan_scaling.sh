#!/usr/bin/env bash
# Offline planning at scale (issue 20, target 1): `smd plan` on 3-level k-ary trees from 1,728 to 32,768
# hosts, phase by phase, with wall time, CPU time and peak RSS from /usr/bin/time -v.
#
#   bench/plan_scaling.sh [--build DIR] [--ks "12 16 20 24 28 32"] [--runs N] [--raw DIR] [--out FILE]
#
# For every k: `smd-fabric kary --k K --n 3` writes the netfile (k^3 hosts on 3k^2 switches of 2k ports),
# then `smd plan --topology NET --linear-fdb-cap 49152 --format json` runs N times (default 3)
# under `timeout -s KILL` and `/usr/bin/time -v`. The plan's own `timings_ms` give the phases (read, LIDs,
# routing chain = engine compute + verification, quality report, path diversity, outputs); the report takes,
# per k, the run with the median total and prints each phase's time, its cost per (LID x switch) and the
# scaling exponent of each phase between the smallest and the largest fabric (1.0 = linear in LIDs x switches,
# the size of the LFTs a plan has to fill and check).
#
# There is no OpenSM figure here: OpenSM has no offline planner; it routes only a fabric it has swept.
# bench/run.sh compares the two on the same ibsim fabrics.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" ks="12 16 20 24 28 32" runs=3 raw="" out=""
cmdline="bench/plan_scaling.sh$(printf ' %q' "$@")"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --ks) ks=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "plan_scaling.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
smd="${build}/smd/smd"
fabgen="${build}/smd/smd-fabric"
for tool in "${smd}" "${fabgen}"; do
  [[ -x "${tool}" ]] || { echo "plan_scaling.sh: build ${tool##*/} in ${build} first (Release)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "plan_scaling.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
[[ "${runs}" =~ ^[1-9][0-9]*$ ]] || { echo "plan_scaling.sh: --runs must be a positive integer" >&2; exit 2; }

# shellcheck source=setup.sh
. "${bench}/setup.sh"
raw=$(bench_raw_dir "${raw}" smd-plan-scaling)
echo "plan scaling: k = ${ks}; ${runs} runs each; raw outputs in ${raw}"

for k in ${ks}; do
  [[ "${k}" =~ ^[0-9]+$ ]] || { echo "plan_scaling.sh: bad k '${k}'" >&2; exit 2; }
  d="${raw}/k${k}"
  mkdir -p "${d}"
  "${fabgen}" kary --k "${k}" --n 3 -o "${d}/fabric.net"
  for ((i = 1; i <= runs; ++i)); do
    # 600 s is 100x what k=32 takes on 2 cores: only a hang reaches it.
    if ! timeout -s KILL 600 /usr/bin/time -v -o "${d}/time${i}.txt" \
      "${smd}" plan --topology "${d}/fabric.net" --linear-fdb-cap 49152 --format json \
      >"${d}/plan${i}.json" 2>"${d}/plan${i}.err"; then
      echo "plan_scaling.sh: smd plan failed on k=${k} (run ${i}); see ${d}/plan${i}.err" >&2
      exit 1
    fi
  done
  echo "plan scaling: k=${k} done"
done
# shellcheck disable=SC2086  # one argument per k
python3 "${bench}/plan_scaling_report.py" "${raw}" --ks ${ks} --runs "${runs}" --cmd "${cmdline}" \
  --smd "${smd}" | tee "${raw}/report.md"
[[ -z "${out}" ]] || cp "${raw}/report.md" "${out}"
