#!/usr/bin/env bash
# SA load: PathRecord Get throughput and latency of each SM's Subnet Administrator on ibsim, measured by
# the independent client tests/integration/sa_client (libibumad only, no smd code).
#
#   bench/sa_load.sh [--build DIR] [--fabric k12|k8|kary4-3] [--sms "opensm smd"] [--clients M]
#                    [--window N] [--seconds S] [--timeout S] [--raw DIR] [--out FILE]
#
# --sms may name "null": the fabric brought up by smd --once, then sa_client respond answering every Get at
# once with no SA work: what ibsim, the shim and the clients carry on this machine, the ceiling any SA's
# figure here is bounded by.
# For each SM in --sms, in order: a FRESH ibsim on the fabric (default k12: the 1728-host 3-level 12-ary
# tree from smd-fabric), the SM started as a daemon at host-0 (opensm -R ftree, or smd with the default
# policy), wait for SUBNET UP, then one probe from a client host (ClassPortInfo Get, then one PathRecord
# Get). An SM that answers neither is reported as "<sm>: no SA" and skipped. Otherwise M sa_client load
# processes (default 4; ibsim takes at most 10 clients, the SM is one) start at once on M different hosts
# spread over the fabric, each keeping N PathRecord Gets outstanding (default 16) to random CA ports for S
# seconds (default 20), no retries, 1 s timeout. For smd (sm.sweep_interval 1 s), the daemon's light-sweep
# counter (smd_sweeps_total{kind="light"} on its metrics endpoint) is read over S idle seconds before the
# load and over the load's S seconds: the two counts say whether the SA's load slows the light sweep.
# bench/sa_load_report.py merges the clients' latencies and prints one row per SM: answers/s (sum over
# clients), p50/p99/max latency in microseconds, timeouts, non-zero statuses, light sweeps during load.
#
# Every process started is killed by PID on exit, failure included (tests/integration/ibsim_env.sh trap);
# ibsim and each SM also run under `timeout -s KILL`, and the whole script under --timeout (default 900 s).
# Raw outputs (SM logs, per-client JSON and latency files, metrics samples) stay in --raw (default a fresh
# directory under $TMPDIR). --out FILE also writes the table (markdown) there.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" fabric=k12 sms="opensm smd" clients=4 window=16 seconds=20 global=900 raw="" out=""
args=("$@")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --fabric) fabric=$2; shift 2 ;;
    --sms) sms=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --timeout) global=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    *) echo "sa_load.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
((clients >= 1 && clients <= 8)) || { echo "sa_load.sh: --clients must be 1..8 (ibsim takes 10 clients)" >&2; exit 2; }
# The global bound: run as a child of timeout; SIGTERM reaches the EXIT trap, which kills by PID.
if [[ -z "${SA_LOAD_INNER:-}" ]]; then
  SA_LOAD_INNER=1 exec timeout -k 30 "${global}" bash "$0" "${args[@]}"
fi
sa_client="${build}/tests/integration/sa_client/sa_client"
smd="${build}/smd/smd"
[[ -x "${sa_client}" && -x "${build}/smd/smd-fabric" ]] ||
  { echo "sa_load.sh: build sa_client and smd-fabric in ${build} first" >&2; exit 2; }

# shellcheck source=setup.sh
. "${bench}/setup.sh"
# shellcheck source=lib.sh
. "${bench}/lib.sh"
export SMD_KEEP_WORKDIR=1
raw=$(bench_raw_dir "${raw}" smd-sa-load)
echo "sa_load: fabric ${fabric}, ${clients} clients x window ${window} x ${seconds} s; raw outputs in ${raw}"
net="${raw}/fabric.net"
if [[ "${fabric}" == kary4-3 ]]; then
  cp "${src}/tests/fabrics/kary4-3.net" "${net}"
  read -r -a ibsim_args <<<""
else
  genargs=$(bench_fabric_args "${fabric}" k8,k12)
  read -r -a ibsim_args <<<"$(bench_netfile "${build}" "${genargs}" "${net}")"
