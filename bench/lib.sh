# shellcheck shell=bash
# Shared helpers for the scripts that run an ibsim (run_one.sh, repair_one.sh, lossy_one.sh, takeover.sh,
# soak.sh). Sourced, not run.
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
  local child=""
  for _ in $(seq 1 50); do
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
  for _ in $(seq 1 600); do
    if grep -q "Network simulator ready" "${IBSIM_WORKDIR}/ibsim.log" 2>/dev/null && sim_probe; then return 0; fi
    kill -0 "${IBSIM_PID}" 2>/dev/null || { echo "bench: ibsim exited early" >&2; tail -n 5 "${IBSIM_WORKDIR}/ibsim.log" >&2; return 1; }
    sleep 0.1
  done
  echo "bench: ibsim did not come up within 60 s" >&2
  return 1
}

# bench_run_open OUTDIR NETFILE SECONDS [ibsim args...]: make OUTDIR and set out to its absolute path, set preload (smpcount.so in front of umad2sim), start ibsim (bench_ibsim_start).
bench_run_open() {
  mkdir -p "$1"
  # shellcheck disable=SC2034  # out and preload are the per-run script's
  out=$(realpath "$1")
  # shellcheck disable=SC2034
  preload="${BENCH_COUNT_SO:+${BENCH_COUNT_SO}:}${SIM_PRELOAD}"
  shift
  bench_ibsim_start "$@"
}

# bench_sim_tool NAME LIMIT CMD...: CMD under the shim alone (no counting shim) in the ibsim workdir, killed
# after LIMIT s; stdout to $out/NAME.txt, stderr to $out/NAME.err, then "NAME_rc=<exit>" appended to
# NAME.txt. A failure is reported on stderr, never fatal: the report shows `-` for it.
bench_sim_tool() {
  local name=$1 limit=$2 rc=0
  shift 2
  (cd "${IBSIM_WORKDIR}" && timeout -k 5 "${limit}" env LD_PRELOAD="${SIM_PRELOAD}" "$@" >"${out}/${name}.txt" \
    2>"${out}/${name}.err") || rc=$?
  echo "${name}_rc=${rc}" >>"${out}/${name}.txt"
  [[ ${rc} -eq 0 ]] || echo "  ${name}: exit ${rc}: $(tail -n 2 "${out}/${name}.err")" >&2
  return 0
}

# bench_smd_policy FILE STATE SOCKET [SM_LINE...]: write FILE, a daemon policy (sm: SM_LINEs, state_dir STATE; control.socket SOCKET; metrics on 127.0.0.1:0) with mode 0644 (smd refuses a group/other-writable policy), and make STATE.
bench_smd_policy() {
  local file=$1 state=$2 socket=$3 line
  shift 3
  mkdir -p "${state}"
  {
    echo "sm:"
    for line in "$@"; do echo "  ${line}"; done
    printf '  state_dir: %s\ncontrol:\n  socket: %s\nmetrics:\n  listen: 127.0.0.1:0\n' "${state}" "${socket}"
  } >"${file}"
  chmod 0644 "${file}"
}

# bench_spawn LIMIT HOST CMD...: CMD under the shim at HOST, as the child of `timeout -s KILL LIMIT`, in the
# background (preloading $BENCH_PRELOAD when set, else the shim alone). Both the timeout process and CMD itself are tracked (killed by PID on exit): killing only
# timeout would leave CMD running. Sets spawned (timeout's PID, to wait on) and spawned_child.
bench_spawn() {
  local limit=$1 host=$2
  shift 2
  (cd "${IBSIM_WORKDIR}" && exec timeout -s KILL "${limit}" env SIM_HOST="${host}" LD_PRELOAD="${BENCH_PRELOAD:-${SIM_PRELOAD}}" "$@") &
  spawned=$!
  ibsim_track "${spawned}"
  spawned_child=""
  for _ in $(seq 1 100); do
    spawned_child=$(pgrep -P "${spawned}" | head -n 1 || true)
    [[ -n "${spawned_child}" ]] && break
    sleep 0.02
  done
  [[ -z "${spawned_child}" ]] || ibsim_track "${spawned_child}"
}

# bench_wait_up SM SECONDS: until the SM's log ($sm_log) says SUBNET UP; $sm_pid must stay alive.
bench_wait_up() {
  local deadline=$((SECONDS + $2)) t0=${SECONDS}
  until grep -q "SUBNET UP" "${sm_log}" 2>/dev/null; do
    ((SECONDS < deadline)) || { echo "bench: $1: no SUBNET UP within $2 s" >&2; return 1; }
    kill -0 "${sm_pid}" 2>/dev/null || { echo "bench: $1 exited" >&2; tail -n 5 "${sm_log}" >&2; return 1; }
    sleep 0.2
  done
  echo "bench: $1: SUBNET UP after $((SECONDS - t0)) s"
}

# bench_stop_sm: stop the SM started with bench_spawn ($sm_pid, $sm_timeout_pid): SIGTERM first (it writes
# its counts and traces at exit), by force after 10 s.
bench_stop_sm() {
  local pid
  pid=$(pgrep -P "${sm_pid}" | head -n 1 || true) # env execs the SM: sm_pid is the SM itself
  kill -TERM "${pid:-${sm_pid}}" "${sm_pid}" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "${sm_pid}" 2>/dev/null || break; sleep 0.1; done
  kill -9 "${sm_pid}" "${sm_timeout_pid}" 2>/dev/null || true
  wait "${sm_timeout_pid}" 2>/dev/null || true
}

# bench_on_host HOST CMD...: CMD under the shim as HOST (SIM_HOST), killed after 600 s.
bench_on_host() {
  local host=$1
  shift
  sim env SIM_HOST="${host}" timeout -s KILL 600 "$@"
}
