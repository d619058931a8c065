#!/usr/bin/env bash
# Two subnets from one host (issue 45, one SM per rail): two ibsim fabrics (leafspine: 6 switches, 16 CAs;
# twoswitch: 2 switches, 4 CAs), two smd daemons started as two instances of one policy folder: rail0 (a
# rail name) reads its own smd-rail0.yaml; the other is named by its SM port's GUID, as smd@.service
# names it, and reads the shared smd.yaml with --metrics-listen ("rail1" in the messages). Checked:
# bad instance names are refused with exit 2 and nothing made; a GUID no port has is refused; each subnet is up (infiniband-diags under
# its own simulator); smctl --instance / SMCTL_INSTANCE reach each daemon and see only its fabric; state
# folders, sockets and metrics ports are distinct and the metrics name the instance; kill -9 of rail0
# leaves rail1 serving. Every process is killed by PID on exit (ibsim_env.sh's trap); the daemons also
# have a deadline of their own.
. "$(dirname "$0")/daemon_common.sh"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
W=${IBSIM_WORKDIR}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# --- the policy folder: a shared file and rail0's own ------------------------------------------------------
mkdir -p "${W}/etc"
for file in smd.yaml smd-rail0.yaml; do
  # Same state and socket base for both: the instance name makes them distinct. Metrics on an ephemeral
  # port (127.0.0.1:0), so parallel test runs never meet.
  printf 'sm:\n  state_dir: %s/state\ncontrol:\n  socket: %s/run/control.socket\nmetrics:\n  listen: 127.0.0.1:0\n' \
    "${W}" "${W}" >"${W}/etc/${file}"
  chmod 0644 "${W}/etc/${file}"
done

# --- bad names: exit 2, the name in the message, no folder made ---------------------------------------------
long=$(printf 'r%.0s' $(seq 1 65))
for bad in "../x" "" "${long}" "a/b" ".hidden"; do
  rc=0
  timeout 10 "${SMD_BIN}" --config "${W}/etc/smd.yaml" --instance "${bad}" >"${W}/bad.out" 2>&1 || rc=$?
  [[ ${rc} -eq 2 ]] || fail "smd --instance '${bad}' exited ${rc}, expected 2: $(cat "${W}/bad.out")"
  grep -qF "instance name '${bad:0:64}" "${W}/bad.out" || fail "smd --instance '${bad}' does not name it: $(cat "${W}/bad.out")"
  rc=0
  timeout 10 "${SMCTL}" --socket "${W}/run/control.socket" --instance "${bad}" status >"${W}/bad.out" 2>&1 || rc=$?
  [[ ${rc} -eq 2 ]] || fail "smctl --instance '${bad}' exited ${rc}, expected 2"
  grep -qF "instance name '" "${W}/bad.out" || fail "smctl --instance '${bad}': $(cat "${W}/bad.out")"
done
[[ ! -e ${W}/state && ! -e ${W}/run && ! -e ${W}/x && ! -e ${W}/etc/x ]] || fail "a refused name made a folder"
echo "bad instance names refused, nothing made"

# --- two fabrics, two instances ------------------------------------------------------------------------------
t0=${SECONDS}
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
ibsim_start_other b "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"

# start_instance NAME SOCKNAME [smd args]: smd --instance NAME on the simulator SOCKNAME; the log is
# NAME.log, the PID in DAEMON_PID_rail0 or, for a GUID name, DAEMON_PID_rail1.
# No `timeout` wrapper (kill -9 must hit smd itself): a watchdog kills it by PID after 90 s instead.
start_instance() {
  local name=$1 sockname=$2
  shift 2
  (cd "${W}" && exec env IBSIM_SOCKNAME="${sockname}" LD_PRELOAD="${SIM_PRELOAD}" "${SMD_BIN}" \
    --config "${W}/etc/smd.yaml" --instance "${name}" "$@" >"${W}/${name}.log" 2>&1) &
  local pid=$!
  ibsim_track "${pid}"
  # The watchdog is one process (builtins only: read -t on a FIFO nobody writes), so killing it by PID
  # leaves no sleep behind.
  mkfifo "${W}/watchdog-${name}"
  (read -r -t 90 _ <>"${W}/watchdog-${name}" || kill -9 "${pid}" 2>/dev/null) &
  ibsim_track $!
  if [[ ${name} == rail0 ]]; then DAEMON_PID_rail0=${pid}; else DAEMON_PID_rail1=${pid}; fi
}
# The second rail's instance name is its SM port's GUID (what `ibstat -p` prints, as on a real host).
g=$(sim_on b timeout 10 ibstat -p | head -n1)
[[ ${g} =~ ^0x[0-9a-f]{16}$ ]] || fail "ibstat -p under simulator b: '${g}'"
# A GUID that names no port: exit 2 (the SM port cannot be opened), its state folder made but no socket.
rc=0
(cd "${W}" && IBSIM_SOCKNAME="${IBSIM_SOCKNAME}-b" LD_PRELOAD="${SIM_PRELOAD}" timeout 30 "${SMD_BIN}" \
  --config "${W}/etc/smd.yaml" --instance 0x00000000deadbeef >"${W}/noport.log" 2>&1) || rc=$?
