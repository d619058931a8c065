#!/usr/bin/env bash
# dnup (issue 41) against updn, offline with `smd plan`, and OpenSM's `-R dnup` routing time on ibsim.
#
#   bench/dnup.sh [--build DIR] [--fabrics "k12 torus random storage"] [--osm "k12 storage"] [--out FILE]
#
# Fabrics (smd-fabric): k12 = 12-ary 3-tree (1728 hosts), torus = 8x8 x 2, random = 64 switches of degree
# 4 x 2 (seed 1) (bench/setup.sh's), storage = leaf/spine of 16 leaves x 8 hosts and 8 spines, 4 storage
# hosts on each of spine-0 and spine-1 (136 CAs: CAs on two tiers, dnup's case).
# For each fabric, `smd plan` with `routing.engines: [updn]` then `[dnup]`, one after the other (side by
# side in one run): the engine's compute time, eBB, max shift load, deadlock freedom, and CPU seconds of
# the whole plan (user + system, /usr/bin/time). For the --osm fabrics, one ibsim and `opensm -o -R dnup
# -D 0x07`: its routing time from "building routing with" to "tables configured on all switches"; then a
# fresh ibsim and `smd --once` with `[dnup]`: its "routing computed and verified" phase (engine and verifier).
# Every process started is killed by PID on exit (tests/integration/ibsim_env.sh's trap).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" fabrics="k12 torus random storage" osm="k12 storage" out=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --fabrics) fabrics=$2; shift 2 ;;
    --osm) osm=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
SMD_BUILD_DIR=${build}
. "${src}/tests/integration/once_common.sh"
w=${IBSIM_WORKDIR}
smd="${build}/smd/smd" gen="${build}/smd/smd-fabric"

fabric_args() {
  case $1 in
    k12) echo "kary --k 12 --n 3" ;;
    torus) echo "torus --dims 8x8 --hosts-per-switch 2" ;;
    random) echo "random --switches 64 --degree 4 --hosts-per-switch 2 --seed 1" ;;
    storage) echo "leafspine --leaves 16 --spines 8 --hosts-per-leaf 8 --hosts-per-spine 4 --spines-with-hosts 2" ;;
    *) echo "unknown fabric $1" >&2; return 1 ;;
  esac
}

# plan FABRIC ENGINE: one table row from smd plan's report.
plan() {
  local f=$1 e=$2
  printf 'routing:\n  engines: [%s]\n' "${e}" >"${w}/${e}.yaml"
  /usr/bin/time -f "%U %S" -o "${w}/${f}-${e}.time" "${smd}" plan --topology "${w}/${f}.net" \
    --config "${w}/${e}.yaml" >"${w}/${f}-${e}.txt"
  python3 - "${w}/${f}-${e}.txt" "${w}/${f}-${e}.time" "${f}" "${e}" <<'PY'
import re, sys
text, cpu = open(sys.argv[1]).read(), open(sys.argv[2]).read().split()
def field(pattern):
    m = re.search(pattern, text, re.M)
    return m.group(1) if m else '?'
cells = [sys.argv[3], sys.argv[4], field(r'^engine\s+(\S+)'), field(r'compute ([0-9.]+) ms'), field(r'^eBB\s+([0-9.]+)'),
         field(r'^shift\s+max load (\d+)'), field(r'^deadlock-free\s+(\w+)'), field(r'^hops\s+max (\d+)'),
         f"{float(cpu[0]) + float(cpu[1]):.2f}"]
print("| " + " | ".join(cells) + " |")
PY
}

# osm_time FABRIC: OpenSM's and smd's dnup routing time on ibsim, in ms.
osm_time() {
  local f=$1 sim_args
  sim_args=$(${gen} $(fabric_args "${f}") --ibsim-args)
  # shellcheck disable=SC2086
  ibsim_start "${w}/${f}.net" ${sim_args}
  mkdir -p "${w}/osm-${f}"
  (cd "${w}" && exec env OSM_CACHE_DIR="${w}/osm-${f}" LD_PRELOAD="${SIM_PRELOAD}" timeout -s KILL 300 opensm -o \
    -R dnup -D 0x07 -f "${w}/osm-${f}.log" >"${w}/osm-${f}.out" 2>&1) &
  local pid=$!
  ibsim_track "${pid}"
  wait "${pid}" || true
  ibsim_stop
  # shellcheck disable=SC2086
  ibsim_start "${w}/${f}.net" ${sim_args}
  rm -rf "${w}/state-${f}"
  write_policy "${w}/smd-${f}.yaml" "${w}/state-${f}" "routing:" "  engines: [dnup]"
  sim timeout -s KILL 300 "${smd}" --once --config "${w}/smd-${f}.yaml" >"${w}/smd-${f}.out" 2>&1 || true
  ibsim_stop
  python3 - "${w}/osm-${f}.log" "${f}" "${w}/smd-${f}.out" <<'PY'
import re, sys
ts = re.compile(r'^\w{3} \d\d (\d\d):(\d\d):(\d\d) (\d{6}) ')
def sec(line):
    m = ts.match(line)
    if not m:
        return None
    h, mi, s, us = (int(x) for x in m.groups())
    return h * 3600 + mi * 60 + s + us / 1e6
start = end = None
up = False
for line in open(sys.argv[1], errors='replace'):
    if start is None and 'building routing with' in line:
        start = sec(line)
    elif start is not None and end is None and 'tables configured on all switches' in line:
        end = sec(line)
    up = up or 'SUBNET UP' in line
ms = f"{(end - start) * 1000:.0f}" if start is not None and end is not None else '?'
print(f"| {sys.argv[2]} | OpenSM -R dnup | {ms} | {'yes' if up else 'no'} |")
text = open(sys.argv[3], errors='replace').read()
m = re.search(r'routing computed and verified \(([\d.]+) ms\)', text)
print(f"| {sys.argv[2]} | smd --once, dnup | {m.group(1) if m else '?'} | {'yes' if 'SUBNET UP' in text else 'no'} |")
PY
}

{
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| fabric | engine asked | engine used | compute ms | eBB | max shift load | deadlock-free | max hops | plan CPU s |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for f in ${fabrics}; do
    # shellcheck disable=SC2046
    "${gen}" $(fabric_args "${f}") -o "${w}/${f}.net"
    plan "${f}" updn
    plan "${f}" dnup
  done
  if [[ -n "${osm}" ]]; then
    echo
    echo "| fabric | SM | routing ms (log) | SUBNET UP |"
    echo "|---|---|---|---|"
    for f in ${osm}; do
      [[ -f "${w}/${f}.net" ]] || "${gen}" $(fabric_args "${f}") -o "${w}/${f}.net"
      osm_time "${f}"
    done
  fi
  echo
  echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee ${out:+"${out}"}
