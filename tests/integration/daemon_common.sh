# Helpers for tests that run smd as a daemon on ibsim: start it in the background (tracked for the EXIT
# trap), wait for log lines with a deadline.
. "$(dirname "${BASH_SOURCE[0]}")/once_common.sh"

# start_daemon NAME POLICY_FILE [env assignments...] [-- smd options...]: sets DAEMON_PID_<NAME>, log in
# $IBSIM_WORKDIR/NAME.log
start_daemon() {
  local name=$1 policy=$2
  shift 2
  local envs=() opts=()
  while (($# > 0)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
  (($# > 0)) && shift && opts=("$@")
  # No `timeout` wrapper: kill -9 must hit smd itself. The CTest TIMEOUT and the EXIT trap bound it.
  (cd "${IBSIM_WORKDIR}" && exec env "${envs[@]}" LD_PRELOAD="${SIM_PRELOAD}" "${SMD_BIN}" --config "${policy}" \
    "${opts[@]}" >"${IBSIM_WORKDIR}/${name}.log" 2>&1) &
  local pid=$!
  ibsim_track "${pid}"
  printf -v "DAEMON_PID_${name}" '%s' "${pid}"
}

# wait_log NAME PATTERN SECONDS [COUNT]: wait until PATTERN occurs COUNT (default 1) times in NAME.log.
wait_log() {
  local name=$1 pattern=$2 seconds=$3 count=${4:-1}
  local deadline=$((SECONDS + seconds))
  while ((SECONDS < deadline)); do
    if [[ $(grep -c -E -e "${pattern}" "${IBSIM_WORKDIR}/${name}.log" 2>/dev/null || true) -ge ${count} ]]; then return 0; fi
    sleep 0.1
  done
  echo "FAIL: '${pattern}' x${count} not seen in ${name}.log within ${seconds}s" >&2
  tail -n 40 "${IBSIM_WORKDIR}/${name}.log" >&2
  return 1
}
