#!/usr/bin/env bash
# routing.adaptive with LMC 2 on the 4-ary 3-tree: every one of each CA port's 4 LIDs is delivered from
# every switch (ibroute read-back), and smd writes its adaptive-routing plan into state_dir.
. "$(dirname "$0")/once_common.sh"
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64 "routing:" "  adaptive: true" "lid:" "  lmc: 2"
grep -q "routing:  engine ftree" "${ONCE_OUT}"
python3 - "${ONCE_STATE}/ar-plan.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
assert plan["engine"] == "ftree", plan["engine"]
assert len(plan["switches"]) == 48, len(plan["switches"])
# A leaf's group for a host on another leaf holds all 4 of its up ports (5..8 on a 4-ary tree's leaves);
# for a host on the leaf itself it is the one host port.
sizes = {len(g) for g in plan["groups"]}
assert 4 in sizes and 1 in sizes, sizes
assert [5, 6, 7, 8] in plan["groups"], plan["groups"]
print("ar-plan:", len(plan["groups"]), "distinct groups")
PY
check_with_diags --lmc 2 --expect-switches 48 --expect-cas 64
