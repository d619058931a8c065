#!/usr/bin/env bash
# minhop's balancing inputs (issue 41 item 2) against OpenSM 3.3.23's, judged by infiniband-diags on ibsim:
# the same leafspine fabric (16 hosts, leaf-0..3 with up-ports 5 -> spine-0 and 6 -> spine-1), the same file
# given to `opensm -o -R minhop` and to `smd --once` (routing.engines [minhop]), each on a fresh ibsim, every
# switch's LFT read back by name (read_routes.py: ibnetdiscover, ibroute, smpdump). GUIDs are read from the
# fabric by ibnetdiscover before any SM runs.
#   hop_weights_file: the leaf-0 <-> spine-0 cable weighs 2 at both ends. Least-weight paths, computed here
#     from the read-back cables and the file (Dijkstra), make every route to or from leaf-0's hosts avoid that
#     cable except spine-0's own delivery to leaf-0 (2 < 3 round the other spine). Both SMs: every (switch,
#     CA) route on a least-weight path, leaf-0 sends none of its 12 remote hosts by port 5 (the control,
#     smd without the file, sends 6), every other leaf sends leaf-0's hosts by port 6.
#   port_search_ordering_file: every leaf searches 6 before 5; with a guid_routing_order_file listing every
#     host (both SMs then route the CA LIDs in one order, as routing_order_test shows) the first tie goes to
#     port 6 in both, and smd equals OpenSM on every (switch, CA) entry; the control (smd with the order only)
#     differs at every leaf.
#   port_prof_ignore_file (OpenSM's --ignore_guids): leaf-0 port 5 left out of the balancing: it never looks
#     loaded, so in both SMs all 12 of leaf-0's remote hosts leave by port 5 (the control: 6 and 6), and with
#     the same order file smd equals OpenSM on every entry.
#   port_shifting: with the same order file, smd equals OpenSM (`--port-shifting`) on every entry, and both
#     differ from the runs without it.
#   scatter_ports 7 (smd with port_profile_switch_nodes false, OpenSM's default: counting switch LIDs, smd's
#     default, lets a random tie-break leave the CA LIDs 7/5): both SMs keep every route shortest and every
#     leaf's 12 remote hosts 6/6 on its up-ports,
#     both differ from their own run without it somewhere, and smd twice with the seed gives the same tables
#     (OpenSM's random() sequence is its own: smd is not expected to equal it).
# Measured here: 107 s on 2 cores at load average 13 (15 SM runs).
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
NET="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
READ="$(cd "$(dirname "$0")" && pwd)/read_routes.py"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# guid_of NAME: the node GUID ibnetdiscover gives the switch named NAME (from ${w}/fabric.txt).
guid_of() {
  local g
  g=$(sed -nE "s/^Switch[[:space:]]+[0-9]+[[:space:]]+\"S-([0-9a-fA-F]{16})\".*# \"$1\".*/\1/p" "${w}/fabric.txt")
  [[ -n ${g} ]] || fail "ibnetdiscover shows no switch $1"
  echo "0x${g}"
}

# osm_run NAME OPENSM-ARGS...: `opensm -o -R minhop` on a fresh fabric; its routes in NAME.json.
osm_run() {
  local name=$1
  shift
  ibsim_start "${NET}"
  mkdir -p "${w}/cache-${name}"
  sim env OSM_CACHE_DIR="${w}/cache-${name}" timeout 120 opensm -o -R minhop "$@" -f "${w}/${name}.log" \
    >"${w}/${name}.out" 2>&1 || true
  grep -q "SUBNET UP" "${w}/${name}.log" || { tail -n 20 "${w}/${name}.log" >&2; fail "${name}: OpenSM did not bring the subnet up"; }
  sim timeout 240 python3 "${READ}" >"${w}/${name}.json"
  ibsim_stop
}

