# Helpers for tests that run OpenSM 3.3.23 beside smd on ibsim, and the witnesses of who is master: each
# SM's own SMInfo as infiniband-diags' sminfo reads it over a directed route, and OpenSM's log.
. "$(dirname "${BASH_SOURCE[0]}")/daemon_common.sh"

# start_opensm NAME PRIORITY HOST [opensm.conf lines...]: OpenSM as a daemon attached at HOST, its log in
# $IBSIM_WORKDIR/NAME.log (flushed line by line, so tests can wait for it), its guid2lid cache in a
# directory of its own. PRIORITY "" keeps OpenSM's default. Sets OSM_PID_<NAME>; the EXIT trap kills it.
start_opensm() {
  local name=$1 prio=$2 host=$3
  shift 3
  mkdir -p "${IBSIM_WORKDIR}/cache-${name}"
  { echo "force_log_flush TRUE"; printf '%s\n' "$@"; } >"${IBSIM_WORKDIR}/${name}.conf"
  local args=(-F "${IBSIM_WORKDIR}/${name}.conf" -f "${IBSIM_WORKDIR}/${name}.log")
  [[ -n "${prio}" ]] && args+=(-p "${prio}")
  (cd "${IBSIM_WORKDIR}" && exec env SIM_HOST="${host}" OSM_CACHE_DIR="${IBSIM_WORKDIR}/cache-${name}" \
    LD_PRELOAD="${SIM_PRELOAD}" opensm "${args[@]}" >"${IBSIM_WORKDIR}/${name}.out" 2>&1) &
  local pid=$!
  ibsim_track "${pid}"
  printf -v "OSM_PID_${name}" '%s' "${pid}"
}

# sm_state FROM_HOST DR_PATH: the SMState (MASTER, STANDBY, DISCOVERING, NOTACTIVE, or NONE when nothing
# answers) of the SM at DR_PATH ("0,1,2") from FROM_HOST, read by infiniband-diags' sminfo.
sm_state() {
  local out
  out=$(sim env SIM_HOST="$1" timeout 10 sminfo -D "$2" 2>/dev/null) || { echo NONE; return 0; }
  sed -nE 's/.*state [0-9]+ SMINFO_([A-Z]+).*/\1/p' <<<"${out}"
}

# sm_line FROM_HOST DR_PATH: sminfo's whole line for that SM (for the log of a test).
sm_line() { sim env SIM_HOST="$1" timeout 10 sminfo -D "$2" 2>&1 || true; }

# wait_states FROM_HOST SECONDS PATH=STATE...: until every SM at PATH answers STATE (sminfo), or fail.
# Prints the seconds it took.
wait_states() {
  local from=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds)) t0=${SECONDS} want ok
  while ((SECONDS < deadline)); do
    ok=1
    for want in "$@"; do
      [[ $(sm_state "${from}" "${want%%=*}") == "${want#*=}" ]] || { ok=0; break; }
    done
    if ((ok)); then
      echo $((SECONDS - t0))
      return 0
    fi
    sleep 0.5
  done
  echo "FAIL: not $* within ${seconds}s" >&2
  for want in "$@"; do sm_line "${from}" "${want%%=*}" >&2; done
  return 1
}

# osm_never NAME PATTERN: fail when OpenSM's log has PATTERN (an error it must not report).
osm_never() {
  if grep -E -e "$2" "${IBSIM_WORKDIR}/$1.log"; then
    echo "FAIL: OpenSM log $1 has '$2'" >&2
    return 1
  fi
}

# lids_now FILE: every node's LID as ibnetdiscover reads it, sorted (the witness that no LID moved).
lids_now() {
  sim timeout 60 ibnetdiscover 2>/dev/null | grep -Eo '"[a-z0-9-]+"[^"]*lid [0-9]+' | sort >"$1"
  [[ -s "$1" ]]
}

# The leafspine fabric of the smd+OpenSM tests, seen from host-3 (leaf-0 port 4): smd runs on host-0
# (DR 0,1,1), OpenSM on host-1 (DR 0,1,2). Both poll every second and give up after two failed polls, smd
# light-sweeps every 2 s.
SMD=0,1,1 OSM=0,1,2

# start_fast_smd PRIORITY: smd "a" on host-0 with that priority and the fast intervals above.
start_fast_smd() {
  write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a" "  priority: $1" "  sweep_interval: 2" \
    "  poll_interval: 1" "  poll_retries: 2"
  start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
}

# start_fast_opensm PRIORITY: OpenSM "osm" on host-1 with that priority, polling every second.
start_fast_opensm() { start_opensm osm "$1" host-1 "sminfo_polling_timeout 1000" "polling_retry_number 2"; }

# settled_pair SMD_LINE OSM_LINE: after 3 s (three polls each way) sminfo still reads smd's port and
# OpenSM's port as "priority P state S SMINFO_X" SMD_LINE and OSM_LINE; OpenSM never distrusted smd's
# SMInfo; no LID moved since lids.before; every route delivers (ibroute read-back).
settled_pair() {
  sleep 3
  sm_line host-3 "${SMD}"
  sm_line host-3 "${OSM}"
  grep -q "$1" <(sm_line host-3 "${SMD}")
  grep -q "$2" <(sm_line host-3 "${OSM}")
  osm_never osm "ERR 2F18"
  lids_now "${IBSIM_WORKDIR}/lids.after"
  diff "${IBSIM_WORKDIR}/lids.before" "${IBSIM_WORKDIR}/lids.after"
  check_with_diags --expect-switches 6 --expect-cas 16
}
