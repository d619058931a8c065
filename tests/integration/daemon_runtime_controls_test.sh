#!/usr/bin/env bash
# The operator's runtime controls on a running smd (OpenSM's console `sweep off`, `loglevel`, `perfmgr`):
#  - `smctl sweeps off --reason`: a cable pulled meanwhile is not repaired (check_fabric, from
#    ibnetdiscover and ibroute, finds LIDs not delivered), no heavy or light sweep runs, status says
#    "Sweeps OFF since ... by ...: <reason>" and smd_sweeps_disabled is 1; `smctl sweeps on` runs the held-back
#    repair, and check_fabric passes again.
#  - `smctl log-level debug`: debug lines appear in the log; a SIGHUP reload sets log.level from the file again.
#  - SIGUSR1 after the log file was moved: later lines land in a new file at log.file; a FIFO put at
#    log.file is refused without blocking (smd keeps answering), and the next SIGUSR1 recovers.
#  - `smctl perfmgr pass` (perfmgr.interval 600 s: the first pass would end 600 s after bring-up) raises the
#    pass count;
#    `smctl perfmgr clear` is counted.
. "$(dirname "$0")/health_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
LOG="${IBSIM_WORKDIR}/smd.log"  # log.file: what wait_log and scrape_metrics read
fail() { echo "FAIL: $*" >&2; exit 1; }
policy() { # policy LEVEL
  write_policy "${IBSIM_WORKDIR}/smd.yaml.new" "${IBSIM_WORKDIR}/state" "  sweep_interval: 1" \
    "perfmgr:" "  enabled: true" "  interval: 600" "log:" "  level: $1" "  file: ${LOG}"
  mv -f "${IBSIM_WORKDIR}/smd.yaml.new" "${IBSIM_WORKDIR}/smd.yaml"
}
field() { # field SMCTL-ARGS... -- KEY.PATH: one value of `smctl --json ARGS`
  local key=${*: -1}
  smctl --json "${@:1:$#-2}" | python3 -c 'import json, sys
s = json.load(sys.stdin)["result"]
for k in sys.argv[1].split("."):
    s = s.get(k) if isinstance(s, dict) else None
print("" if s is None else s)' "${key}"
}
metric() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }
diags_ok() { check_with_diags --expect-switches 6 --expect-cas 16 >"${IBSIM_WORKDIR}/diags.out" 2>&1; }

policy info
start_daemon smdout "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
diags_ok || { cat "${IBSIM_WORKDIR}/diags.out" >&2; fail "the fabric is not right after bring-up"; }

# --- Sweeps off: a pulled cable waits. ---
smctl sweeps off --reason "recabling rack 4" || fail "smctl sweeps off"
wait_json 10 "r['result']['sweeps_off'] is not None" status
smctl status >"${IBSIM_WORKDIR}/off.txt"
grep -E "^Sweeps OFF since 20[0-9-]+T[0-9:]+Z by uid [0-9]+ pid [0-9]+: recabling rack 4 " "${IBSIM_WORKDIR}/off.txt" ||
  { cat "${IBSIM_WORKDIR}/off.txt" >&2; fail "status does not say Sweeps OFF with the reason"; }
scrape_metrics "${IBSIM_WORKDIR}/off.prom"
[[ $(metric "${IBSIM_WORKDIR}/off.prom" smd_sweeps_disabled) == 1 ]] || fail "smd_sweeps_disabled is not 1"
heavy=$(field status -- sweeps.heavy)
light=$(field status -- sweeps.light)
ibsim_console 'Unlink "leaf-0"[6]'
wait_log smd "sweeps off: heavy sweep held back" 20
sleep 3  # three light-sweep intervals
[[ $(field status -- sweeps.heavy) == "${heavy}" ]] || fail "a heavy sweep ran while sweeps were off"
[[ $(field status -- sweeps.light) == "${light}" ]] || fail "light sweeps ran while sweeps were off"
[[ $(field status -- sweeps_off.held_back) -ge 1 ]] || fail "status counts nothing held back"
if diags_ok; then fail "check_fabric finds the fabric repaired although sweeps are off"; fi
# Either a switch's LFT still points at the pulled cable, or a switch cannot even be read over those routes.
grep -q -E "does not deliver|ibroute .* failed" "${IBSIM_WORKDIR}/diags.out" ||
  { cat "${IBSIM_WORKDIR}/diags.out" >&2; fail "unexpected verdict"; }