# smd_run NAME [policy lines under routing.minhop]: smd --once with minhop on a fresh fabric; NAME.json.
smd_run() {
  local name=$1
  shift
  ibsim_start "${NET}"
  local extra=("routing:" "  engines: [minhop]")
  (($# > 0)) && extra+=("  minhop:" "$@")
  write_policy "${w}/${name}.yaml" "${w}/state-${name}" "${extra[@]}"
  if ! sim timeout 120 "${SMD_BIN}" --once --config "${w}/${name}.yaml" >"${w}/${name}.out" 2>"${w}/${name}.err"; then
    tail -n 30 "${w}/${name}.err" >&2
    fail "smd --once (${name}) did not bring the subnet up"
  fi
  grep -q "SUBNET UP" "${w}/${name}.out" || fail "smd --once (${name}): no SUBNET UP"
  ! grep -q "skipped" "${w}/${name}.err" || { grep "skipped" "${w}/${name}.err" >&2; fail "smd (${name}) skipped lines of a file"; }
  check_with_diags --expect-switches 6 --expect-cas 16
  sim timeout 240 python3 "${READ}" >"${w}/${name}.json"
  ibsim_stop
}

t0=${SECONDS}
ibsim_start "${NET}"
sim timeout 60 ibnetdiscover >"${w}/fabric.txt" || fail "ibnetdiscover before any SM"
ibsim_stop
leaf0=$(guid_of leaf-0)
spine0=$(guid_of spine-0)
{ echo "# the leaf-0 <-> spine-0 cable, both ends"; echo "${leaf0} 5 2"; echo "${spine0} 1 2"; } >"${w}/weights"
for leaf in leaf-0 leaf-1 leaf-2 leaf-3; do echo "$(guid_of "${leaf}") 6 5  # spine-1 first"; done >"${w}/search"
echo "${leaf0} 5" >"${w}/ignore"
for i in $(seq 15 -1 0); do printf '0x%016x\n' $((0x100000 + 2 * i + 1)); done >"${w}/order"

smd_run plain
osm_run osm-w --hop_weights_file "${w}/weights"
smd_run smd-w "    hop_weights_file: ${w}/weights"
osm_run osm-s --guid_routing_order_file "${w}/order" --port_search_ordering_file "${w}/search"
smd_run smd-s "    guid_routing_order_file: ${w}/order" "    port_search_ordering_file: ${w}/search"
smd_run smd-o "    guid_routing_order_file: ${w}/order"
osm_run osm-i --guid_routing_order_file "${w}/order" --ignore_guids "${w}/ignore"
smd_run smd-i "    guid_routing_order_file: ${w}/order" "    port_prof_ignore_file: ${w}/ignore"
osm_run osm-o --guid_routing_order_file "${w}/order"
osm_run osm-h --guid_routing_order_file "${w}/order" --port-shifting
smd_run smd-h "    guid_routing_order_file: ${w}/order" "    port_shifting: true"
osm_run osm-plain
osm_run osm-r --scatter-ports 7
smd_run smd-r "    scatter_ports: 7" "    port_profile_switch_nodes: false"
smd_run smd-r2 "    scatter_ports: 7" "    port_profile_switch_nodes: false"

python3 - "${w}" <<'PY'
import heapq, json, sys
w = sys.argv[1]
run = {n: json.load(open(f"{w}/{n}.json")) for n in
       ("plain", "osm-w", "smd-w", "osm-s", "smd-s", "smd-o", "osm-i", "smd-i", "osm-o", "osm-h", "smd-h",
        "osm-plain", "osm-r", "smd-r", "smd-r2")}
errors = []


def by_port(r, sw, cas):
    """How many of `cas` switch `sw` sends out of each port."""
    out = {}
    for ca in cas:
        p = r["routes"][sw][ca]
        out[p] = out.get(p, 0) + 1
    return out


def remote(r, sw):
    return [ca for ca, (home, _p) in r["homes"].items() if home != sw]


def differing(a, b):
    return [(sw, ca) for sw in a["routes"] for ca in a["routes"][sw] if a["routes"][sw][ca] != b["routes"][sw][ca]]


# 1. Hop weights: least-weight distances from the read-back cables and the weights file.
base = run["plain"]
name_of = {int(g, 16): sw for sw, g in base["guids"].items()}
weight = {}
for line in open(f"{w}/weights"):
    line = line.split("#")[0].split()
    if line:
        weight[(name_of[int(line[0], 16)], int(line[1]))] = int(line[2])
switches = sorted(base["links"])
dist = {}
for dst in switches:  # Dijkstra towards dst: d[v] = min over v's ports p of weight(v, p) + d[peer]
    d = {dst: 0}
    heap = [(0, dst)]
    while heap:
        du, u = heapq.heappop(heap)
        if du != d[u]:
            continue
        for v in switches:
            for p, peer in base["links"][v].items():
                if peer == u:
                    nd = du + weight.get((v, int(p)), 1)
                    if nd < d.get(v, 1 << 30):
                        d[v] = nd
                        heapq.heappush(heap, (nd, v))
    dist[dst] = d
for name in ("osm-w", "smd-w"):
    r = run[name]
    for sw in switches:
        for ca, (home, _hp) in r["homes"].items():
            if home == sw:
                continue
            p = r["routes"][sw][ca]
            peer = r["links"][sw].get(str(p))
            if peer is None or weight.get((sw, p), 1) + dist[home][peer] != dist[home][sw]:
                errors.append(f"{name}: {sw} sends {ca} by port {p}, not on a least-weight path")
    leaf0 = by_port(r, "leaf-0", remote(r, "leaf-0"))
    if leaf0.get(5, 0) != 0:
        errors.append(f"{name}: leaf-0 sends {leaf0.get(5)} remote hosts by the weighted port 5: {leaf0}")
    for leaf in ("leaf-1", "leaf-2", "leaf-3"):
        to0 = by_port(r, leaf, [ca for ca, (home, _p) in r["homes"].items() if home == "leaf-0"])
        if to0 != {6: 4}:
            errors.append(f"{name}: {leaf} sends leaf-0's hosts by {to0}, expected all 4 by port 6")
plain0 = by_port(base, "leaf-0", remote(base, "leaf-0"))
if plain0 != {5: 6, 6: 6}:
    errors.append(f"control: leaf-0 without weights sends its remote hosts by {plain0}, expected 6 and 6")
same_w = len(differing(run["osm-w"], run["smd-w"]))

# 2. Port search order: equal to OpenSM with the order file; the first tie at every leaf goes to port 6.
order = [f"host-{i}" for i in range(15, -1, -1)]
for d in differing(run["osm-s"], run["smd-s"])[:10]:
    errors.append(f"search order: {d[0]} {d[1]}: OpenSM port {run['osm-s']['routes'][d[0]][d[1]]}, "
                  f"smd port {run['smd-s']['routes'][d[0]][d[1]]}")
for name in ("osm-s", "smd-s"):
    r = run[name]
    for leaf in ("leaf-0", "leaf-1", "leaf-2", "leaf-3"):
        first = next(ca for ca in order if r["homes"][ca][0] != leaf)
        if r["routes"][leaf][first] != 6:
            errors.append(f"{name}: {leaf} sends its first remote host {first} by port {r['routes'][leaf][first]}, not 6")
changed_leaves = {sw for sw, _ca in differing(run["smd-s"], run["smd-o"])}
if not {"leaf-0", "leaf-1", "leaf-2", "leaf-3"} <= changed_leaves:
    errors.append(f"control: the search order changed routes only at {sorted(changed_leaves)}")

# 3. Ignored port: never counted, so it takes every remote host of leaf-0; equal to OpenSM with the order.
for name in ("osm-i", "smd-i"):
    r = run[name]
    got = by_port(r, "leaf-0", remote(r, "leaf-0"))
    if got != {5: 12}:
        errors.append(f"{name}: leaf-0 sends its remote hosts by {got}, expected all 12 by the ignored port 5")
for d in differing(run["osm-i"], run["smd-i"])[:10]:
    errors.append(f"ignore: {d[0]} {d[1]}: OpenSM port {run['osm-i']['routes'][d[0]][d[1]]}, "
                  f"smd port {run['smd-i']['routes'][d[0]][d[1]]}")

# 4. Port shifting: equal to OpenSM with the order file, and a change for both.
for d in differing(run["osm-h"], run["smd-h"])[:10]:
    errors.append(f"port shifting: {d[0]} {d[1]}: OpenSM port {run['osm-h']['routes'][d[0]][d[1]]}, "
                  f"smd port {run['smd-h']['routes'][d[0]][d[1]]}")
if not differing(run["osm-h"], run["osm-o"]) or not differing(run["smd-h"], run["smd-o"]):
    errors.append("port shifting changed nothing in OpenSM's or smd's tables")

# 5. Scatter: shortest (one hop up, one down: a leaf sends remote hosts up, a spine straight down), 6/6 at
#    every leaf, a change for both, reproducible in smd.
for name in ("osm-r", "smd-r"):
    r = run[name]
    for sw in switches:
        for ca, (home, hp) in r["homes"].items():
            p = r["routes"][sw][ca]
            want_up = sw.startswith("leaf") and home != sw
            ok = (p == hp) if home == sw else (p in (5, 6) if want_up else r["links"][sw].get(str(p)) == home)
            if not ok:
                errors.append(f"{name}: {sw} sends {ca} by port {p}, not on a shortest path")
        if sw.startswith("leaf"):
            got = by_port(r, sw, remote(r, sw))
            if got != {5: 6, 6: 6}:
                errors.append(f"{name}: {sw} spreads its remote hosts {got}, expected 6 and 6")
if not differing(run["osm-r"], run["osm-plain"]) or not differing(run["smd-r"], run["plain"]):
    errors.append("scatter_ports 7 changed nothing in OpenSM's or smd's tables")
if differing(run["smd-r"], run["smd-r2"]):
    errors.append("smd with scatter_ports 7 twice: the tables differ")
if errors:
    print("\n".join("FAIL: " + e for e in errors))
    sys.exit(1)
entries = sum(len(v) for v in base["routes"].values())
print(f"hop weights: both SMs on least-weight paths for all {entries} (switch, CA) entries, leaf-0 port 5 "
      f"carries 0 of 12 (control {plain0[5]}); smd equals OpenSM on {entries - same_w} of {entries}")
print(f"search order: smd equals OpenSM on all {entries}; first tie at every leaf by port 6; control differs at "
      f"{len(changed_leaves)} switches")
print(f"ignored port: leaf-0 sends all 12 remote hosts by port 5 in both; smd equals OpenSM on all {entries}")
print(f"port shifting: smd equals OpenSM on all {entries}; scatter 7: 6/6 at every leaf in both, smd reproducible; "
      f"{len(differing(run['osm-r'], run['smd-r']))} entries differ from OpenSM's scatter (its own random sequence)")
PY
echo "PASS: balancing_inputs_opensm_test ($((SECONDS - t0)) s)"
