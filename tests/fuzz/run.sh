#!/usr/bin/env bash
# Run every fuzz target (or the ones named) for a bounded time over its seed corpus and print, per target,
# the executions, the corpus it ended with and whether it found a crash. See tests/fuzz/README.md.
#
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#
# BUILD_DIR holds the fuzz_<target> binaries (cmake -DSMD_FUZZ=ON with clang). The corpus each run grows
# is kept in BUILD_DIR/fuzz-corpus/<target> (the checked-in seeds in tests/fuzz/corpus/<target> are only
# read), crash/timeout/leak inputs go to BUILD_DIR/fuzz-artifacts/, logs to BUILD_DIR/fuzz-logs/.
# Exit status: 0 when no target found anything, 1 otherwise, 2 on bad usage.
set -euo pipefail

if [[ $# -lt 2 || ! "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for dir in "${here}"/corpus/*/; do targets+=("$(basename "${dir}")"); done
fi

mkdir -p "${build}/fuzz-corpus" "${build}/fuzz-artifacts" "${build}/fuzz-logs"
# Run in an empty directory: a fuzzed netfile's relative `include "x"` must find nothing to read.
scratch=$(mktemp -d)
trap 'rm -rf "${scratch}"' EXIT

printf '%-17s %8s %12s %10s %12s %s\n' target seconds executions corpus corpus_bytes result
found=0
for t in "${targets[@]}"; do
  bin="${build}/tests/fuzz/fuzz_${t}"
  if [[ ! -x "${bin}" ]]; then
    echo "${t}: ${bin} not built (cmake --build ${build} --target fuzz_targets)" >&2
    found=1
    continue
  fi
  corpus="${build}/fuzz-corpus/${t}"
  mkdir -p "${corpus}"
  log="${build}/fuzz-logs/${t}.log"
  status=0
  (cd "${scratch}" && "${bin}" -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="${build}/fuzz-artifacts/${t}-" "${corpus}" "${here}/corpus/${t}") >"${log}" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -n 1)
  files=$(find "${corpus}" -type f | wc -l)
  bytes=$(find "${corpus}" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  result=ok
  if [[ ${status} -ne 0 ]]; then
    result="FOUND (exit ${status}; $(grep -m1 -oE 'ERROR: [A-Za-z]+: [^ ]+|fuzz property failed: .*|deadly signal|timeout' "${log}" || echo see log): ${log})"
    found=1
  fi
  printf '%-17s %8s %12s %10s %12s %s\n' "${t}" "${seconds}" "${execs:-?}" "${files}" "${bytes}" "${result}"
done
exit "${found}"
