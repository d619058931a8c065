#!/usr/bin/env bash
# compile_cpu.sh: what each compile step of a build costs in CPU seconds (user + sys), on a shared machine
# where wall time says little (issue 43 target 6; docs/building.md "What the build costs").
#
#   cmake -S . -B DIR -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/bench/compile_cpu.sh"
#   SMD_COMPILE_LOG=/tmp/steps.log cmake --build DIR -j2 --target smd
#   bench/compile_cpu.sh --report /tmp/steps.log [N]
#
# As a launcher it runs the compiler command it is given under /usr/bin/time and appends one line per step
# to $SMD_COMPILE_LOG (default: compile_cpu.log in the step's working folder): user s, sys s, wall s, object. The
# compiler's exit status is returned unchanged; the log line is written on failure too. --report sums the
# log: steps, CPU seconds, and the N (default 15) costliest steps.
set -euo pipefail

if [[ ${1:-} == --report ]]; then
  log=${2:?usage: compile_cpu.sh --report LOG [N]}
  top=${3:-15}
  [[ -r ${log} ]] || { echo "compile_cpu: cannot read ${log}" >&2; exit 2; }
  awk -v top="${top}" '
    NF >= 4 { n++; cpu = $1 + $2; total += cpu; wall += $3; line[n] = sprintf("%8.2f  %s", cpu, $4) }
    END {
      if (n == 0) { print "compile_cpu: no steps in the log" > "/dev/stderr"; exit 1 }
      printf "%d compile steps, %.1f CPU-s (user+sys), %.1f s of summed step wall time, %.2f CPU-s a step\n", n, total, wall, total / n
      print "costliest steps (CPU-s, object):"
      for (i = 1; i <= n; i++) print line[i] | ("sort -rn | head -n " top)
    }' "${log}"
  exit 0
fi

[[ $# -ge 1 ]] || { echo "usage: compile_cpu.sh COMPILER ARGS... | --report LOG [N]" >&2; exit 2; }
log=${SMD_COMPILE_LOG:-${PWD}/compile_cpu.log}
object=?
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
  if [[ ${args[i]} == -o ]]; then object=${args[i + 1]}; fi
done
stats=$(mktemp)
trap 'rm -f "${stats}"' EXIT
rc=0
/usr/bin/time -o "${stats}" -f '%U %S %e' "$@" || rc=$?
# /usr/bin/time writes "Command exited with non-zero status N" before the figures when the compiler fails.
printf '%s %s\n' "$(tail -n 1 "${stats}")" "${object}" >>"${log}"
exit "${rc}"
