#!/usr/bin/env bash
# The routing order (routing.<engine>.guid_routing_order_file) against OpenSM's guid_routing_order_file,
# judged by infiniband-diags on ibsim. Two fabrics: leafspine (16 hosts, 4 leaves, 2 spines) and the
# 4-ary 3-tree (64 hosts, 48 switches). One order file each, a scheduler's rank order: the hosts from last
# to first (host-N ... host-0), port GUIDs as ibsim numbers them (0x100000 + 2i + 1). For each engine
# (minhop, updn) three fresh fabrics, one after the other:
#   osm:   `opensm -o -R ENGINE --guid_routing_order_file ORDER`
#   smd:   `smd --once`, routing.engines [ENGINE], routing.ENGINE.guid_routing_order_file ORDER
#   plain: `smd --once`, routing.engines [ENGINE], no order (the control)
# and every switch's LFT read back by name (read_routes.py: ibnetdiscover, ibroute, smpdump). What must hold:
#   - minhop on both fabrics, updn on leafspine: smd and OpenSM route every CA LID out of the same port on
#     every switch. Why they can agree: the file lists every CA port, so both route the CA LIDs in exactly
#     the file's order (OpenSM: file ports, then end ports by switch load, then the rest; smd: listed
#     ports, then the rest), and both minhops take, for each LID in turn, the least-used equal-cost port,
#     the lowest on ties; on a two-level leaf/spine every up*/down* path is a shortest one, so OpenSM's
#     updn (minhop on up*/down* hop counts) and smd's do the same. On the 3-tree they part: smd's updn
#     counts only the flows that reach a switch (d-mod-k like), OpenSM's every LID, so the second level
#     breaks ties differently; there only the promise below is compared;
#   - the promise of the order, checked on its own for both SMs: at every leaf (a switch with hosts), the
#     first remote hosts of the order (as many as the leaf has up-ports) leave by distinct up-ports;
#   - the control differs from the ordered run somewhere (the order changed the routes; with the first
#     point this also shows OpenSM read the file), and check_fabric.py finds every route of the ordered
#     run delivering.
# Measured here: leafspine, both engines equal to OpenSM on all 96 (switch, CA) entries; 3-tree, minhop
# equal on all 3072, updn differs from OpenSM on some but keeps the promise; about 40 s on 2 cores.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
NET="" HOSTS=0 SWITCHES=0
READ="$(cd "$(dirname "$0")" && pwd)/read_routes.py"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# write_order: the order file for HOSTS hosts, last host first.
write_order() {
  for i in $(seq $((HOSTS - 1)) -1 0); do printf '0x%016x\n' $((0x100000 + 2 * i + 1)); done >"${w}/order"
  { echo "# scheduler rank order: host-$((HOSTS - 1)) first"; cat "${w}/order"; } >"${w}/order.file"
}

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
  [[ ${name} == plain-* ]] || check_with_diags --expect-switches "${SWITCHES}" --expect-cas "${HOSTS}"
  sim timeout 240 python3 "${READ}" >"${w}/${name}.json"
  ibsim_stop
}

# compare ENGINE equal|promise: the three runs' routes, as described above.
compare() {
  python3 - "$1" "${w}/osm-$1.json" "${w}/smd-$1.json" "${w}/plain-$1.json" "${w}/order" "$2" "${HOSTS}" <<'PY'
import json, sys
engine, osm_f, smd_f, plain_f, order_f, mode, hosts = sys.argv[1:8]
osm, smd, plain = (json.load(open(f)) for f in (osm_f, smd_f, plain_f))
order = [int(l, 16) for l in open(order_f) if l.strip()]
host_of = {0x100000 + 2 * i + 1: f"host-{i}" for i in range(int(hosts))}
ranked = [host_of[g] for g in order]
errors = []
# 1. smd and OpenSM: the same port for every (switch, CA).
differ = [(sw, ca, osm["routes"][sw][ca], smd["routes"][sw].get(ca))
          for sw in sorted(osm["routes"]) for ca in sorted(osm["routes"][sw])
          if osm["routes"][sw][ca] != smd["routes"].get(sw, {}).get(ca)]
if mode == "equal":
    for d in differ[:10]:
        errors.append("switch %s CA %s: OpenSM port %s, smd port %s" % d)
# 2. The promise of the order, for both SMs: at each leaf the first remote hosts of the order leave by
#    distinct up-ports.
for name, run in (("OpenSM", osm), ("smd", smd)):
    for sw, ups in run["to_switches"].items():
        if all(port in ups for port in run["routes"][sw].values()):
            continue  # no host here: not a leaf
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
same = f"equal to OpenSM's" if mode == "equal" else f"{entries - len(differ)} equal to OpenSM's"
print(f"{engine}: {entries} (switch, CA) entries, {same}; {changed} differ from smd without the order; "
      "first-ranked remote hosts on distinct up-ports at every leaf, in both SMs")
PY
}

# fabric NETFILE HOSTS SWITCHES MODE_MINHOP MODE_UPDN: both engines on one fabric.
fabric() {
  NET="${SMD_SOURCE_DIR}/tests/fabrics/$1" HOSTS=$2 SWITCHES=$3
  write_order
  echo "== $1"
  local engine mode
  for engine in minhop updn; do
    [[ ${engine} == minhop ]] && mode=$4 || mode=$5
    osm_run "${engine}"
    smd_run "smd-${engine}" "${engine}" "    guid_routing_order_file: ${w}/order.file"
    smd_run "plain-${engine}" "${engine}"
    compare "${engine}" "${mode}"
  done
}

t0=${SECONDS}
fabric leafspine.net 16 6 equal equal
fabric kary4-3.net 64 48 equal promise
echo "PASS: routing_order_test ($((SECONDS - t0)) s)"
