#!/usr/bin/env bash
# Fabric view benchmark (issue 46 item 1): smd as a daemon on a fresh ibsim of the fabric with the PerfMgr on;
# then the server-side cost of every view answer and of a Prometheus scrape (bench/fabric_view_measure.py:
# wall time per answer and smd's main-thread CPU per answer), the page load in headless chromium
# (tests/integration/check_fabric_view.py --load-only, three loads, after one load that checks the drawn
# switch and cable counts against the netfile), and the scrape again while a browser keeps the view open
# (polling every 2 s).
#
#   bench/fabric_view.sh [--build DIR] [--fabric k12|k8|ls512|torus|random] [--raw DIR]
#
#   --fabric  default k12 (12-ary 3-tree, 1728 hosts, 432 switches)
# Writes bench/results/fabric_view.md. Every process started is killed by PID on exit (bench/lib.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
cmdline="bench/fabric_view.sh$(printf ' %q' "$@")"
. "${bench}/setup.sh"
build="" fabric="k12" raw=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift ;;
    --fabric) fabric=$2; shift ;;
    --raw) raw=$2; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "fabric_view.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
PY=""
for candidate in python3 /usr/bin/python3; do
  if "${candidate}" -c 'import selenium' 2>/dev/null; then PY=${candidate}; break; fi
done
[[ -n "${PY}" ]] || { echo "fabric_view.sh: python3-selenium missing (.ci/install-deps.sh installs it)" >&2; exit 2; }
build=$(bench_build_dir "${build}")
genargs=$(bench_fabric_args "${fabric}" k12,k8,ls512,torus,random)
raw=$(bench_raw_dir "${raw}" smd-fabric-view)
echo "== raw outputs in ${raw}"
simline=$(bench_netfile "${build}" "${genargs}" "${raw}/fabric.net")
read -r -a simargs <<<"${simline}"
. "${bench}/lib.sh"
out=${raw}
bench_ibsim_start "${raw}/fabric.net" 1200 "${simargs[@]}"
socket="${IBSIM_WORKDIR}/control.socket"
bench_smd_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "${socket}"
printf 'perfmgr:\n  enabled: true\n  interval: 10\n  max_outstanding: 8\n' >>"${IBSIM_WORKDIR}/smd.yaml"
(cd "${IBSIM_WORKDIR}" && exec env LD_PRELOAD="${SIM_PRELOAD}" "${build}/smd/smd" --config "${IBSIM_WORKDIR}/smd.yaml" \
  >"${raw}/smd.log" 2>&1) &
smd_pid=$!
ibsim_track "${smd_pid}"
deadline=$((SECONDS + 600))
until grep -q "SUBNET UP" "${raw}/smd.log"; do
  ((SECONDS < deadline)) || { tail -n 20 "${raw}/smd.log" >&2; echo "fabric_view.sh: no SUBNET UP" >&2; exit 1; }
  kill -0 "${smd_pid}" 2>/dev/null || { tail -n 20 "${raw}/smd.log" >&2; exit 1; }
  sleep 0.5
done
port=$(grep -o -E "metrics listening on 127.0.0.1:[0-9]+" "${raw}/smd.log" | head -n1 | sed 's/.*://')
# The PerfMgr's first pass, so the view carries counters and rates.
deadline=$((SECONDS + 300))
until "${build}/smd/smctl" --socket "${socket}" --json counters host-0 2>/dev/null |
  python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["result"]["passes"] >= 1 else 1)'; do
  ((SECONDS < deadline)) || { echo "fabric_view.sh: no PerfMgr pass within 300 s" >&2; exit 1; }
  sleep 1
done
leaf=$(awk '/^Switch/ {gsub(/"/, "", $3); print $3; exit}' "${raw}/fabric.net")
echo "== smd up on ${fabric} (pid ${smd_pid}, metrics port ${port}); load $(cut -d' ' -f1-3 /proc/loadavg)"

measure() { python3 "${bench}/fabric_view_measure.py" "${port}" "${smd_pid}" "$@"; }
measure --label "view closed:" --path /api/v1/fabric --path /api/v1/sm --path /api/v1/sa \
  --path "/api/v1/node/${leaf}" --path / --path /view.js --path /metrics >"${raw}/answers.md"
cat "${raw}/answers.md"

checker=${src}/tests/integration/check_fabric_view.py
/usr/bin/time -v -o "${raw}/check.time" "${PY}" "${checker}" "http://127.0.0.1:${port}/" --netfile "${raw}/fabric.net" \
  --screenshot "${raw}/fabric_view.png" --timeout 180 >"${raw}/check.txt" 2>&1 || { cat "${raw}/check.txt" >&2; exit 1; }
cat "${raw}/check.txt"
: >"${raw}/loads.txt"
for i in 1 2 3; do
  /usr/bin/time -v -o "${raw}/load${i}.time" "${PY}" "${checker}" "http://127.0.0.1:${port}/" \
    --netfile "${raw}/fabric.net" --load-only --timeout 180 >>"${raw}/loads.txt" 2>&1 || { cat "${raw}/loads.txt" >&2; exit 1; }
done
cat "${raw}/loads.txt"

# The view open in a browser (polling /api/v1/fabric, sm and sa every 2 s) while Prometheus-like scrapes run.
/usr/bin/time -v -o "${raw}/hold.time" "${PY}" "${checker}" "http://127.0.0.1:${port}/" --netfile "${raw}/fabric.net" \
  --load-only --hold 50 --timeout 180 >"${raw}/hold.txt" 2>&1 &
holder=$!
ibsim_track "${holder}"
sleep 15
measure --label "view open:" --path /metrics --path /api/v1/fabric >"${raw}/open.md"
cat "${raw}/open.md"
wait "${holder}" || { cat "${raw}/hold.txt" >&2; exit 1; }
cat "${raw}/hold.txt"
# The same two answers with the browser gone, so open and closed are measured side by side in one run.
measure --label "view closed again:" --path /metrics --path /api/v1/fabric >"${raw}/closed.md"
cat "${raw}/closed.md"
kill -TERM "${smd_pid}"
wait "${smd_pid}" || true

cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.1f", u + s}' "$1"; }
commit=$(git -C "${src}" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Fabric view cost on ${fabric}"
  echo
  echo "\`${cmdline}\` at ${commit}, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Fabric: smd-fabric ${genargs}; smd with perfmgr (interval 10 s, max_outstanding 8)."
  echo
  echo "Server side, 10 answers each on fresh connections, no browser open:"
  echo
  cat "${raw}/answers.md"
  echo
  echo "With a browser holding the view open (it polls three API answers every 2 s):"
  echo
  cat "${raw}/open.md"
  echo
  echo "The browser closed again:"
  echo
  cat "${raw}/closed.md"
  echo
  echo "Headless chromium (check_fabric_view.py; CPU = user + system of the checker, chromedriver and chromium):"
  echo
  echo '```'
  grep -E "^(drawn|page load)" "${raw}/check.txt"
  grep -E "^page load" "${raw}/loads.txt"
  echo '```'
  echo
  echo "CPU seconds: count check $(cpu "${raw}/check.time"), loads $(cpu "${raw}/load1.time") $(cpu "${raw}/load2.time")" \
    "$(cpu "${raw}/load3.time"), 50 s held open $(cpu "${raw}/hold.time")."
} >"${bench}/results/fabric_view.md"
echo "== wrote bench/results/fabric_view.md"
