#!/usr/bin/env bash
# ibsim's own time for exactly the SMPs smd sent, for bench/run.sh: a FRESH ibsim on NETFILE, then
# tests/integration/smp_replay sends RECORD (written by smpcount.so during smd's run, $SMPCOUNT_RECORD)
# again with 32 SMPs in flight (BENCH_REPLAY_WINDOW; smd's default mad.window, the one the record was sent
# with, and where ibsim is already saturated: bench/README.md), waiting only between reads and writes and before the
# links go Active. No SM computes in between: this is the floor of smd's bring-up on ibsim.
#
#   bench/replay_one.sh REPLAY NETFILE OUTDIR RECORD [ibsim args...]  ->  OUTDIR/replay.txt (one key=value line)
#
# ibsim runs under `timeout -s KILL` and is killed by PID when this script ends (lib.sh's EXIT trap).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
replay=$1
netfile=$(realpath "$2")
outdir=$3
record=$(realpath "$4")
shift 4
limit=${BENCH_PROBE_TIMEOUT:-300}
window=${BENCH_REPLAY_WINDOW:-32}

. "${here}/lib.sh"
bench_run_open "${outdir}" "${netfile}" $((limit + 60)) "$@"  # sets out (preload is not used: no counting shim)
bench_sim_tool replay "${limit}" "${replay}" --window "${window}" --record "${record}"
exit 0