fi
mapfile -t hosts < <(awk '$1 == "Hca" { gsub(/"/, "", $3); print $3 }' "${net}")
ncas=${#hosts[@]}
sm_host=${hosts[0]}
client_hosts=()
for ((i = 1; i <= clients; i++)); do client_hosts+=("${hosts[$((i * ncas / (clients + 1)))]}"); done
echo "sa_load: ${ncas} CAs; SM at ${sm_host}; clients at ${client_hosts[*]}"
run_limit=$((seconds + 400))

# start_sm SM DIR: the SM as a daemon at sm_host; sets sm_pid (the SM process) and sm_log.
start_sm() {
  local sm=$1 dir=$2
  local -a cmd
  case "${sm}" in
    opensm)
      mkdir -p "${dir}/osm-cache"
      printf 'force_log_flush TRUE\n' >"${dir}/opensm.conf"
      sm_log="${dir}/opensm.log"
      cmd=(env OSM_CACHE_DIR="${dir}/osm-cache" opensm -F "${dir}/opensm.conf" -f "${sm_log}" -R ftree)
      ;;
    smd)
      [[ -x "${smd}" ]] || { echo "sa_load.sh: ${smd} not built" >&2; return 1; }
      # A light sweep every second, so its rate idle and under the load says whether the SA slows it.
      bench_smd_policy "${dir}/smd.yaml" "${dir}/state" "${dir}/control.socket" "sweep_interval: 1"
      sm_log="${dir}/sm.out" # smd logs to stdout
      cmd=("${smd}" --config "${dir}/smd.yaml")
      ;;
    null)
      # The ceiling: `smd --once` brings the fabric up and exits (the tables stay in the switches), then
      # `sa_client respond` at the SM's node answers every Get at once, doing no SA work at all.
      [[ -x "${smd}" ]] || { echo "sa_load.sh: ${smd} not built" >&2; return 1; }
      bench_smd_policy "${dir}/once.yaml" "${dir}/state" "${dir}/control.socket"
      (cd "${IBSIM_WORKDIR}" && timeout 300 env SIM_HOST="${sm_host}" LD_PRELOAD="${SIM_PRELOAD}" "${smd}" --once \
        --config "${dir}/once.yaml" >"${dir}/once.out" 2>&1) || { echo "sa_load.sh: smd --once failed" >&2; return 1; }
      sm_log="${dir}/sm.out"
      cmd=("${sa_client}" respond --seconds $((run_limit - 5)))
      bench_spawn "${run_limit}" "${sm_host}" "${cmd[@]}" >"${dir}/sm.out" 2>&1
      sm_pid=${spawned_child:-${spawned}}
      sm_timeout_pid=${spawned}
      echo "SUBNET UP (smd --once), then sa_client respond" >>"${dir}/sm.out"
      return 0
      ;;
    *) echo "sa_load.sh: unknown SM ${sm}" >&2; return 1 ;;
  esac
  bench_spawn "${run_limit}" "${sm_host}" "${cmd[@]}" >"${dir}/sm.out" 2>&1
  sm_pid=${spawned_child:-${spawned}}
  sm_timeout_pid=${spawned}
}

# stop_sm: the SM and its timeout, by PID.
stop_sm() {
  kill -9 "${sm_pid}" "${sm_timeout_pid}" 2>/dev/null || true
  wait "${sm_timeout_pid}" 2>/dev/null || true
}

# client HOST ARGS...: sa_client under the shim at HOST (started only now: the shim's sm_lid is a snapshot).
client() {
  local host=$1
  shift
  sim env SIM_HOST="${host}" timeout -s KILL $((seconds + 60)) "${sa_client}" "$@"
}

# cpu_ticks PID [THREAD]: CPU time (user + system, clock ticks) of the process, or of its threads named
# THREAD (smd names the SA's "smd-sa"), from /proc/PID/task/*/stat.
cpu_ticks() {
  local pid=$1 name=${2:-}
  awk -v name="${name}" '{
      # comm is field 2 in parentheses and may hold spaces: split after its closing parenthesis.
      c = substr($0, index($0, "(") + 1); comm = substr(c, 1, index(c, ")") - 1); rest = substr(c, index(c, ")") + 2)
      split(rest, f, " ")
      if (name == "" || comm == name) t += f[12] + f[13]
    } END { print t + 0 }' /proc/"${pid}"/task/*/stat 2>/dev/null || echo 0
}

# light_sweeps: smd's light-sweep counter from its metrics endpoint (port from its log), or "-".
light_sweeps() {
  local port
  port=$(sed -nE 's/.*metrics listening on [0-9.]+:([0-9]+).*/\1/p' "${sm_log}" | tail -n 1)
  [[ -n "${port}" ]] || { echo -; return 0; }
  { curl -s --max-time 2 "http://127.0.0.1:${port}/metrics" || true; } |
    awk '/^smd_sweeps_total\{kind="light"\}/ { print $2; found = 1 } END { if (!found) print "-" }'
}

