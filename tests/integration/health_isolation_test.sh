#!/usr/bin/env bash
# Unhealthy ports on the 4-ary 3-tree: a leaf up-link whose SymbolErrorCounter keeps rising is marked,
# logged with node GUID, port and directed path, and isolated: ibroute reads back LFTs that send nothing over
# that cable while every switch still delivers every LID (check_fabric.py --avoid), the link staying up.
# A host's only cable crossing the threshold is marked but stays routed (it would cut the host off).
# `smctl port clear` brings the cable back into the routes.
. "$(dirname "$0")/health_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 5" \
  "perfmgr:" "  enabled: true" "  interval: 2" \
  "health:" "  isolate: true" "  thresholds:" "    symbol_errors: 10" "  quiet_period: 0"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
wait_json 30 "r['result']['passes'] >= 1" counters
check_with_diags --expect-switches 48 --expect-cas 64 --use "sw-L0-0:5"

# Errors keep coming on sw-L0-0 port 5 (up-link to level 1): 40 per second, threshold 10 per interval.
raise_errors() {
  local node=$1 port=$2 value=0
  while :; do
    value=$((value + 40))
    ibsim_console "PerformanceSet \"${node}\"[${port}] PortCounters.SymbolErrorCounter=${value}"
    sleep 1
  done
}
raise_errors sw-L0-0 5 &
RAISER=$!
ibsim_track "${RAISER}"
wait_json 30 "any(p['node_desc'] == 'sw-L0-0' and p['port'] == 5 and p['isolated'] for p in r['result']['ports'])" \
  ports --unhealthy
kill "${RAISER}"
wait "${RAISER}" 2>/dev/null || true
grep -E "health: port 0x[0-9a-f]{16} \(sw-L0-0\) port 5 via DR [0-9,]+; cable to 0x[0-9a-f]{16} \(sw-L1-[0-9]+\) port [0-9]+ marked unhealthy: SymbolErrorCounter \+[0-9]+ in [0-9.]+ s \(threshold 10 per 2 s\)" \
  "${IBSIM_WORKDIR}/smd.log"
wait_log smd "SUBNET UP" 30 2
check_with_diags --expect-switches 48 --expect-cas 64 --avoid "sw-L0-0:5"
smctl ports --unhealthy | tee "${IBSIM_WORKDIR}/unhealthy.txt"
grep -q "sw-L0-0 .*port 5 .*UNHEALTHY: SymbolErrorCounter .*isolated (routes go around it)" "${IBSIM_WORKDIR}/unhealthy.txt"
scrape_metrics "${IBSIM_WORKDIR}/metrics.txt"
grep -q "^smd_ports_isolated 1$" "${IBSIM_WORKDIR}/metrics.txt"
grep -E '^smd_port_unhealthy\{.*node_desc="sw-L0-0",port="5".*isolated="true"\} 1$' "${IBSIM_WORKDIR}/metrics.txt"

# host-9's only cable: marked, never isolated (routing around it would cut host-9 off).
raise_errors host-9 1 &
RAISER=$!
ibsim_track "${RAISER}"
wait_json 30 "any(p['node_desc'] == 'host-9' and p['port'] == 1 and 'cut off' in p['kept_reason'] \
  for p in r['result']['ports'])" ports --unhealthy
kill "${RAISER}"
wait "${RAISER}" 2>/dev/null || true
wait_log smd "health: unhealthy port 0x[0-9a-f]{16} \(host-9\) port 1 .* stays routed: .*cut off" 30
check_with_diags --expect-switches 48 --expect-cas 64 --avoid "sw-L0-0:5"

# The operator clears the up-link: the next sweep routes over it again.
sweeps_before=$(grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log")
smctl port clear sw-L0-0 5 | tee "${IBSIM_WORKDIR}/clear.txt"
grep -q "^cleared 0x[0-9a-f]* port 5" "${IBSIM_WORKDIR}/clear.txt"
wait_json 10 "not any(p['node_desc'] == 'sw-L0-0' for p in r['result']['ports'])" ports --unhealthy
wait_log smd "SUBNET UP" 30 $((sweeps_before + 1))
check_with_diags --expect-switches 48 --expect-cas 64 --use "sw-L0-0:5"
# A port that is not marked: said so, nothing changes.
smctl port clear sw-L0-0 6 | grep -q "not marked"
# Bad input is refused with the reason, not a crash.
if smctl port clear sw-L0-0 99 2>"${IBSIM_WORKDIR}/bad.txt"; then echo "FAIL: port 99 accepted" >&2; exit 1; fi
grep -q "has ports 1..8, not 99" "${IBSIM_WORKDIR}/bad.txt"
if smctl port clear no-such-node 1 2>/dev/null; then echo "FAIL: unknown node accepted" >&2; exit 1; fi

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${IBSIM_WORKDIR}/smd.log"
