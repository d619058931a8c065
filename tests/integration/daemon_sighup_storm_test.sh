#!/usr/bin/env bash
# A SIGHUP storm: the daemon on the leaf/spine fabric with heavy sweeps running back to back (`smctl sweep`
# in a loop), and a policy file alternating lid.lmc 0 and 1 reloaded dozens of times, many of them while a
# sweep runs. Every heavy sweep logs the policy generation it starts and ends under: each must end under
# the one it started with, and no policy may take effect between a sweep's start and its end. The daemon
# still answers `smctl status`; once the last policy's sweep is up, ibnetdiscover (through check_fabric.py)
# sees that policy's LMC on every CA port and every route delivers. Then a reload that changes
# control.socket: the log and `smctl status` say it needs a restart, and the old socket keeps serving.
. "$(dirname "$0")/daemon_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
POLICY="${IBSIM_WORKDIR}/smd.yaml"
STATE="${IBSIM_WORKDIR}/state"
SOCK="${STATE}.control.socket"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
LOG="${IBSIM_WORKDIR}/smd.log"

# set_policy LMC [SOCKET]: replace the policy file in one rename, so the daemon never reads half of one.
set_policy() {
  local lmc=$1 socket=${2:-${SOCK}}
  { printf 'sm:\n  state_dir: %s\n  sweep_interval: 1\nlid:\n  lmc: %s\n' "${STATE}" "${lmc}"
    printf 'control:\n  socket: %s\nmetrics:\n  listen: 127.0.0.1:0\n' "${socket}"; } >"${POLICY}.new"
  chmod 0644 "${POLICY}.new"
  mv -f "${POLICY}.new" "${POLICY}"
}
reads() { grep -c "SIGHUP: policy [0-9]* read from" "${LOG}" || true; }

set_policy 0
start_daemon smd "${POLICY}"
wait_log smd "SUBNET UP" 60

# Heavy sweeps back to back: a sweep request every 20 ms (each coalesces with the one pending).
(while :; do timeout 5 "${SMCTL}" --socket "${SOCK}" sweep >/dev/null 2>&1 || true; sleep 0.02; done) &
SWEEPER=$!
ibsim_track "${SWEEPER}"
sleep 0.5
SIGHUPS=48
for i in $(seq 1 "${SIGHUPS}"); do
  set_policy $((i % 2))
  kill -HUP "${DAEMON_PID_smd}"
  sleep "0.0$((RANDOM % 10))"
done
kill "${SWEEPER}"
wait "${SWEEPER}" 2>/dev/null || true
kill -0 "${DAEMON_PID_smd}" || { echo "FAIL: smd died in the storm" >&2; tail -n 40 "${LOG}" >&2; exit 1; }

# The last policy: lid.lmc 1. Wait until the daemon has read it, then for a sweep under it that is up.
sleep 0.5
before=$(reads)
set_policy 1
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "SIGHUP: policy [0-9]+ read from" 10 $((before + 1))
last=$(grep -o "SIGHUP: policy [0-9]* read from" "${LOG}" | tail -n 1 | awk '{print $3}')
wait_log smd "heavy sweep [0-9]+ done under policy ${last} \(.*\): subnet up" 60
timeout 10 "${SMCTL}" --socket "${SOCK}" status | tee "${IBSIM_WORKDIR}/status"
grep -q "MASTER" "${IBSIM_WORKDIR}/status"
grep -q "^Policy        ${last} (${POLICY})$" "${IBSIM_WORKDIR}/status"

# Every sweep ran under one policy from start to end; count what the storm did.
python3 - "${LOG}" "${last}" <<'PY'
import re, sys
log, last = sys.argv[1], int(sys.argv[2])
start = re.compile(r"heavy sweep (\d+) under policy (\d+) \(")
end = re.compile(r"heavy sweep (\d+) done under policy (\d+) \(")
adopt = re.compile(r"policy (\d+) takes effect \(.*lmc=(\d+)")
read = re.compile(r"SIGHUP: policy (\d+) read from .*?( while heavy sweep \d+ runs)?(; queued)?$")
running, sweeps, reads, reads_mid, lmc_of, lmcs_swept, errors = None, 0, 0, 0, {}, set(), []
for n, line in enumerate(open(log), 1):
    line = line.rstrip("\n")
    if m := start.search(line):
        if running:
            errors.append(f"line {n}: sweep {m[1]} starts while sweep {running[0]} runs")
        running = (m[1], m[2])
        sweeps += 1
        lmcs_swept.add(lmc_of.get(int(m[2])))
    elif m := end.search(line):
        if not running or running[0] != m[1]:
            errors.append(f"line {n}: sweep {m[1]} ends, but {running} was running")
        elif running[1] != m[2]:
            errors.append(f"line {n}: sweep {m[1]} started under policy {running[1]}, ended under {m[2]}")
        running = None
    elif m := adopt.search(line):
        if running:
            errors.append(f"line {n}: policy {m[1]} took effect inside sweep {running[0]}")
        lmc_of[int(m[1])] = int(m[2])
    elif m := read.search(line):
        reads += 1
        reads_mid += 1 if m[2] else 0
if "reload refused" in open(log).read():
    errors.append("a reload was refused (the policy file was read half-written?)")
if lmc_of.get(last) != 1:
    errors.append(f"the last policy {last} took effect with lmc {lmc_of.get(last)}, expected 1")
if not {0, 1} <= lmcs_swept:
    errors.append(f"sweeps ran only under lmc {sorted(x for x in lmcs_swept if x is not None)}")
if reads_mid == 0:
    errors.append("no SIGHUP arrived while a sweep ran: the storm did not hit a sweep")
print(f"storm: {sweeps} heavy sweeps, {reads} policy reads ({reads_mid} while a sweep ran), "
      f"{len(lmc_of)} policies took effect, each sweep under one policy from start to end")
for e in errors[:20]:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# The witnesses: every CA port has LMC 1 and every route (all 2^LMC LIDs) delivers.
check_with_diags --expect-switches 6 --expect-cas 16 --lmc 1

# A reload that moves the control socket: never half-applied.
OTHER="${IBSIM_WORKDIR}/other.socket"
set_policy 1 "${OTHER}"
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "needs restart: control.socket" 10
grep -qF "needs restart: control.socket (running ${SOCK}, file ${OTHER})" "${LOG}"
moved=$(grep -o "SIGHUP: policy [0-9]* read from" "${LOG}" | tail -n 1 | awk '{print $3}')
wait_log smd "heavy sweep [0-9]+ done under policy ${moved} \(" 30
timeout 10 "${SMCTL}" --socket "${SOCK}" status | tee "${IBSIM_WORKDIR}/status"
grep -qF "Needs restart control.socket (running ${SOCK}, file ${OTHER})" "${IBSIM_WORKDIR}/status"
timeout 10 "${SMCTL}" --socket "${SOCK}" --json status >"${IBSIM_WORKDIR}/status.json"
python3 - "${IBSIM_WORKDIR}/status.json" "${SOCK}" "${OTHER}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s = s.get("result", s)
assert s["needs_restart"] == [{"key": "control.socket", "running": sys.argv[2], "file": sys.argv[3]}], s["needs_restart"]
PY
[[ ! -e "${OTHER}" ]] || { echo "FAIL: the daemon bound the new socket without a restart" >&2; exit 1; }

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${LOG}"
