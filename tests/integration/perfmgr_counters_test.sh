#!/usr/bin/env bash
# The PerfMgr on the 4-ary 3-tree (48 switches, 64 hosts): every cabled port's PortCounters as smd read
# them agree with perfquery; a counter raised through ibsim's console (PerformanceSet) shows up as a delta in
# `smctl counters --errors` and in the per-port metric within two intervals; a saturated counter is cleared
# with a PortCounters Set (perfquery reads it back at 0) while smd's total keeps what it counted; a drained
# spine (smctl drain sw-L2-0: it keeps its LID, no route reaches it) is not polled: its cabled ports, counted
# from the netfile, are said as not polled and a whole pass after the drain has no timeout.
. "$(dirname "$0")/health_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 5" \
  "perfmgr:" "  enabled: true" "  interval: 3" "health:" "  isolate: false"
# Values set before the first pass are part of its baseline: perfquery must read what smd read.
ibsim_console 'PerformanceSet "sw-L0-0"[5] PortCounters.SymbolErrorCounter=7'
ibsim_console 'PerformanceSet "sw-L2-3"[2] PortCounters.PortXmitDiscards=300'
ibsim_console 'PerformanceSet "host-9"[1] PortCounters.LinkDownedCounter=2'
ibsim_console 'PerformanceSet "sw-L1-5"[8] PortCounters.PortXmitWait=123456'
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
wait_log smd "perfmgr: reading PortCounters every 3 s" 10
wait_json 30 "r['result']['passes'] >= 1" counters
# 192 cables, both ends: 64 host ports and 320 switch ports.
smctl --json counters >"${IBSIM_WORKDIR}/counters.json"
sim timeout 240 python3 "$(dirname "$0")/check_counters.py" "${IBSIM_WORKDIR}/counters.json" --expect-ports 384

# A rise after the baseline: a delta within two intervals (3 s each; a pass of 384 ports takes well under
# 1 s). The delta stays visible for a whole interval (until the next pass), so slower polls still see it.
ibsim_console 'PerformanceSet "sw-L1-2"[6] PortCounters.LinkErrorRecoveryCounter=3'
wait_json 12 "any(p['node_desc'] == 'sw-L1-2' and p['port'] == 6 and p['delta']['LinkErrorRecoveryCounter'] == 3 \
  for p in r['result']['ports'])" counters --errors
# Only ports whose error counters moved are listed: this one alone.
python3 - "${IBSIM_WORKDIR}/last.json" <<'PY'
import json, sys
ports = json.load(open(sys.argv[1]))["result"]["ports"]
assert [(p["node_desc"], p["port"]) for p in ports] == [("sw-L1-2", 6)], ports
PY
scrape_metrics "${IBSIM_WORKDIR}/metrics.txt"
grep -E '^smd_port_link_error_recoveries_total\{.*node_desc="sw-L1-2",port="6",peer="sw-L2-[0-9]+ port [0-9]+"\} 3$' \
  "${IBSIM_WORKDIR}/metrics.txt"
grep -E '^smd_perfmgr_passes_total [1-9]' "${IBSIM_WORKDIR}/metrics.txt"
grep -E '^smd_port_xmit_bytes_per_second\{.*node_desc="host-0",port="1"' "${IBSIM_WORKDIR}/metrics.txt"
# The text smctl prints for a second rise (3 more, 6 in all), polled: each delta lasts one interval.
ibsim_console 'PerformanceSet "sw-L1-2"[6] PortCounters.LinkErrorRecoveryCounter=6'
deadline=$((SECONDS + 12))
until smctl counters --errors >"${IBSIM_WORKDIR}/errors.txt" &&
  grep -q "sw-L1-2 .*port 6 .*LinkErrorRecoveryCounter+3 (6)" "${IBSIM_WORKDIR}/errors.txt"; do
  ((SECONDS < deadline)) || { cat "${IBSIM_WORKDIR}/errors.txt" >&2; echo "FAIL: smctl counters --errors" >&2; exit 1; }
  sleep 0.3
done
cat "${IBSIM_WORKDIR}/errors.txt"
# smctl counters NODE: one node's ports.
smctl --json counters sw-L0-0 >"${IBSIM_WORKDIR}/node.json"
python3 - "${IBSIM_WORKDIR}/node.json" <<'PY'
import json, sys
ports = json.load(open(sys.argv[1]))["result"]["ports"]
assert sorted(p["port"] for p in ports) == list(range(1, 9)), ports
assert {p["node_desc"] for p in ports} == {"sw-L0-0"}
assert next(p for p in ports if p["port"] == 5)["counters"]["SymbolErrorCounter"] == 7
PY

# A saturated counter (PortRcvErrors is 16 bits) stops counting: smd clears it and keeps the total.
ibsim_console 'PerformanceSet "sw-L0-3"[2] PortCounters.PortRcvErrors=65535'
wait_log smd "perfmgr: sw-L0-3 port 2 .*saturated counters cleared" 12
sim perfquery "$(python3 -c "import json,sys; print(next(p['lid'] for p in json.load(open(sys.argv[1]))['result']['ports'] \
  if p['node_desc']=='sw-L0-3'))" "${IBSIM_WORKDIR}/counters.json")" 2 | tee "${IBSIM_WORKDIR}/perfquery.txt"
grep -q -E "^PortRcvErrors:\.+0$" "${IBSIM_WORKDIR}/perfquery.txt"
wait_json 12 "next(p for p in r['result']['ports'] if p['port'] == 2)['total']['PortRcvErrors'] == 65535 and \
  next(p for p in r['result']['ports'] if p['port'] == 2)['resets'] == 1" counters sw-L0-3

# A drained spine: no LID route reaches its PMA, so it is left out of the passes instead of timing out.
spine_ports=$(awk '$1=="Switch"{on=($3=="\"sw-L2-0\""); next} on && /^\[/{n++} END{print n}' \
  "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net")
[[ ${spine_ports} -gt 0 ]]
smctl drain sw-L2-0
wait_json 30 "r['result']['last_pass'].get('unreachable') == ${spine_ports}" counters
passes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["passes"])' "${IBSIM_WORKDIR}/last.json")
wait_json 12 "r['result']['passes'] > ${passes}" counters
python3 - "${IBSIM_WORKDIR}/last.json" "${spine_ports}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
last, n = r["last_pass"], int(sys.argv[2])
assert last["unreachable"] == n and last["timeouts"] == 0 and last["ports"] == 384 - n, last
PY
smctl counters >"${IBSIM_WORKDIR}/drained_counters.txt"
head -n 1 "${IBSIM_WORKDIR}/drained_counters.txt" | grep -q "; ${spine_ports} ports not polled (drained or isolated" ||
  { head -n 1 "${IBSIM_WORKDIR}/drained_counters.txt" >&2; echo "FAIL: smctl counters does not say it" >&2; exit 1; }
echo "drained spine: ${spine_ports} ports not polled, no timeout in a pass"

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${IBSIM_WORKDIR}/smd.log"
