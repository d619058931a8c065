#!/usr/bin/env bash
# The Grafana dashboard docs/grafana/smd.json against a real Prometheus (Debian's `prometheus`, issue 46):
# smd runs on the two-switch fabric with its metrics endpoint on an ephemeral port and the PerfMgr on;
# Prometheus scrapes it every second into its own TSDB in the test's directory. The events the panels show
# are made to happen: a heavy sweep (smctl sweep), SA PathRecord queries (saquery), MCMemberRecord joins
# (sa_client), error and data counters raised through ibsim's console, a drain and undrain (smctl), and a
# repair after a cable is unlinked. Then tests/integration/check_grafana_dashboard.py asks Prometheus every query of every panel,
# read from the dashboard file, and wants data for each; the events themselves must show in Prometheus.
# `promtool check metrics` judges the endpoint's text: no error and no lint warning.
. "$(dirname "$0")/health_common.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v prometheus >/dev/null && command -v promtool >/dev/null ||
  fail "prometheus and promtool are not installed (.ci/install-deps.sh installs Debian's prometheus)"
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
DASHBOARD="${SMD_SOURCE_DIR}/docs/grafana/smd.json"
w=${IBSIM_WORKDIR}
started=${SECONDS}

ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
write_policy "${w}/smd.yaml" "${w}/state" "  sweep_interval: 2" "perfmgr:" "  enabled: true" "  interval: 1" \
  "health:" "  isolate: false"
start_daemon smd "${w}/smd.yaml"
wait_log smd "SUBNET UP" 60
wait_log smd "metrics listening on 127.0.0.1:[0-9]+" 10
metrics_port=$(grep -o -E "metrics listening on 127.0.0.1:[0-9]+" "${w}/smd.log" | head -n1 | sed 's/.*://')
target="127.0.0.1:${metrics_port}"

# Prometheus on a port the kernel just handed out, scraping smd every second.
prom_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prom="http://127.0.0.1:${prom_port}"
cat >"${w}/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: smd
    static_configs:
      - targets: ["${target}"]
YAML
promtool check config "${w}/prometheus.yml" >/dev/null || fail "promtool check config"
prometheus --config.file="${w}/prometheus.yml" --storage.tsdb.path="${w}/tsdb" \
  --web.listen-address="127.0.0.1:${prom_port}" >"${w}/prometheus.log" 2>&1 &
prom_pid=$!
ibsim_track "${prom_pid}"
# prom_get PATH: Prometheus' answer to GET PATH, or nothing
prom_get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
  "${prom}$1" 2>/dev/null; }
deadline=$((SECONDS + 30))
until prom_get /-/ready >/dev/null; do
  kill -0 "${prom_pid}" 2>/dev/null || { tail -n 20 "${w}/prometheus.log" >&2; fail "prometheus exited"; }
  ((SECONDS < deadline)) || { tail -n 20 "${w}/prometheus.log" >&2; fail "prometheus not ready within 30 s"; }
  sleep 0.2
done
# prom_wait SECONDS QUERY: until Prometheus answers QUERY with a sample of value 1 or more.
prom_wait() {
  local deadline=$((SECONDS + $1)) q
  q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$2")
  until prom_get "/api/v1/query?query=${q}" | python3 -c 'import json, sys
sys.exit(0 if any(float(s["value"][1]) >= 1 for s in json.load(sys.stdin)["data"]["result"]) else 1)' 2>/dev/null; do
    ((SECONDS < deadline)) || { tail -n 20 "${w}/prometheus.log" >&2; fail "Prometheus never had $2 within $1 s"; }
    sleep 0.2
  done
}
# The events must come after Prometheus' first sample of smd, or a rate over them has nothing to rise from.
prom_wait 30 "up{job=\"smd\"}"
echo "prometheus ready on ${prom}, scraping smd at ${target}"

# The events. A heavy sweep on request while Prometheus watches.
smctl sweep >/dev/null || fail "smctl sweep"
wait_log smd "SUBNET UP" 30 2
# SA PathRecord queries between the hosts (port GUIDs by ibsim's numbering: CA node 0x100000 + 2i, port 1),
# and a NodeRecord table, so that the answers come by more than one attribute.
gids=(fe80::10:1 fe80::10:3 fe80::10:5 fe80::10:7)
# A series is born with the first answer of its attribute: Prometheus must hold it before the others come,
# or the latency histogram has no rise to take a quantile of.
sim timeout 10 saquery --sgid-to-dgid "${gids[0]}-${gids[1]}" >"${w}/paths.txt" 2>&1 || fail "saquery PathRecord"
prom_wait 20 "smd_sa_answer_latency_seconds_count{attribute=\"PathRecord\"}"
for s in "${gids[@]}"; do
  for d in "${gids[@]}"; do
    [[ ${s} == "${d}" ]] && continue
    sim timeout 10 saquery --sgid-to-dgid "${s}-${d}" >>"${w}/paths.txt" 2>&1 || fail "saquery PathRecord ${s} -> ${d}"
  done