[[ ${rc} -eq 2 ]] || fail "smd --instance 0x00000000deadbeef exited ${rc}, expected 2: $(tail -n 3 "${W}/noport.log")"
grep -qi "0x00000000deadbeef" "${W}/noport.log" || fail "the missing port GUID is not named: $(tail -n 3 "${W}/noport.log")"

start_instance rail0 "${IBSIM_SOCKNAME}"
start_instance "${g}" "${IBSIM_SOCKNAME}-b" --metrics-listen 127.0.0.1:0
wait_log rail0 "SUBNET UP" 60
wait_log "${g}" "SUBNET UP" 60
echo "both subnets up after $((SECONDS - t0)) s"
grep -qF "instance rail0 (policy ${W}/etc/smd-rail0.yaml, its own)" "${W}/rail0.log" || fail "rail0 did not read smd-rail0.yaml"
grep -qF "instance ${g} (policy ${W}/etc/smd.yaml, shared)" "${W}/${g}.log" || fail "rail1 did not read the shared smd.yaml"
grep -qF "SM port ibsim0 port 1 (guid ${g}," "${W}/${g}.log" || fail "rail1 did not open the port its name gives"

# The independent witnesses, each under its own simulator.
check_with_diags --expect-switches 6 --expect-cas 16
sim_on b timeout 120 python3 "$(cd "$(dirname "${CHECK_FABRIC}")" && pwd)/check_fabric.py" --expect-switches 2 --expect-cas 4
sim timeout 30 sminfo | tee "${W}/sminfo.a" | grep -q "state 3"
sim_on b timeout 30 sminfo | tee "${W}/sminfo.b" | grep -q "state 3"

# smctl by instance name: --instance over SMCTL_SOCKET, then SMCTL_INSTANCE over --socket.
fabric_of() { python3 -c 'import json,sys; s=json.load(sys.stdin)["result"]; print(s["instance"], s["fabric"]["switches"], s["fabric"]["cas"])'; }
a=$(SMCTL_SOCKET="${W}/run/control.socket" timeout 20 "${SMCTL}" --timeout 10 --instance rail0 status --json | fabric_of)
b=$(SMCTL_INSTANCE=${g} timeout 20 "${SMCTL}" --timeout 10 --socket "${W}/run/control.socket" status --json | fabric_of)
[[ ${a} == "rail0 6 16" ]] || fail "smctl --instance rail0: ${a}"
[[ ${b} == "${g} 2 4" ]] || fail "SMCTL_INSTANCE=${g} smctl: ${b}"
SMCTL_SOCKET="${W}/run/control.socket" timeout 20 "${SMCTL}" --timeout 10 --instance "${g}" status | grep -qx "Instance      ${g}" ||
  fail "smctl status does not name the instance"
echo "smctl: rail0 sees 6 switches 16 CAs, ${g} 2 switches 4 CAs"

# Distinct state folders and sockets, nothing in the shared base.
for name in rail0 "${g}"; do
  [[ -s ${W}/state/${name}/guid2lid ]] || fail "no ${W}/state/${name}/guid2lid"
  [[ -S ${W}/run/${name}/control.socket ]] || fail "no socket ${W}/run/${name}/control.socket"
