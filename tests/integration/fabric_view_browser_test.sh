#!/usr/bin/env bash
# The fabric view (issue 46 item 1) in a real browser: smd on the 4-ary 3-tree (48 switches, 64 hosts) with
# its metrics endpoint (which serves the view) on an ephemeral port and the PerfMgr reading every 3 s (a
# delta then shows for longer than the page's 2-s poll);
# Debian's headless chromium, driven by chromedriver through python3-selenium (check_fabric_view.py), loads
# the page, counts the switches, switch-switch cables and CAs drawn against the netfile, raises an error
# counter through ibsim's console and waits for that cable to turn the errors colour (5 symbol errors, under
# the health threshold of 10 per interval), then raises another one past the threshold and waits for its
# cable to turn the unhealthy colour (health.isolate is off: marked, kept in use), opens each switch's page,
# and saves a screenshot under the build dir (its path is printed). chromedriver and chromium are ended by PID
# by the script, the script itself by the EXIT trap.
. "$(dirname "$0")/health_common.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
# Debian's python3 has python3-selenium; a python3 earlier on PATH (pyenv, a venv) may not.
PY=""
for candidate in python3 /usr/bin/python3; do
  if "${candidate}" -c 'import selenium' 2>/dev/null; then PY=${candidate}; break; fi
done
[[ -n "${PY}" && -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] ||
  fail "chromium, chromium-driver and python3-selenium are needed (.ci/install-deps.sh installs them)"
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
SHOT="${SMD_BUILD_DIR}/test-artifacts/fabric_view.png"
w=${IBSIM_WORKDIR}
started=${SECONDS}

ibsim_start "${NET}"
write_policy "${w}/smd.yaml" "${w}/state" "  sweep_interval: 5" "perfmgr:" "  enabled: true" "  interval: 3" \
  "health:" "  isolate: false"
start_daemon smd "${w}/smd.yaml"
wait_log smd "SUBNET UP" 60
wait_log smd "metrics listening on 127.0.0.1:[0-9]+" 10
port=$(grep -o -E "metrics listening on 127.0.0.1:[0-9]+" "${w}/smd.log" | head -n1 | sed 's/.*://')
# The raise must come after the PerfMgr's baseline of the port, or it is part of the baseline.
wait_json 30 "r['result']['passes'] >= 1" counters

rm -f "${SHOT}"
# timeout sends SIGTERM before CTest would kill the test: the checker then ends its browser itself.
timeout -k 5 90 "${PY}" "$(dirname "$0")/check_fabric_view.py" "http://127.0.0.1:${port}/" --netfile "${NET}" \
  --console "${w}/console" --raise sw-L1-2 6 SymbolErrorCounter 5 errors \
  --raise sw-L0-3 7 SymbolErrorCounter 60 unhealthy --screenshot "${SHOT}" --timeout 30 &
checker=$!
ibsim_track "${checker}"
wait "${checker}" || fail "the fabric view in chromium (check_fabric_view.py)"
[[ -s "${SHOT}" ]] || fail "no screenshot at ${SHOT}"
# PNG signature: the file is an image, not an error page.
[[ $(head -c 8 "${SHOT}" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "${SHOT} is not a PNG"
# smd itself saw the same rises (the view and smctl read one snapshot), and marked the second port.
wait_json 10 "any(p['node_desc'] == 'sw-L0-3' and p['port'] == 7 for p in r['result']['ports'])" ports --unhealthy
wait_json 10 "any(p['node_desc'] == 'sw-L1-2' and p['port'] == 6 and p['counters']['SymbolErrorCounter'] == 5 \
  for p in r['result']['ports'])" counters sw-L1-2

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${w}/smd.log"
echo "fabric view browser test: $((SECONDS - started)) s, screenshot ${SHOT}"
