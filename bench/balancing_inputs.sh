#!/usr/bin/env bash
# minhop's balancing inputs (issue 41 item 2) with and without each input, smd beside OpenSM 3.3.23's minhop,
# scored on what is read back from ibsim: how many CA LIDs the port an input names carries, and eBB and the
# shift permutations' max link load (bench/quality.py) of the whole table.
#
#   bench/balancing_inputs.sh [--build DIR] [--out FILE]
#
# Fabrics (tests/fabrics): ls = leafspine (16 hosts, 4 leaves, 2 spines, one cable per leaf-spine pair),
# k3 = the 4-ary 3-tree (64 hosts, 48 switches). Inputs, each the same file or value for both SMs:
#   plain    none
#   weights  hop_weights_file: the cable from the first leaf to its first up-neighbour weighs 2 at both ends
#   ignore   port_prof_ignore_file: that leaf port left out of the balancing
#   shift    port_shifting
#   scatter  scatter_ports 7
# Every run: a fresh ibsim, the SM once (`opensm -o -R minhop`, `smd --once` with routing.engines [minhop]),
# bench/readback.py (infiniband-diags only), then bench/quality.py with all shifts and 100 eBB samples. The
# "port" column counts the CA LIDs the first leaf sends out of the named port (its first up-port), "of" the
# CA LIDs it routes to other switches. Every process is killed by PID on exit (tests/integration/ibsim_env.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="${src}/build-rel" out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(realpath "$2"); shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    *) echo "balancing_inputs.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
export SMD_BUILD_DIR="${build}" SMD_SOURCE_DIR="${src}"
[[ -x "${build}/smd/smd" ]] || { echo "balancing_inputs.sh: build smd in ${build} first" >&2; exit 2; }
# shellcheck source=../tests/integration/once_common.sh
. "${src}/tests/integration/once_common.sh"
w=${IBSIM_WORKDIR}
rows=()

# guid_of NAME: the node GUID of switch NAME in ${w}/fabric.txt (ibnetdiscover before any SM).
guid_of() { sed -nE "s/^Switch[[:space:]]+[0-9]+[[:space:]]+\"S-([0-9a-fA-F]{16})\".*# \"$1\".*/0x\1/p" "${w}/fabric.txt"; }

# one FABRIC NET SM INPUT: one run, its readback and quality in ${w}/FABRIC-SM-INPUT.{json,q.json}.
one() {
  local fabric=$1 net=$2 sm=$3 input=$4 name="$1-$3-$4"
  local -a osm=() yaml=()
  case "${input}" in
    plain) ;;
    weights) osm=(--hop_weights_file "${w}/weights") yaml=("    hop_weights_file: ${w}/weights") ;;
    ignore) osm=(--ignore_guids "${w}/ignore") yaml=("    port_prof_ignore_file: ${w}/ignore") ;;
    shift) osm=(--port-shifting) yaml=("    port_shifting: true") ;;
    scatter) osm=(--scatter-ports 7) yaml=("    scatter_ports: 7") ;;
  esac
  ibsim_start "${net}"
  if [[ ${sm} == osm ]]; then
    mkdir -p "${w}/cache-${name}"
    sim env OSM_CACHE_DIR="${w}/cache-${name}" timeout 120 opensm -o -R minhop "${osm[@]}" -f "${w}/${name}.log" \
      >"${w}/${name}.out" 2>&1 || true
    grep -q "SUBNET UP" "${w}/${name}.log" || { echo "${name}: OpenSM did not bring the subnet up" >&2; exit 1; }
  else
    local extra=("routing:" "  engines: [minhop]")
    ((${#yaml[@]} > 0)) && extra+=("  minhop:" "${yaml[@]}")
    write_policy "${w}/${name}.yaml" "${w}/state-${name}" "${extra[@]}"
    sim timeout 120 "${SMD_BIN}" --once --config "${w}/${name}.yaml" >"${w}/${name}.out" 2>"${w}/${name}.err" ||
      { tail -n 20 "${w}/${name}.err" >&2; exit 1; }
  fi
  (cd "${w}" && sim timeout 300 python3 "${bench}/readback.py" --out "${w}/${name}.json") 2>>"${w}/readback.err"
  ibsim_stop
  python3 "${bench}/quality.py" "${w}/${name}.json" "${net}" --shifts all --ebb-samples 100 >"${w}/${name}.q.json"
  rows+=("$(python3 - "${w}/${name}.json" "${w}/${name}.q.json" "${fabric}" "${sm}" "${input}" "${LEAF}" "${PORT}" <<'PY'
import json, sys
rb, q = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fabric, sm, inp, leaf, port = sys.argv[3:8]
ids = {n["desc"]: i for i, n in rb["nodes"].items()}
lft = rb["lfts"][ids[leaf]]
home = {}
for i, n in rb["nodes"].items():
    if n["type"] == "ca":
        for p, (peer, _pp) in n["ports"].items():
            for lid, _lmc in [n["port_lids"][p]]:
                home[lid] = rb["nodes"][peer]["desc"]
remote = [lid for lid, sw in home.items() if sw != leaf]
on_port = sum(1 for lid in remote if lft.get(str(lid)) == int(port))
print(f"| {fabric} | {'OpenSM' if sm == 'osm' else 'smd'} | {inp} | {on_port} | {len(remote)} | "
      f"{q['ebb']:.3f} | {q['shift_max']} |")
PY
)")
}

fabric() {
  local fabric=$1 net=$2 up=$3
  shift 3
  ibsim_start "${net}"
  sim timeout 60 ibnetdiscover >"${w}/fabric.txt"
  ibsim_stop
  # The first leaf's first up-port and the switch behind it (from the netfile).
  LEAF=$(grep -m1 -oP '^Switch \d+ "\K[^"]+' "${net}")
  PORT=${up}
  local peer peer_port
  peer=$(sed -n "/^Switch [0-9]* \"${LEAF}\"/,/^\$/p" "${net}" | sed -nE "s/^\[${up}\] \"([^\"]+)\"\[([0-9]+)\].*/\1 \2/p")
  peer_port=${peer#* }
  peer=${peer% *}
  { echo "$(guid_of "${LEAF}") ${up} 2"; echo "$(guid_of "${peer}") ${peer_port} 2"; } >"${w}/weights"
  echo "$(guid_of "${LEAF}") ${up}" >"${w}/ignore"
  local input sm
  for input in "$@"; do
    for sm in osm smd; do one "${fabric}" "${net}" "${sm}" "${input}"; done
  done
}

t0=${SECONDS}
fabric ls "${src}/tests/fabrics/leafspine.net" 5 plain weights ignore shift scatter
fabric k3 "${src}/tests/fabrics/kary4-3.net" 5 plain weights ignore shift scatter
table=$(
  echo "| fabric | SM | input | port | of | eBB | shift max |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$(date -u +%F) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $((SECONDS - t0)) s in all"
)
echo "${table}"
[[ -z "${out}" ]] || echo "${table}" >"${out}"