done
[[ ! -e ${W}/state/guid2lid && ! -e ${W}/run/control.socket ]] || fail "an instance used the shared state_dir or socket"
[[ $(wc -l <"${W}/state/rail0/guid2lid") -gt $(wc -l <"${W}/state/${g}/guid2lid") ]] ||
  fail "guid2lid of rail0 is not the bigger fabric's"

# Distinct metrics ports, each naming its instance and its own fabric.
port_of() { sed -nE 's/.*metrics listening on 127\.0\.0\.1:([0-9]+).*/\1/p' "${W}/$1.log" | head -n1; }
pa=$(port_of rail0)
pb=$(port_of "${g}")
[[ -n ${pa} && -n ${pb} && ${pa} != "${pb}" ]] || fail "metrics ports: rail0 '${pa}', rail1 '${pb}'"
curl -sf --max-time 5 "http://127.0.0.1:${pa}/metrics" >"${W}/metrics.a"
curl -sf --max-time 5 "http://127.0.0.1:${pb}/metrics" >"${W}/metrics.b"
grep -q '^smd_subnet_info{smd_instance="rail0",sm_port_guid="0x[0-9a-f]\{16\}",subnet_prefix="0xfe80000000000000"} 1$' \
  "${W}/metrics.a" || fail "rail0 metrics: $(grep smd_subnet_info "${W}/metrics.a")"
grep -q "^smd_subnet_info{smd_instance=\"${g}\",sm_port_guid=\"${g}\"," "${W}/metrics.b" || fail "rail1 metrics: $(grep smd_subnet_info "${W}/metrics.b")"
grep -qx 'smd_nodes{type="switch"} 6' "${W}/metrics.a" || fail "rail0 metrics: not 6 switches"
grep -qx 'smd_nodes{type="switch"} 2' "${W}/metrics.b" || fail "rail1 metrics: not 2 switches"
echo "metrics: rail0 on ${pa}, rail1 on ${pb}"

# A SIGHUP re-reads the instance's file and applies --instance again: nothing reads as changed.
kill -HUP "${DAEMON_PID_rail1}"
wait_log "${g}" "policy 2 takes effect" 30
if grep -q "needs restart" "${W}/${g}.log"; then fail "rail1's reload: $(grep 'needs restart' "${W}/${g}.log")"; fi

# --- kill -9 of rail0: rail1 keeps serving ------------------------------------------------------------------
kill -9 "${DAEMON_PID_rail0}"
wait "${DAEMON_PID_rail0}" 2>/dev/null || true
rc=0
timeout 20 "${SMCTL}" --timeout 5 --socket "${W}/run/control.socket" --instance rail0 status >/dev/null 2>&1 || rc=$?
[[ ${rc} -eq 2 ]] || fail "smctl --instance rail0 after its kill exited ${rc}, expected 2 (no connection)"
b=$(SMCTL_INSTANCE=${g} timeout 20 "${SMCTL}" --timeout 10 --socket "${W}/run/control.socket" status --json | fabric_of)
[[ ${b} == "${g} 2 4" ]] || fail "rail1 after rail0's kill: ${b}"
timeout 20 "${SMCTL}" --timeout 10 --socket "${W}/run/control.socket" --instance "${g}" sweep >/dev/null
wait_log "${g}" "SUBNET UP" 30 2
# Into a file first: `curl | grep -q` under pipefail fails when grep stops reading before curl has written
# the whole page (curl exits 23 on the closed pipe), which made this check fail now and then.
curl -sf --max-time 5 "http://127.0.0.1:${pb}/metrics" >"${W}/metrics.b2" || fail "rail1 metrics gone after rail0's kill"
grep -q "^smd_subnet_info{smd_instance=\"${g}\"" "${W}/metrics.b2" || fail "rail1 metrics lost its instance label"
sim_on b timeout 30 sminfo | grep -q "state 3" || fail "subnet b lost its master"
kill -0 "${DAEMON_PID_rail1}" || fail "rail1 died"
kill -TERM "${DAEMON_PID_rail1}"
wait "${DAEMON_PID_rail1}" || fail "rail1 did not stop cleanly on SIGTERM"
echo "rail0 killed, rail1 served on and stopped cleanly; $((SECONDS - t0)) s with fabrics"
