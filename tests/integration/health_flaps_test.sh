#!/usr/bin/env bash
# A flapping cable (Unlink/ReLink in a loop, as a bad transceiver does) is isolated after health.flap_count
# downs within health.flap_window: once it is back, ibroute reads back LFTs that avoid it while every LID is
# still delivered. No PerfMgr needed: flaps are what consecutive sweeps see. A reload with health.isolate
# false keeps the mark and routes over the cable again.
. "$(dirname "$0")/health_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 5" \
  "health:" "  flap_count: 3" "  flap_window: 600" "  quiet_period: 0"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
ups=1
for flap in 1 2 3; do
  ibsim_console 'Unlink "sw-L1-1"[6]'
  ups=$((ups + 1))
  wait_log smd "SUBNET UP" 30 "${ups}"
  ibsim_console 'ReLink "sw-L1-1"[6]'
  ups=$((ups + 1))
  wait_log smd "SUBNET UP" 30 "${ups}"
  if ((flap < 3)); then
    # Not yet: two flaps are below the count.
    smctl --json ports --unhealthy | python3 -c "import json,sys; assert json.load(sys.stdin)['result']['ports'] == []"
  fi
done
grep -E "health: port 0x[0-9a-f]{16} \(sw-L1-1\) port 6 .*marked unhealthy: 3 link flaps in 600 s" "${IBSIM_WORKDIR}/smd.log"
wait_json 30 "any(p['node_desc'] == 'sw-L1-1' and p['port'] == 6 and p['isolated'] for p in r['result']['ports'])" \
  ports --unhealthy
check_with_diags --expect-switches 48 --expect-cas 64 --avoid "sw-L1-1:6"

# SIGHUP with health.isolate false: the mark stays, the cable is routed again.
ups=$(grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log")
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 5" \
  "health:" "  isolate: false" "  flap_count: 3" "  flap_window: 600" "  quiet_period: 0"
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "policy 2 takes effect" 30
wait_log smd "SUBNET UP" 30 $((ups + 1))
wait_json 10 "any(p['node_desc'] == 'sw-L1-1' and p['port'] == 6 and not p['isolated'] and \
  p['kept_reason'] == 'health.isolate is false' for p in r['result']['ports'])" ports --unhealthy
check_with_diags --expect-switches 48 --expect-cas 64 --use "sw-L1-1:6"

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${IBSIM_WORKDIR}/smd.log"
