#!/usr/bin/env bash
# Only the master's SA answers. Two SMs of the kind SA_TEST_SM on leafspine: "a" at host-0 (priority 10,
# master) and "b" at host-1 (priority 5, standby). saquery has no option to pick the SA: it sends to the
# sm_lid of its port's sysfs, which the umad2sim shim fills from the port's PortInfo.MasterSMLID when the
# client starts. So the test points host-3's MasterSMLID at the standby with ibportstate (an SMP Set of
# PortInfo, independent of either SM), checks with smpquery that it holds, and then:
#   * saquery from host-3 gets no answer (ClassPortInfo, NodeRecord, PathRecord), while
#   * the master answers the same queries from host-0, and from host-3 once its MasterSMLID points back,
#   * the standby is still running and still STANDBY (sminfo), the master still MASTER.
# SA_TEST_SM=opensm runs the same with two OpenSMs (opensm -p 10 / -p 5).
. "$(dirname "$0")/sa_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
sa_start_sm a host-0 10
sa_wait_up a 60
# OpenSM logs each SA MAD it ignores at VERBOSE (0x04): the witness that the queries reached the standby.
sa_start_sm b host-1 5 "log_flags 0x07"
sa_wait_standby b 30
sa_wait_sa 20

# port_field HOST FIELD: a field of HOST's own port's PortInfo (smpquery over the 0-hop directed route).
port_field() {
  sim env SIM_HOST="$1" timeout 10 smpquery -D portinfo 0 | sed -nE "s/^$2:\.+([0-9]+)$/\1/p"
}
master_lid=$(port_field host-0 Lid)
standby_lid=$(port_field host-1 Lid)
client_lid=$(port_field host-3 Lid)
echo "master LID ${master_lid}, standby LID ${standby_lid}, client (host-3) LID ${client_lid}"
[[ -n "${master_lid}" && -n "${standby_lid}" && -n "${client_lid}" && ${master_lid} != "${standby_lid}" ]]
sim timeout 10 sminfo "${master_lid}" | grep -q "SMINFO_MASTER"
sim timeout 10 sminfo "${standby_lid}" | grep -q "SMINFO_STANDBY"
[[ $(port_field host-3 SMLid) == "${master_lid}" ]]

# sa_from HOST NAME QUERY...: saquery from HOST, output in NAME.sa; its exit status.
sa_from() {
  local host=$1 name=$2
  shift 2
  sim env SIM_HOST="${host}" timeout "${SA_QUERY_TIMEOUT}" saquery "$@" >"${IBSIM_WORKDIR}/${name}.sa" 2>&1
}

# master_answers HOST NAME QUERY...: sa_from, sent up to 3 times (saquery waits 1 s and sends once; on a
# loaded machine one answer can come late).
master_answers() {
  local _
  for _ in 1 2 3; do sa_from "$@" && return 0; done
  cat "${IBSIM_WORKDIR}/$2.sa" >&2
  return 1
}
queries=("-c" "NR ${master_lid}" "-p --src-to-dst ${client_lid}:${master_lid}")

# The master answers, from host-0 and from host-3.
for host in host-0 host-3; do
  for q in "${queries[@]}"; do
    # shellcheck disable=SC2086  # the query words split on purpose
    master_answers "${host}" master-ok ${q} || { echo "FAIL: master did not answer '${q}' from ${host}" >&2; exit 1; }
    grep -Eq "ClassPortInfo|NodeRecord dump|PathRecord dump" "${IBSIM_WORKDIR}/master-ok.sa"
  done
done
echo "master ${master_lid} answers ${#queries[@]} queries from host-0 and host-3"

# The standby does not. The SM may rewrite host-3's MasterSMLID at any sweep: the SMLid read after each
# saquery tells whether that query really went to the standby; up to 5 tries per query.
for q in "${queries[@]}"; do
  aimed=0
  for _ in 1 2 3 4 5; do
    sim env SIM_HOST=host-3 timeout 10 ibportstate -D 0 1 smlid "${standby_lid}" >/dev/null 2>&1 || true
    [[ $(port_field host-3 SMLid) == "${standby_lid}" ]] || { sleep 0.5; continue; }
    start=${SECONDS}
    # shellcheck disable=SC2086
    if sa_from host-3 standby ${q}; then
      cat "${IBSIM_WORKDIR}/standby.sa" >&2
      echo "FAIL: '${q}' aimed at the standby (LID ${standby_lid}) was answered" >&2
      exit 1
    fi
    if [[ $(port_field host-3 SMLid) == "${standby_lid}" ]]; then
      aimed=1
      echo "'${q}' to the standby: no answer ($((SECONDS - start)) s): $(grep -v sim_connect "${IBSIM_WORKDIR}/standby.sa" | head -n1)"
      break
    fi
  done
  ((aimed)) || { echo "FAIL: could not keep host-3's MasterSMLID at the standby for one query" >&2; exit 1; }
done

# Point host-3 back at the master: it answers again. Both SMs still run in their states.
sim env SIM_HOST=host-3 timeout 10 ibportstate -D 0 1 smlid "${master_lid}" >/dev/null 2>&1 || true
[[ $(port_field host-3 SMLid) == "${master_lid}" ]]
master_answers host-3 master-again -c
grep -q "ClassPortInfo" "${IBSIM_WORKDIR}/master-again.sa"
if [[ ${SA_TEST_SM} == opensm ]]; then pids=("${OSM_PID_a}" "${OSM_PID_b}"); else pids=("${DAEMON_PID_a}" "${DAEMON_PID_b}"); fi
for pid in "${pids[@]}"; do kill -0 "${pid}" || { echo "FAIL: SM process ${pid} is gone" >&2; exit 1; }; done
sim timeout 10 sminfo "${master_lid}" | grep -q "SMINFO_MASTER"
sim timeout 10 sminfo "${standby_lid}" | grep -q "SMINFO_STANDBY"
# That the queries reached the standby and were dropped there, not lost on the way: OpenSM's log says so;
# smd's standby counts them (smctl sa: dropped "not-serving"; also smd_sa_dropped_total).
if [[ ${SA_TEST_SM} == opensm ]]; then
  ignored="Received SA MAD while SM not MASTER"
  wait_log b "${ignored}" 5 "${#queries[@]}"
  echo "the standby's log shows $(grep -c -E -e "${ignored}" "${IBSIM_WORKDIR}/b.log") SA MADs ignored"
else
  dropped=$(timeout 10 "${SMD_BUILD_DIR}/smd/smctl" --socket "${IBSIM_WORKDIR}/state-b.control.socket" --json sa |
    python3 -c 'import json, sys; r = json.load(sys.stdin); r = r.get("result", r); print(r["dropped"].get("not-serving", 0))')
  echo "the standby dropped ${dropped} SA MADs as not serving"
  ((dropped >= ${#queries[@]})) || { echo "FAIL: the standby counted ${dropped} dropped SA MADs, want >= ${#queries[@]}" >&2; exit 1; }
fi
echo "standby ${standby_lid} silent, master ${master_lid} answering; both SMs still in their states"
