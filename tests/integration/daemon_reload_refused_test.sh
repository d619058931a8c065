#!/usr/bin/env bash
# A SIGHUP whose policy file is refused is visible, not only logged: `smctl status` says REFUSED with the
# loader's file:line:column and since when, the metrics count it (smd_policy_reloads_refused_total) and
# flag it (smd_policy_reload_refused 1), and no heavy sweep runs for it (nothing changed). A later good file
# clears the flag. With metrics.listen on port 0, `smctl status` names the port the kernel chose, and
# the endpoint answers there. The witnesses are the log, the metrics endpoint and smctl's JSON.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
POLICY="${IBSIM_WORKDIR}/smd.yaml"
STATE="${IBSIM_WORKDIR}/state"
SOCK="${STATE}.control.socket"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
LOG="${IBSIM_WORKDIR}/smd.log"
fail() { echo "FAIL: $*" >&2; exit 1; }

# write_policy MAX_OUTSTANDING: the whole file in one rename (0 light sweeps: only SIGHUP and traps sweep).
write_policy() {
  { printf 'sm:\n  state_dir: %s\n  sweep_interval: 0\n' "${STATE}"
    printf 'control:\n  socket: %s\nmetrics:\n  listen: 127.0.0.1:0\n' "${SOCK}"
    printf 'perfmgr:\n  max_outstanding: %s\n' "$1"; } >"${POLICY}.new"
  chmod 0644 "${POLICY}.new"
  mv -f "${POLICY}.new" "${POLICY}"
}
status_json() { timeout 10 "${SMCTL}" --socket "${SOCK}" status --json >"${IBSIM_WORKDIR}/$1.json" || fail "smctl status"; }
field() { python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["result"]
for k in sys.argv[2].split("."):
    s = s.get(k) if isinstance(s, dict) else None
print("" if s is None else s)' "${IBSIM_WORKDIR}/$1.json" "$2"; }
scrape() { # scrape NAME: the metrics endpoint's text, at the address smctl status names
  python3 -c 'import sys, urllib.request; print(urllib.request.urlopen("http://" + sys.argv[1] + "/metrics", timeout=5).read().decode())' \
    "${METRICS}" >"${IBSIM_WORKDIR}/$1.prom" || fail "no metrics at ${METRICS}"
}
metric() { awk -v m="$2" '$1 == m { print $2 }' "${IBSIM_WORKDIR}/$1.prom"; }

write_policy 8
start_daemon smd "${POLICY}"
wait_log smd "SUBNET UP" 60
status_json up
METRICS=$(field up metrics)
[[ ${METRICS} =~ ^127\.0\.0\.1:[0-9]+$ && ${METRICS} != 127.0.0.1:0 ]] || fail "status names no bound metrics address: '${METRICS}'"
echo "metrics bound at ${METRICS} (metrics.listen 127.0.0.1:0)"
scrape up
[[ $(metric up smd_policy_reload_refused) == 0 && $(metric up smd_policy_reloads_refused_total) == 0 ]] ||
  fail "a fresh daemon reports a refused reload"
# The sweeps that follow bring-up (the trap the SM's own IsSM sends) settle first: the count must hold still.
heavy=$(field up sweeps.heavy)
for _ in $(seq 1 10); do
  sleep 2
  status_json settle
  [[ $(field settle sweeps.heavy) == "${heavy}" ]] && break
  heavy=$(field settle sweeps.heavy)
done

# A value out of range: refused, shown, counted, and no sweep.
write_policy 100
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "reload refused, running policy kept" 10
sleep 2  # a sweep it wrongly asked for would have started and ended by now
status_json refused
[[ $(field refused sweeps.heavy) == "${heavy}" ]] ||
  fail "a refused reload ran a heavy sweep ($(field refused sweeps.heavy) after ${heavy})"
err=$(field refused policy.reload_refused.error)
echo "status: reload refused: ${err} (since $(field refused policy.reload_refused.since))"
[[ ${err} == "${POLICY}:"*"perfmgr.max_outstanding: 100 is out of range 1..64"* ]] || fail "status error: '${err}'"
[[ -n $(field refused policy.reload_refused.since) ]] || fail "no 'since'"
timeout 10 "${SMCTL}" --socket "${SOCK}" status >"${IBSIM_WORKDIR}/refused.txt"
grep -q "^Reload        REFUSED since .* (1 refused in all), running policy kept: ${POLICY}:" "${IBSIM_WORKDIR}/refused.txt" ||
  { cat "${IBSIM_WORKDIR}/refused.txt" >&2; fail "smctl status text does not say REFUSED"; }
grep -q "^Metrics       ${METRICS}$" "${IBSIM_WORKDIR}/refused.txt" || fail "smctl status text has no Metrics line"
scrape refused
[[ $(metric refused smd_policy_reload_refused) == 1 && $(metric refused smd_policy_reloads_refused_total) == 1 ]] ||
  fail "metrics: refused $(metric refused smd_policy_reload_refused), total $(metric refused smd_policy_reloads_refused_total)"

# The file fixed: accepted, the flag cleared, the count kept.
write_policy 16
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "SIGHUP: policy [0-9]+ read from" 10
status_json fixed
[[ -z $(field fixed policy.reload_refused) && $(field fixed policy.reloads_refused) == 1 ]] ||
  fail "after a good file: reload_refused '$(field fixed policy.reload_refused)', count $(field fixed policy.reloads_refused)"
scrape fixed
[[ $(metric fixed smd_policy_reload_refused) == 0 && $(metric fixed smd_policy_reloads_refused_total) == 1 ]] ||
  fail "metrics after a good file"
echo "PASS: a refused reload is in smctl status and the metrics, runs no sweep, and clears on a good file"
