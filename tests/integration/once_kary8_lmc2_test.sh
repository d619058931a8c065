#!/usr/bin/env bash
# Issue 4's target fabric: the 8-ary 3-tree (512 hosts, 192 switches) with LMC 2 and adaptive groups.
# infiniband-diags read-back must show every LID of every CA delivered from every switch, each CA pair's
# four LIDs on four distinct paths wherever four shortest paths exist, and an acyclic channel dependency
# graph; the AR plan must give a leaf every up port for a remote destination.
. "$(dirname "$0")/once_common.sh"
NET="${IBSIM_WORKDIR}/kary8-3.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" kary --k 8 --n 3 -o "${NET}"
once_bringup "${NET}" 192 512 "routing:" "  adaptive: true" "lid:" "  lmc: 2"
grep -q "routing:  engine ftree" "${ONCE_OUT}"
python3 - "${ONCE_STATE}/ar-plan.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
assert len(plan["switches"]) == 192, len(plan["switches"])
# On an 8-ary tree a leaf has host ports 1..8 and up ports 9..16: a remote destination's group holds all 8.
assert list(range(9, 17)) in plan["groups"], sorted(map(len, plan["groups"]))
print("ar-plan:", len(plan["groups"]), "distinct groups")
PY
check_with_diags --lmc 2 --expect-switches 192 --expect-cas 512 --path-diversity --deadlock-free