# measure SM: one fresh fabric, the SM, the probe, the load; results in raw/SM/.
measure() {
  local sm=$1 dir="${raw}/$1"
  mkdir -p "${dir}"
  bench_ibsim_start "${net}" "${run_limit}" "${ibsim_args[@]}"
  start_sm "${sm}" "${dir}"
  if ! bench_wait_up "${sm}" 300; then
    echo "${sm}: not up" >"${dir}/verdict.txt"
    stop_sm
    ibsim_stop
    return 0
  fi
  sleep 2 # let the SM finish its first master sweep's tail (OpenSM answers SA only after it)
  # The CA port GUIDs (targets), read once with ibnetdiscover; the same netfile gives the same GUIDs.
  if [[ ! -s "${raw}/targets.txt" ]]; then
    sim env SIM_HOST="${client_hosts[0]}" timeout 300 ibnetdiscover -p >"${raw}/ibnetdiscover-p.txt"
    awk '$1 == "CA" { print $4 }' "${raw}/ibnetdiscover-p.txt" | sort -u >"${raw}/targets.txt"
    echo "sa_load: $(wc -l <"${raw}/targets.txt") target CA ports"
  fi
  local probe_host=${client_hosts[0]}
  if client "${probe_host}" --timeout-ms 1000 --retries 4 get --attr 0x01 --method get >"${dir}/probe-cpi.json" \
    2>"${dir}/probe.err" ||
    { head -n 2 "${raw}/targets.txt" | paste -sd' ' >"${dir}/probe-pair.txt" &&
      client "${probe_host}" --timeout-ms 1000 --retries 4 paths --pairs "${dir}/probe-pair.txt" \
        >"${dir}/probe-pr.json" 2>>"${dir}/probe.err"; }; then
    :
  else
    local note="${sm}: no SA"
    [[ "${sm}" != smd ]] || note+=" (light sweeps so far: $(light_sweeps))"
    echo "${note}"
    echo "${note}" >"${dir}/verdict.txt"
    stop_sm
    ibsim_stop
    return 0
  fi
  local before="-" after="-" idle_before="-" idle_after="-" i pids=()
  if [[ "${sm}" == smd ]]; then
    # The light-sweep rate with no SA load, over as long as the load will run: the baseline.
    idle_before=$(light_sweeps)
    sleep "${seconds}"
    idle_after=$(light_sweeps)
  fi
  [[ "${sm}" == smd ]] && before=$(light_sweeps)
  local cpu_before cpu_sa_before
  cpu_before=$(cpu_ticks "${sm_pid}")
  cpu_sa_before=$(cpu_ticks "${sm_pid}" smd-sa)
  for ((i = 0; i < clients; i++)); do
    bench_spawn $((seconds + 60)) "${client_hosts[i]}" "${sa_client}" load --targets "${raw}/targets.txt" \
      --window "${window}" --seconds "${seconds}" --seed $((i + 1)) --latency-file "${dir}/lat-${i}.txt" \
      >"${dir}/client-${i}.json" 2>"${dir}/client-${i}.err"
    pids+=("${spawned}")
  done
  if [[ "${sm}" == smd ]]; then
    for ((i = 0; i < seconds; i++)); do
      echo "$(date +%s.%N) $(light_sweeps)" >>"${dir}/light_sweeps.txt"
      sleep 1
    done
  fi
  local rc=0 p
  for p in "${pids[@]}"; do wait "${p}" || rc=$?; done # each client ends by itself (timeout bounds it)
  [[ "${sm}" == smd ]] && after=$(light_sweeps)
  local cpu_sm=$(($(cpu_ticks "${sm_pid}") - cpu_before)) cpu_sa=$(($(cpu_ticks "${sm_pid}" smd-sa) - cpu_sa_before))
  echo "light_before=${before} light_after=${after} idle_before=${idle_before} idle_after=${idle_after}" \
    "cpu_sm_ticks=${cpu_sm} cpu_sa_ticks=${cpu_sa} hz=$(getconf CLK_TCK) clients_rc=${rc}" >"${dir}/verdict.txt"
  stop_sm
  ibsim_stop
}

for sm in ${sms}; do measure "${sm}"; done
# shellcheck disable=SC2086  # one argument per SM name
python3 "${bench}/sa_load_report.py" "${raw}" ${sms} | tee "${raw}/report.md"
[[ -z "${out}" ]] || cp "${raw}/report.md" "${out}"
