#!/usr/bin/env bash
# The routing order (routing.<engine>.guid_routing_order_file) against OpenSM's guid_routing_order_file,
# judged by infiniband-diags on ibsim. One order file, a scheduler's rank order: the hosts from last to
# first (host-15 ... host-0), port GUIDs as ibsim numbers them (0x100000 + 2i + 1). For each engine
# (minhop, updn) three fresh fabrics, one after the other:
#   osm:   `opensm -o -R ENGINE --guid_routing_order_file ORDER`
#   smd:   `smd --once`, routing.engines [ENGINE], routing.ENGINE.guid_routing_order_file ORDER
#   plain: `smd --once`, routing.engines [ENGINE], no order (the control)
# and every switch's LFT read back by name (read_routes.py: ibnetdiscover, ibroute, smpdump). What must hold:
#   - smd and OpenSM route every CA LID out of the same port on every switch. Why they can agree: the file
#     lists every CA port, so both route the CA LIDs in exactly the file's order (OpenSM: file ports, then
#     end ports by switch load, then the rest; smd: listed ports, then the rest), and on a two-level
#     leaf/spine every up*/down* path is a shortest path, so both engines take, for each LID in turn, the
#     least-used of a leaf's up-ports with the lowest port on ties;
#   - the promise of the order, checked on its own: at every leaf, the first remote hosts of the order
#     (as many as the leaf has up-ports) leave by distinct up-ports;
#   - the control differs from the ordered run somewhere (the order changed the routes; with the first
#     point this also shows OpenSM read the file), and check_fabric.py finds every route of the ordered
#     run delivering.
# Measured here: both engines equal to OpenSM on all 96 (switch, CA) entries; about 10 s on 2 cores.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
NET="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
READ="$(cd "$(dirname "$0")" && pwd)/read_routes.py"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for i in $(seq 15 -1 0); do printf '0x%016x\n' $((0x100000 + 2 * i + 1)); done >"${w}/order"
{ echo "# scheduler rank order: host-15 first"; cat "${w}/order"; } >"${w}/order.file"

# osm_run ENGINE: OpenSM once on a fresh fabric with the order file; its routes in osm-ENGINE.json.
osm_run() {
  ibsim_start "${NET}"
  mkdir -p "${w}/osm-cache-$1"
  sim env OSM_CACHE_DIR="${w}/osm-cache-$1" timeout 120 opensm -o -R "$1" \
    --guid_routing_order_file "${w}/order.file" -f "${w}/osm-$1.log" >"${w}/osm-$1.out" 2>&1 || true
  grep -q "SUBNET UP" "${w}/osm-$1.log" || { tail -n 20 "${w}/osm-$1.log" >&2; fail "OpenSM -R $1 did not bring the subnet up"; }
  sim timeout 240 python3 "${READ}" >"${w}/osm-$1.json"
  ibsim_stop
}

# smd_run NAME ENGINE [policy lines under routing.ENGINE]: smd --once on a fresh fabric; routes in NAME.json.
smd_run() {
  local name=$1 engine=$2
  shift 2
  ibsim_start "${NET}"
  local extra=("routing:" "  engines: [${engine}]")
  (($# > 0)) && extra+=("  ${engine}:" "$@")
  write_policy "${w}/${name}.yaml" "${w}/state-${name}" "${extra[@]}"
  if ! sim timeout 120 "${SMD_BIN}" --once --config "${w}/${name}.yaml" >"${w}/${name}.out" 2>"${w}/${name}.err"; then
    tail -n 30 "${w}/${name}.err" >&2
    fail "smd --once (${name}) did not bring the subnet up"
  fi
  grep -q "SUBNET UP" "${w}/${name}.out" || fail "smd --once (${name}): no SUBNET UP"
  if grep -q "guid_routing_order" "${w}/${name}.err" && grep -q "skipped" "${w}/${name}.err"; then
    grep "skipped" "${w}/${name}.err" >&2
    fail "smd (${name}) skipped GUIDs of the order file"
  fi
  [[ ${name} == plain-* ]] || check_with_diags --expect-switches 6 --expect-cas 16
  sim timeout 240 python3 "${READ}" >"${w}/${name}.json"
  ibsim_stop
}

# compare ENGINE: the three runs' routes, as described above.
compare() {
  python3 - "$1" "${w}/osm-$1.json" "${w}/smd-$1.json" "${w}/plain-$1.json" "${w}/order" <<'PY'
import json, sys
engine, osm_f, smd_f, plain_f, order_f = sys.argv[1:6]
osm, smd, plain = (json.load(open(f)) for f in (osm_f, smd_f, plain_f))
order = [int(l, 16) for l in open(order_f) if l.strip()]
host_of = {0x100000 + 2 * i + 1: f"host-{i}" for i in range(16)}
ranked = [host_of[g] for g in order]
errors = []
# 1. smd and OpenSM: the same port for every (switch, CA).
differ = [(sw, ca, osm["routes"][sw][ca], smd["routes"][sw].get(ca))
          for sw in sorted(osm["routes"]) for ca in sorted(osm["routes"][sw])
          if osm["routes"][sw][ca] != smd["routes"].get(sw, {}).get(ca)]
for d in differ[:10]:
    errors.append("switch %s CA %s: OpenSM port %s, smd port %s" % d)
# 2. The promise of the order, for both SMs: at each leaf the first remote hosts of the order leave by
#    distinct up-ports.
for name, run in (("OpenSM", osm), ("smd", smd)):
    for sw, ups in run["to_switches"].items():
        if not sw.startswith("leaf-"):
            continue
        remote = [ca for ca in ranked if run["routes"][sw][ca] in ups]
        first = [run["routes"][sw][ca] for ca in remote[:len(ups)]]
        if sorted(first) != sorted(ups):
            errors.append(f"{name}: at {sw} the first {len(ups)} remote hosts of the order {remote[:len(ups)]} "
                          f"leave by ports {first}, not by each up-port {ups}")
# 3. The control: without the order smd routes some CA differently.
changed = sum(1 for sw in smd["routes"] for ca in smd["routes"][sw] if smd["routes"][sw][ca] != plain["routes"][sw][ca])
if changed == 0:
    errors.append("smd routes every CA the same with and without the order: the order changed nothing")
entries = sum(len(v) for v in osm["routes"].values())
if errors:
    print("\n".join(f"FAIL: {engine}: {e}" for e in errors))
    sys.exit(1)
print(f"{engine}: {entries} (switch, CA) entries equal to OpenSM's; {changed} differ from smd without the order; "
      "first-ranked remote hosts on distinct up-ports at every leaf")
PY
}

t0=${SECONDS}
for engine in minhop updn; do
  osm_run "${engine}"
  smd_run "smd-${engine}" "${engine}" "    guid_routing_order_file: ${w}/order.file"
  smd_run "plain-${engine}" "${engine}"
  compare "${engine}"
done
echo "PASS: routing_order_test ($((SECONDS - t0)) s)"
