#!/usr/bin/env bash
# OpenSM's own SA conformance tool, osmtest (Debian opensm 3.3.23), against smd's SA and, on the same
# fabric in the same run, against OpenSM's SA as the reference (issue 39).
#
#   smd:    -f c (inventory), e (event forwarding), q (VLArb and SL2VL records) must pass: exit code 0
#           and osmtest's 'TEST "..." PASS' line. -f v (validate the inventory) must pass or stop only on
#           the PathRecord that ibsim cut: -f c's PathRecord GetTable comes back as one MAD whose last
#           record is cut short, so the inventory holds a path "SLID 0x0 to DLID 0x0" with P_Key 0 that no
#           SA can confirm (OpenSM's inventory has the same record; its -f v is not run, see below).
#           -f m (multicast) and -f s (services) must pass, or get no less far than OpenSM does: both of
#           them stop on ibsim's missing RMPP (an SA answer of more than one MAD is cut, so a GetTable
#           that osmtest counts comes back short). "How far" is the number of INFO lines (osmtest logs
#           one per step it starts, "0x02 ->"), printed for both SMs.
#   OpenSM: c, q, m, s (its -f v waits for multi-MAD answers ibsim never delivers: not run).
# twoswitch: 2 switches, 4 CAs; the SM runs at host-0, osmtest at host-1.
# Every process started here has a bound: ibsim, smd and OpenSM are killed by PID in the EXIT trap (and
# between the two halves), each osmtest runs under `timeout`.
. "$(dirname "$0")/sa_common.sh"

NET="${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
OSMTEST_TIMEOUT=${OSMTEST_TIMEOUT:-30}

# run_flow SM FLOW: osmtest -f FLOW from host-1 against the SA of SM (smd or opensm); its log in
# osmtest-SM-FLOW.log, its stdout in .out. Prints "rc steps" (exit code, INFO lines).
run_flow() {
  local sm=$1 flow=$2 rc=0
  local log="${IBSIM_WORKDIR}/osmtest-${sm}-${flow}.log"
  sim env SIM_HOST=host-1 timeout "${OSMTEST_TIMEOUT}" osmtest -f "${flow}" -i "${IBSIM_WORKDIR}/inventory-${sm}.dat" \
    -t 500 -l "${log}" \
    >"${IBSIM_WORKDIR}/osmtest-${sm}-${flow}.out" 2>&1 || rc=$?
  echo "${rc} $(grep -c ' 0x02 -> ' "${log}" 2>/dev/null || echo 0)"
}

# stop_reason SM FLOW: the last error osmtest logged before giving up (its "osmtest_run: ERR" aside).
stop_reason() {
  grep ' 0x01 -> ' "${IBSIM_WORKDIR}/osmtest-$1-$2.log" | grep -v 'osmtest_run: ERR' | tail -n 1 |
    sed -E 's/.* 0x01 -> //' || true
}

# passed SM FLOW: osmtest's verdict line says PASS.
passed() { grep -q 'OSMTEST: TEST ".*" PASS' "${IBSIM_WORKDIR}/osmtest-$1-$2.out"; }

# show_failure SM FLOW: the errors of a failed flow, for the test's log.
show_failure() {
  echo "--- osmtest -f $2 against $1 (errors) ---" >&2
  grep -E 'ERR|FAIL' "${IBSIM_WORKDIR}/osmtest-$1-$2.log" "${IBSIM_WORKDIR}/osmtest-$1-$2.out" | tail -n 15 >&2 || true
}

declare -A RC STEPS
# flows SM FLOW...: run each flow in order against SM, recording RC[SM-FLOW] and STEPS[SM-FLOW].
flows() {
  local sm=$1 flow r
  shift
  for flow in "$@"; do
    read -r RC["${sm}-${flow}"] STEPS["${sm}-${flow}"] < <(run_flow "${sm}" "${flow}")
    r=${RC["${sm}-${flow}"]}
    printf '%-6s -f %s: exit %s, %s steps%s\n' "${sm}" "${flow}" "${r}" "${STEPS["${sm}-${flow}"]}" \
      "$(passed "${sm}" "${flow}" && echo ", PASS" || true)"
  done
}

# --- smd ---------------------------------------------------------------------------------------------
SA_TEST_SM=smd
sa_bringup "${NET}" smd host-0 10
flows smd c v e q m s
{ kill -9 "${DAEMON_PID_smd}" && wait "${DAEMON_PID_smd}"; } 2>/dev/null || true
ibsim_stop

# --- OpenSM on the same fabric -----------------------------------------------------------------------
SA_TEST_SM=opensm
sa_bringup "${NET}" osm host-0 10
flows opensm c q m s
{ kill -9 "${OSM_PID_osm}" && wait "${OSM_PID_osm}"; } 2>/dev/null || true
ibsim_stop

# --- verdicts ----------------------------------------------------------------------------------------
fail=0
# cut_path_only: smd's -f v stopped at the inventory's cut PathRecord (SLID 0 to DLID 0) and nowhere
# before (osmtest stops at its first failure), and -f c's inventory does hold such a record.
cut_path_only() {
  local log="${IBSIM_WORKDIR}/osmtest-smd-v.log"
  grep -q 'ERR 0012: PKEY mismatch on path SLID 0x0 to DLID 0x0' "${log}" &&
    [[ $(grep -E -c 'ERR 0012|ERR 0100|ERR 0146' "${log}") -eq 3 ]] &&
    grep -qE '^slid +0x0$' "${IBSIM_WORKDIR}/inventory-smd.dat"
}
if [[ ${RC[smd-v]} -eq 0 ]] && passed smd v; then
  echo "osmtest -f v: smd PASS"
elif cut_path_only; then
  echo "osmtest -f v: smd exit ${RC[smd-v]}, only on the inventory's PathRecord that ibsim cut (SLID 0x0 to DLID 0x0)"
else
  echo "FAIL: osmtest -f v against smd: exit ${RC[smd-v]}" >&2
  show_failure smd v
  fail=1
fi
for flow in c e q; do
  if [[ ${RC["smd-${flow}"]} -ne 0 ]] || ! passed smd "${flow}"; then
    echo "FAIL: osmtest -f ${flow} against smd: exit ${RC["smd-${flow}"]}" >&2
    show_failure smd "${flow}"
    fail=1
  fi
done
for flow in m s; do
  s=${STEPS["smd-${flow}"]} o=${STEPS["opensm-${flow}"]}
  if [[ ${RC["smd-${flow}"]} -eq 0 ]] && passed smd "${flow}"; then
    echo "osmtest -f ${flow}: smd PASS (${s} steps); OpenSM exit ${RC["opensm-${flow}"]} after ${o} steps"
  elif ((s >= o)); then
    echo "osmtest -f ${flow}: smd exit ${RC["smd-${flow}"]} after ${s} steps, OpenSM exit ${RC["opensm-${flow}"]} after ${o}: no earlier"
    echo "  smd stopped on:    $(stop_reason smd "${flow}")"
    echo "  OpenSM stopped on: $(stop_reason opensm "${flow}")"
  else
    echo "FAIL: osmtest -f ${flow}: smd stopped after ${s} steps, earlier than OpenSM (${o})" >&2
    show_failure smd "${flow}"
    show_failure opensm "${flow}"
    fail=1
  fi
done
exit "${fail}"