done
grep -q "PathRecord dump" "${w}/paths.txt" || { head -n 20 "${w}/paths.txt" >&2; fail "saquery printed no PathRecord"; }
sim timeout 10 saquery NR >/dev/null 2>&1 || fail "saquery NodeRecord"
# MCMemberRecord joins: host-1 joins the IPoIB broadcast group for itself and, as proxy, for two hosts.
(cd "${w}" && env LD_PRELOAD="${SIM_PRELOAD}" SIM_HOST=host-1 timeout 30 "${SA_CLIENT}" join \
  --mgid ff12:401b:ffff::ffff:ffff --port 100003 --port 100005 --port 100007 --join-state 1 \
  >"${w}/join.jsonl" 2>&1) || { cat "${w}/join.jsonl" >&2; fail "sa_client join"; }
# Errors and traffic on ports the PerfMgr already has a baseline for (its first pass is done).
wait_json 20 "r['result']['passes'] >= 1" counters
ibsim_console 'PerformanceSet "sw-0"[3] PortCounters.SymbolErrorCounter=9'
ibsim_console 'PerformanceSet "sw-1"[1] PortCounters.LinkDownedCounter=2'
ibsim_console 'PerformanceSet "host-2"[1] PortCounters.PortXmitData=500000'
# A drain while Prometheus watches (the Drained panel): one of the two cables between the switches, then
# undrained again before the other one is unlinked below.
ups=$(grep -c "SUBNET UP" "${w}/smd.log")
smctl drain 'sw-0[1]' >/dev/null || fail "smctl drain"
wait_log smd "SUBNET UP" 30 $((ups + 1))
prom_wait 20 "smd_drained_parts{instance=\"${target}\"}"
smctl undrain 'sw-0[1]' >/dev/null || fail "smctl undrain"
wait_log smd "SUBNET UP" 30 $((ups + 2))
# A repair: one of the two cables between the switches goes; the trap's heavy sweep repairs the routes.
repairs=$(grep -c "repair: fabric consistent" "${w}/smd.log" || true)
ibsim_console 'Unlink "sw-0"[2]'
wait_log smd "repair: fabric consistent" 30 $((repairs + 1))

# Every panel query answered with data once the events are in Prometheus (the PerfMgr reads every second,
# Prometheus scrapes every second: the checker polls until the events show, then asks every panel).
scrape_metrics "${w}/metrics.txt"
python3 "$(dirname "$0")/check_grafana_dashboard.py" "${DASHBOARD}" "${prom}" "${w}/metrics.txt" \
  --var "instance=${target}" --var "__rate_interval=1m" --wait-seconds 20 \
  --positive 'increase(smd_sweeps_total{instance="$instance",kind="heavy"}[$__rate_interval])' \
  --positive 'smd_repairs_total{instance="$instance"}' \
  --positive 'smd_sa_requests_total{instance="$instance",attribute="PathRecord",status="ok"}' \
  --positive 'smd_sa_answer_latency_seconds_count{instance="$instance",attribute="PathRecord"}' \
  --positive 'smd_sa_mcast_joins_total{instance="$instance"}' \
  --positive 'smd_port_symbol_errors_total{instance="$instance",node_desc="sw-0",port="3"}' \
  --positive 'smd_port_link_downed_total{instance="$instance",node_desc="sw-1",port="1"}' \
  --positive 'smd_port_xmit_bytes_total{instance="$instance",node_desc="host-2",port="1"}' \
  --positive 'smd_ports{instance="$instance",state="Active"}' \
  --positive 'max_over_time(smd_drained_parts{instance="$instance"}[$__rate_interval])' \
  --covers smd_drained_parts --covers smd_drained_cables || fail "the dashboard's queries"

# promtool on the endpoint's text as it is now (every family filled): no error, no lint warning.
scrape_metrics "${w}/metrics.txt"
promtool check metrics <"${w}/metrics.txt" >"${w}/promtool.txt" 2>&1 || { cat "${w}/promtool.txt" >&2; fail "promtool check metrics"; }
[[ ! -s "${w}/promtool.txt" ]] || { cat "${w}/promtool.txt" >&2; fail "promtool check metrics has lint warnings"; }
echo "promtool check metrics: $(wc -l <"${w}/metrics.txt") lines, no errors, no warnings"

kill -TERM "${prom_pid}"
wait "${prom_pid}" || true
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${w}/smd.log"
echo "grafana dashboard test: $((SECONDS - started)) s"
