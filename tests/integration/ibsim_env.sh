# Source this from an integration test: starts one private ibsim fabric and ends it (by PID) on exit.
#
#   . tests/integration/ibsim_env.sh
#   ibsim_start NETFILE [ibsim args...]   # sets IBSIM_SOCKNAME, IBSIM_PID, SIM_PRELOAD, IBSIM_WORKDIR
#   sim CMD ARGS...                       # runs CMD under the umad2sim shim against this fabric
#   ibsim_console 'Unlink "sw1"[3]'       # fault injection through the console FIFO
#
# Everything started here is killed by PID in the EXIT trap, on success and on failure.

set -euo pipefail

SIM_PRELOAD=${SIM_PRELOAD:-$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim\.so$' | head -n1)}
if [[ -z "${SIM_PRELOAD}" || ! -f "${SIM_PRELOAD}" ]]; then
  echo "ibsim_env: libumad2sim.so not found (install libumad2sim0)" >&2
  exit 2
fi

IBSIM_WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/smd-ibsim.XXXXXX")
IBSIM_SOCKNAME="smd-$$-${RANDOM}"
export IBSIM_SOCKNAME
IBSIM_PID=""
IBSIM_FEEDER_PID=""
_ibsim_extra_pids=()

_ibsim_cleanup() {
  local rc=$?
  for pid in "${_ibsim_extra_pids[@]}" ${IBSIM_PID} ${IBSIM_FEEDER_PID}; do
    [[ -n "${pid}" ]] && kill -9 "${pid}" 2>/dev/null || true
  done
  for pid in "${_ibsim_extra_pids[@]}" ${IBSIM_PID} ${IBSIM_FEEDER_PID}; do
    [[ -n "${pid}" ]] && wait "${pid}" 2>/dev/null || true
  done
  if [[ ${rc} -ne 0 && -f "${IBSIM_WORKDIR}/ibsim.log" ]]; then
    echo "--- ibsim log (tail) ---" >&2
    tail -n 20 "${IBSIM_WORKDIR}/ibsim.log" >&2 || true
  fi
  if [[ -z "${SMD_KEEP_WORKDIR:-}" ]]; then rm -rf "${IBSIM_WORKDIR}"; fi
  exit ${rc}
}
trap _ibsim_cleanup EXIT
trap 'exit 130' INT TERM

# ibsim_track PID: also kill PID when the test ends.
ibsim_track() { _ibsim_extra_pids+=("$1"); }

# ibsim_start NETFILE [args]: start ibsim with a console FIFO that always has a writer (EOF on stdin
# makes ibsim spin), wait until a client can attach.
ibsim_start() {
  local netfile=$1
  shift
  mkfifo "${IBSIM_WORKDIR}/console"
  sleep infinity >"${IBSIM_WORKDIR}/console" &
  IBSIM_FEEDER_PID=$!
  ibsim -s "$@" "${netfile}" <"${IBSIM_WORKDIR}/console" >"${IBSIM_WORKDIR}/ibsim.log" 2>&1 &
  IBSIM_PID=$!
  local i
  for i in $(seq 1 200); do
    if grep -q "listen" "${IBSIM_WORKDIR}/ibsim.log" 2>/dev/null || sim_probe; then return 0; fi
    kill -0 "${IBSIM_PID}" 2>/dev/null || { echo "ibsim exited early" >&2; cat "${IBSIM_WORKDIR}/ibsim.log" >&2; return 1; }
    sleep 0.1
  done
  echo "ibsim did not come up" >&2
  return 1
}

sim_probe() { (cd "${IBSIM_WORKDIR}" && LD_PRELOAD="${SIM_PRELOAD}" timeout 5 ibstat >/dev/null 2>&1); }

# sim CMD ARGS: run under the shim, cwd = workdir (the shim writes ./sys-<pid> there).
sim() { (cd "${IBSIM_WORKDIR}" && LD_PRELOAD="${SIM_PRELOAD}" "$@"); }

# ibsim_console LINE: send one console command (<= 127 characters).
ibsim_console() { printf '%s\n' "$1" >"${IBSIM_WORKDIR}/console"; }
