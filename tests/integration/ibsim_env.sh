# Source this from an integration test: starts one private ibsim fabric and ends it (by PID) on exit.
#
#   . tests/integration/ibsim_env.sh
#   ibsim_start NETFILE [ibsim args...]   # sets IBSIM_SOCKNAME, IBSIM_PID, SIM_PRELOAD, IBSIM_WORKDIR
#   sim CMD ARGS...                       # runs CMD under the umad2sim shim against this fabric
#   ibsim_console 'Unlink "sw1"[3]'       # fault injection through the console FIFO
#   ibsim_stop                            # end it (to start another fabric)
#   ibsim_start_other TAG NETFILE [args]  # a second, separate fabric at once (its own IBSIM_SOCKNAME)
#   sim_on TAG CMD ARGS...                # runs CMD under the shim against fabric TAG
#
# Everything started here is killed by PID in the EXIT trap, on success and on failure.

set -euo pipefail

SIM_PRELOAD=${SIM_PRELOAD:-$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim\.so$' | head -n1)}
if [[ -z "${SIM_PRELOAD}" || ! -f "${SIM_PRELOAD}" ]]; then
  echo "ibsim_env: libumad2sim.so not found (install libumad2sim0)" >&2
  exit 2
fi

# A sanitized build (-DSMD_SANITIZE=ON) under the shim: ASan must not stop smd for the shim's own
# overflow (see umad2sim.asan.supp). Unsanitized programs ignore ASAN_OPTIONS.
ASAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/umad2sim.asan.supp${ASAN_OPTIONS:+:${ASAN_OPTIONS}}"
export ASAN_OPTIONS

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

# ibsim_stop: end this test's ibsim (by PID) so that ibsim_start can bring up another fabric.
ibsim_stop() {
  local pid
  for pid in ${IBSIM_PID} ${IBSIM_FEEDER_PID}; do
    kill -9 "${pid}" 2>/dev/null || true
    wait "${pid}" 2>/dev/null || true
  done
  IBSIM_PID=""
  IBSIM_FEEDER_PID=""
  rm -f "${IBSIM_WORKDIR}/console"
}

sim_probe() { (cd "${IBSIM_WORKDIR}" && LD_PRELOAD="${SIM_PRELOAD}" timeout 5 ibstat >/dev/null 2>&1); }

# ibsim_start_other TAG NETFILE [args]: another simulator beside the first, for tests of two subnets from
# one host (one ibsim serves one subnet; a client reaches the one its IBSIM_SOCKNAME names). TAG is a
# word ([a-z0-9]); its socket name is ${IBSIM_SOCKNAME}-TAG, its log ibsim-TAG.log and console FIFO
# console-TAG in IBSIM_WORKDIR. Both of its PIDs (ibsim, the FIFO's writer) are killed by the EXIT trap.
ibsim_start_other() {
  local tag=$1 netfile=$2
  shift 2
  [[ ${tag} =~ ^[a-z0-9]+$ ]] || { echo "ibsim_start_other: bad tag '${tag}'" >&2; return 1; }
  local sock="${IBSIM_SOCKNAME}-${tag}" log="${IBSIM_WORKDIR}/ibsim-${tag}.log" fifo="${IBSIM_WORKDIR}/console-${tag}"
  mkfifo "${fifo}"
  sleep infinity >"${fifo}" &
  ibsim_track $!
  IBSIM_SOCKNAME="${sock}" ibsim -s "$@" "${netfile}" <"${fifo}" >"${log}" 2>&1 &
  local pid=$!
  ibsim_track "${pid}"
  printf -v "IBSIM_PID_${tag}" '%s' "${pid}"
  local i
  for i in $(seq 1 200); do
    if grep -q "listen" "${log}" 2>/dev/null || sim_on "${tag}" timeout 5 ibstat >/dev/null 2>&1; then return 0; fi
    kill -0 "${pid}" 2>/dev/null || { echo "ibsim ${tag} exited early" >&2; cat "${log}" >&2; return 1; }
    sleep 0.1
  done
  echo "ibsim ${tag} did not come up" >&2
  return 1
}

# sim_on TAG CMD ARGS: like sim, against the fabric ibsim_start_other TAG started.
sim_on() {
  local tag=$1
  shift
  (cd "${IBSIM_WORKDIR}" && IBSIM_SOCKNAME="${IBSIM_SOCKNAME}-${tag}" LD_PRELOAD="${SIM_PRELOAD}" "$@")
}

# sim CMD ARGS: run under the shim, cwd = workdir (the shim writes ./sys-<pid> there).
sim() { (cd "${IBSIM_WORKDIR}" && LD_PRELOAD="${SIM_PRELOAD}" "$@"); }

# ibsim_console LINE: send one console command (<= 127 characters).
ibsim_console() { printf '%s\n' "$1" >"${IBSIM_WORKDIR}/console"; }

# ibsim_dump: have ibsim print its whole fabric (console `Dump`) and wait until it has.
ibsim_dump() {
  local before
  before=$(grep -c "dumped .* nodes" "${IBSIM_WORKDIR}/ibsim.log" || true)
  ibsim_console 'Dump'
  for _ in $(seq 1 300); do
    [[ $(grep -c "dumped .* nodes" "${IBSIM_WORKDIR}/ibsim.log" || true) -gt ${before} ]] && return 0
    sleep 0.1
  done
  echo "ibsim_dump: no dump within 30 s" >&2
  return 1
}

# ibsim_dump_count REGEX: lines of the latest Dump that match REGEX (awk syntax). The console prompt
# shares a line with the dump's "# Net status" header, so the header is not anchored.
ibsim_dump_count() {
  awk -v re="$1" '/# Net status/ { n = 0 } $0 ~ re { n++ } END { print n + 0 }' "${IBSIM_WORKDIR}/ibsim.log"
}

# ibsim_switch_errors NETFILE PERCENT: `Error "switch"[port] PERCENT` on every port 1..N of every switch
# of NETFILE: ibsim then drops that share of the SMPs entering each of those ports, on the way to the
# target and on the way back (0 clears it). Returns once ibsim's Dump shows every one of them.
ibsim_switch_errors() {
  local netfile=$1 rate=$2 nports name p want=0 have
  while read -r nports name; do
    for ((p = 1; p <= nports; p++)); do ibsim_console "Error \"${name}\"[${p}] ${rate}"; done
    want=$((want + nports))
  done < <(awk '$1 == "Switch" { gsub(/"/, "", $3); print $2, $3 }' "${netfile}")
  ibsim_dump
  if [[ ${rate} -eq 0 ]]; then
    want=0
    have=$(ibsim_dump_count "err_rate")
  else
    have=$(ibsim_dump_count "err_rate ${rate}\$")
  fi
  if [[ ${have} -ne ${want} ]]; then
    echo "ibsim_switch_errors: ${have} switch ports carry error rate ${rate}, expected ${want}" >&2
    return 1
  fi
}
