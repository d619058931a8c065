#!/usr/bin/env bash
# smd --once on generated rail-optimized fabrics (issue 42 item 3): hosts of 4 HCAs named "host-H mlx5_I",
# HCA I of every host of a scalable unit on that unit's rail-I leaf.
#   1. 2 units x 4 hosts x 4 rails, 4 spines (every leaf on every spine): ftree routes it; infiniband-diags
#      read back every LID and every route, and shifts in smd's CA order load no cable twice.
#   2. the same fabric routed by updn alone: every route read back, shortest and deadlock-free.
#   3. 2 units x 4 hosts x 4 rails, one plane of 2 spines per rail, 2 cores: rails meet only at the cores;
#      ftree (the default chain's first) routes it, the cores its roots; every route read back, shortest and
#      deadlock-free.
# Each time the RoCE plan smd leaves in state_dir puts every HCA in the host prefix of its rail's leaf.
. "$(dirname "$0")/once_common.sh"
FABRIC_TOOL="${SMD_BUILD_DIR}/smd/smd-fabric"

# check_rails: every host entry "host-H mlx5_I" of roce-plan.json sits behind leaf "leaf-suU-rI" with
# U = H div 4, and the leaf's gateway is in that host's prefix (the plan is per rail leaf, as cabled).
check_rails() {
  python3 - "${ONCE_STATE}/roce-plan.json" <<'PY'
import ipaddress, json, sys
plan = json.load(open(sys.argv[1]))
leaves = {s["frr_dir"]: s for s in plan["switches"]}
for h in plan["hosts"]:
    host, dev = h["name"].rsplit(" ", 1)
    rail = int(dev.removeprefix("mlx5_"))
    unit = int(host.removeprefix("host-")) // 4
    want = f"leaf-su{unit}-r{rail}"
    assert h["leaf"] == want, f"{h['name']} behind {h['leaf']}, cabled to {want}"
    net = ipaddress.ip_network(leaves[want]["host_prefix"])
    assert ipaddress.ip_address(h["ip"]) in net and ipaddress.ip_address(h["gateway"]) in net, h
print(f"roce plan: {len(plan['hosts'])} HCAs, each in its rail leaf's prefix")
PY
}

NET="${IBSIM_WORKDIR}/rail.net"
FABRIC=(rail --sus 2 --hosts-per-su 4 --rails 4 --spines 4)
"${FABRIC_TOOL}" "${FABRIC[@]}" -o "${NET}"
once_bringup "${NET}" 12 32
grep -q "routing:  engine ftree" "${ONCE_OUT}"
check_with_diags --expect-switches 12 --expect-cas 32 --ca-order "${ONCE_STATE}/ca-order" --max-shift-load 1
check_roce_state 12 32
check_rails
ibsim_stop

once_bringup "${NET}" 12 32 "routing:" "  engines: [updn]"
grep -q "routing:  engine updn" "${ONCE_OUT}"
check_with_diags --expect-switches 12 --expect-cas 32 --min-hop --deadlock-free
ibsim_stop

NET="${IBSIM_WORKDIR}/rail-core.net"
"${FABRIC_TOOL}" rail --sus 2 --hosts-per-su 4 --rails 4 --spines 8 --cores 2 -o "${NET}"
once_bringup "${NET}" 18 32
grep -q "routing:  engine ftree" "${ONCE_OUT}"
check_with_diags --expect-switches 18 --expect-cas 32 --min-hop --deadlock-free
check_roce_state 18 32
check_rails