echo "sweeps off: the pulled cable was held back; check_fabric: $(grep -E -m1 "does not deliver|ibroute .* failed" \
  "${IBSIM_WORKDIR}/diags.out")"

ups=$(grep -c "SUBNET UP" "${LOG}")
smctl sweeps on || fail "smctl sweeps on"
wait_log smd "heavy sweep [0-9]+ under policy .*: sweeps on: [0-9]+ held back" 20
wait_log smd "SUBNET UP" 30 $((ups + 1))
diags_ok || { cat "${IBSIM_WORKDIR}/diags.out" >&2; fail "check_fabric after sweeps on"; }
[[ -z $(field status -- sweeps_off) ]] || fail "status still says sweeps off"
wait_json 10 "r['result']['sweeps']['light'] > ${light}" status  # light sweeps run again
scrape_metrics "${IBSIM_WORKDIR}/on.prom"
[[ $(metric "${IBSIM_WORKDIR}/on.prom" smd_sweeps_disabled) == 0 ]] || fail "smd_sweeps_disabled is not 0"

# --- The log level, at once. ---
grep -q -E "^[0-9T:.-]+ debug " "${LOG}" && fail "debug lines at level info"
smctl log-level debug || fail "smctl log-level debug"
[[ $(field status -- log_level) == debug ]] || fail "status does not show log level debug"
smctl sweep --light >/dev/null || fail "smctl sweep --light"
wait_log smd "^[0-9T:.-]+ debug " 10
wait_log smd "light sweep: smctl sweep --light by uid" 10
smctl log-level verbose 2>"${IBSIM_WORKDIR}/bad.err" && fail "an unknown level was taken"
grep -q "unknown level 'verbose'" "${IBSIM_WORKDIR}/bad.err" || fail "no error for an unknown level"

# --- SIGUSR1: logrotate moved the file. ---
mv "${LOG}" "${LOG}.1"
kill -USR1 "${DAEMON_PID_smdout}"
wait_log smd "SIGUSR1: log file reopened" 10
smctl sweep --light >/dev/null
wait_log smd "light sweep: smctl sweep --light" 10
grep -q "SUBNET UP" "${LOG}" && fail "the new log file holds lines from before the rotation"
grep -q "SIGUSR1: log file reopened" "${LOG}.1" && fail "a line after the reopen went to the moved file"
grep -q "SUBNET UP" "${LOG}.1" || fail "the moved file lost its lines"

# --- SIGUSR1 with a FIFO at log.file and no reader: refused at once (opening it would wait for a reader
# with the daemon's only thread); the reason goes to stderr, smd keeps answering, a later SIGUSR1 recovers. ---
rm -f "${LOG}"
mkfifo "${LOG}"
kill -USR1 "${DAEMON_PID_smdout}"
wait_log smdout "SIGUSR1: cannot reopen the log file: log.file .*: a FIFO without a reader" 10
smctl --timeout 5 status >/dev/null || fail "smd stopped answering after SIGUSR1 onto a FIFO"
rm -f "${LOG}"
kill -USR1 "${DAEMON_PID_smdout}"
wait_log smd "SIGUSR1: log file reopened" 10
[[ -f ${LOG} && ! -p ${LOG} ]] || fail "no regular log file after the second SIGUSR1"

# --- PerfMgr: one pass now, and a clear. ---
passes0=$(passes)
smctl perfmgr pass || fail "smctl perfmgr pass"
wait_json 20 "r['result']['passes'] > ${passes0}" counters
smctl perfmgr clear || fail "smctl perfmgr clear"
wait_json 10 "r['result']['clears'] == 1 and r['result']['cleared_at'] is not None and \
  all(v == 0 for p in r['result']['ports'] for v in p['total'].values())" counters
echo "perfmgr: passes ${passes0} -> $(passes) on request; stored counters cleared"

# --- A reload sets log.level from the file again (the file wins). ---
policy info
kill -HUP "${DAEMON_PID_smdout}"
wait_log smd "log level debug -> info \(policy 2\)" 30
[[ $(field status -- log_level) == info ]] || fail "status log level after the reload"

kill -TERM "${DAEMON_PID_smdout}"
wait "${DAEMON_PID_smdout}"
grep -q "smd stopped" "${LOG}" || fail "no clean stop"
echo "PASS: sweeps off/on, light sweep, log level, log reopen and PerfMgr pass/clear on a running smd"
