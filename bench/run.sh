#!/usr/bin/env bash
# Side-by-side benchmark of smd against OpenSM on the same ibsim fabrics (issue 7). See bench/README.md.
#
#   bench/run.sh [--quick] [--fabrics LIST] [--build DIR] [--engines LIST] [--shifts all|N] [--raw DIR]
#
#   --quick           only k8 (3-level 8-ary tree, 512 hosts) and torus (8x8, 2 hosts per switch)
#   --fabrics LIST    comma-separated subset of: ls512,k8,k12,torus,random   (default: all five)
#                     and the large 3-level k-ary trees k16 (4,096 hosts), k20, k24, k28, k30 (27,000 hosts,
#                     the largest under ibsim 0.10's 30,720-LID forwarding tables), only when named
#   --build DIR       an smd build tree holding smd/smd and smd/smd-fabric (default: build one in bench/.build)
#   --engines LIST    smd routing chain, e.g. "ftree, updn, minhop" (default) or "minhop"
#   --shifts auto|all|N  shift permutations: all N-1, or N evenly spaced ones (auto: all up to 1024 hosts, else 256)
#   --raw DIR         where raw outputs go (default: a fresh directory under ${TMPDIR:-/tmp}; kept)
#   --tag NAME        results file name: bench/results/NAME.md and NAME.json (default: latest)
#
# For every fabric: generate the netfile with smd-fabric, then OpenSM and smd each run once against a
# FRESH ibsim (bench/run_one.sh), tables are read back with ibroute before that ibsim is stopped, and
# bench/quality.py + bench/report.py turn the raw outputs into the table printed at the end and written
# to bench/results/latest.md (and latest.json). Nothing is hard-coded: every figure comes from this run.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
cmdline="bench/run.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"

quick=0
fabrics="ls512,k8,k12,torus,random"
build=""
engines="ftree, updn, minhop"
shifts="auto"
raw=""
tag="latest"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --fabrics) fabrics=$2; shift ;;
    --build) build=$2; shift ;;
    --engines) engines=$2; shift ;;
    --shifts) shifts=$2; shift ;;
    --raw) raw=$2; shift ;;
    --tag) tag=$2; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[[ ${quick} -eq 1 ]] && fabrics="k8,torus"

# ---- 1. what the benchmark needs -------------------------------------------------------------------
need=()
for pkg in opensm ibsim-utils libumad2sim0 infiniband-diags python3 time gcc; do
  dpkg -s "${pkg}" >/dev/null 2>&1 || need+=("${pkg}")
done
if [[ -z "${build}" ]]; then
  for pkg in cmake g++; do dpkg -s "${pkg}" >/dev/null 2>&1 || need+=("${pkg}"); done
fi
if [[ ${#need[@]} -gt 0 ]]; then
  echo "== installing: ${need[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  ${sudo} apt-get install -y "${need[@]}"
fi

# ---- 2. smd ----------------------------------------------------------------------------------------
[[ -n "${build}" ]] || echo "== building smd in ${bench}/.build"
build=$(bench_build_dir "${build}")
smd="${build}/smd/smd"
fabgen="${build}/smd/smd-fabric"
[[ -x "${smd}" && -x "${fabgen}" ]] || { echo "run.sh: ${smd} or ${fabgen} missing" >&2; exit 2; }
probe="${build}/tests/integration/smp_probe"
[[ -x "${probe}" ]] || echo "== ${probe} not built: no ibsim SMP rate probe (build target smp_probe for it)"
replay="${build}/tests/integration/smp_replay"
[[ -x "${replay}" ]] || echo "== ${replay} not built: no replay of smd's SMPs (build target smp_replay for it)"

raw=$(bench_raw_dir "${raw}" smd-bench)
echo "== raw outputs in ${raw}"

# ---- 3. the SMP-counting shim ----------------------------------------------------------------------
gcc -shared -fPIC -O2 -Wall -o "${raw}/smpcount.so" "${bench}/smpcount.c" -ldl -lpthread

# ---- 4. fabrics (smd-fabric arguments and OpenSM engine: bench/setup.sh) ---------------------------
export BENCH_SMD="${smd}" BENCH_ENGINES="${engines}" BENCH_COUNT_SO="${raw}/smpcount.so"
export BENCH_SM_TIMEOUT=${BENCH_SM_TIMEOUT:-600} BENCH_RB_TIMEOUT=${BENCH_RB_TIMEOUT:-900}
IFS=, read -r -a fablist <<<"${fabrics}"
for f in "${fablist[@]}"; do
  genargs=$(bench_fabric_args "${f}" ls512,k8,k12,torus,random,k16,k20,k24,k28,k30)
  BENCH_OSM_ENGINE=$(bench_osm_engine "${f}")
  export BENCH_OSM_ENGINE
  d="${raw}/${f}"
  mkdir -p "${d}"
  simline=$(bench_netfile "${build}" "${genargs}" "${d}/fabric.net")
  read -r -a simargs <<<"${simline}"
  echo "${genargs}" >"${d}/generator.txt"
  echo "${simargs[*]}" >"${d}/ibsim_args.txt"
  python3 "${bench}/fabric_stats.py" "${d}/fabric.net" >"${d}/stats.json"
  # OpenSM's up/down finds no roots by itself on the torus and the random graph (it logs "no root nodes
  # were found" and falls back to minhop), so it gets the same kind of root smd's updn picks: a most
  # central switch (fabric_stats.py). Fat trees keep OpenSM's own root detection.
  BENCH_OSM_ROOT=""
  if [[ "${BENCH_OSM_ENGINE}" == updn ]]; then
    BENCH_OSM_ROOT=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['updn_root']['guid'])" "${d}/stats.json")
  fi
  export BENCH_OSM_ROOT
  echo "== ${f}: smd-fabric ${genargs} ($(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(f\"{s['cas']} hosts, {s['switches']} switches, {s['cables']} cables\")" "${d}/stats.json"))"
  for sm in opensm smd; do
    "${bench}/run_one.sh" "${sm}" "${d}/fabric.net" "${d}/${sm}" "${simargs[@]}" || echo "  ${sm}: run_one failed ($?)" >&2
    if [[ -s "${d}/${sm}/readback.json" ]]; then
      python3 "${bench}/quality.py" "${d}/${sm}/readback.json" "${d}/fabric.net" --shifts "${shifts}" \
        >"${d}/${sm}/quality.json" 2>"${d}/${sm}/quality.err" || echo "  ${sm}: quality analysis failed" >&2
    fi
  done
  # ibsim's own SMP rate on this fabric (bench/probe_one.sh), when the build has the probe.
  if [[ -x "${probe}" ]]; then
    "${bench}/probe_one.sh" "${probe}" "${d}/fabric.net" "${d}/probe" 20 "${simargs[@]}" || echo "  probe failed ($?)" >&2
  fi
  # ibsim's floor for exactly smd's SMPs (bench/replay_one.sh): the record smd's run left, sent again.
  if [[ -x "${replay}" && -s "${d}/smd/smps.bin" ]]; then
    "${bench}/replay_one.sh" "${replay}" "${d}/fabric.net" "${d}/replay" "${d}/smd/smps.bin" "${simargs[@]}" ||
      echo "  replay failed ($?)" >&2
  fi
done

# ---- 5. report ------------------------------------------------------------------------------------
mkdir -p "${bench}/results"
python3 "${bench}/report.py" --raw "${raw}" --fabrics "${fabrics}" --cmd "${cmdline}" --engines "${engines}" \
  --smd "${smd}" --md "${bench}/results/${tag}.md" --json "${bench}/results/${tag}.json"
