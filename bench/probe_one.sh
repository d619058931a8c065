#!/usr/bin/env bash
# ibsim's own SMP rate on one fabric, for bench/run.sh: a FRESH ibsim on NETFILE, then
# tests/integration/smp_probe discovers the fabric with 64 SMPs in flight (BENCH_PROBE_WINDOW; mad.window's
# maximum, smd's default is 32) and Gets
# every node's NodeInfo REREAD more times, all queued at once, so the window never empties: the
# steady-state rate ibsim itself can serve on this fabric, the ceiling of any SM's bring-up.
#
#   bench/probe_one.sh PROBE NETFILE OUTDIR REREAD [ibsim args...]   ->  OUTDIR/probe.txt (one key=value line)
#
# ibsim runs under `timeout -s KILL` and is killed by PID when this script ends (lib.sh's EXIT trap).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
probe=$1
netfile=$(realpath "$2")
outdir=$3
reread=$4
shift 4
limit=${BENCH_PROBE_TIMEOUT:-300}
window=${BENCH_PROBE_WINDOW:-64}  # SMPs in flight; 64 is mad.window's maximum

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((limit + 60)) "$@"  # sets out (preload is not used: no counting shim)
bench_sim_tool probe "${limit}" "${probe}" --window "${window}" --reread "${reread}"
exit 0
