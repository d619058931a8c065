# Shared helpers for bench/run_one.sh. Sourced, not run.
#
# Reuses tests/integration/ibsim_env.sh (private IBSIM_SOCKNAME, workdir, `sim`, and the EXIT trap that
# kills every tracked PID), but starts ibsim itself so that ibsim also has a hard wall-clock limit:
#
#   bench_ibsim_start NETFILE SECONDS [ibsim args...]
#
# ibsim runs as the child of `timeout -s KILL SECONDS`; both PIDs are killed by the EXIT trap
# (ibsim as IBSIM_PID, the timeout process through ibsim_track), on success and on failure.

_bench_src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../tests/integration/ibsim_env.sh
. "${_bench_src}/tests/integration/ibsim_env.sh"

bench_ibsim_start() {
  local netfile=$1 limit=$2
  shift 2
  mkfifo "${IBSIM_WORKDIR}/console"
  # A writer on the console FIFO that lives as long as ibsim may (EOF on stdin makes ibsim spin).
  sleep "${limit}" >"${IBSIM_WORKDIR}/console" &
  IBSIM_FEEDER_PID=$!
  timeout -s KILL "${limit}" ibsim -s "$@" "${netfile}" <"${IBSIM_WORKDIR}/console" >"${IBSIM_WORKDIR}/ibsim.log" 2>&1 &
  local tpid=$!
  ibsim_track "${tpid}"
  local i child=""
  for i in $(seq 1 50); do
    child=$(pgrep -P "${tpid}" -x ibsim || true)
    [[ -n "${child}" ]] && break
    sleep 0.05
  done
  if [[ -z "${child}" ]]; then
    echo "bench: ibsim did not start" >&2
    tail -n 5 "${IBSIM_WORKDIR}/ibsim.log" >&2 || true
    return 1
  fi
  IBSIM_PID=${child}
  for i in $(seq 1 600); do
    if grep -q "Network simulator ready" "${IBSIM_WORKDIR}/ibsim.log" 2>/dev/null && sim_probe; then return 0; fi
    kill -0 "${IBSIM_PID}" 2>/dev/null || { echo "bench: ibsim exited early" >&2; tail -n 5 "${IBSIM_WORKDIR}/ibsim.log" >&2; return 1; }
    sleep 0.1
  done
  echo "bench: ibsim did not come up within 60 s" >&2
  return 1
}
