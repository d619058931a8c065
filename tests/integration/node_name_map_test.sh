#!/usr/bin/env bash
# The node-name map (sm.node_name_map) on the leaf-spine fabric. GUIDs and NodeDescriptions come from
# ibnetdiscover, not from smd; the map names host-5 (quoted, with blanks) and its leaf (unquoted).
#   1. smctl nodes and smctl route show the mapped names, a route accepts the mapped name as NODE, and the
#      per-port metrics carry them as node_desc and peer labels;
#   2. the SA's NodeRecord (saquery NR LID) still answers the node's own NodeDescription (IBA 15.2.5.2);
#   3. the map changed and SIGHUP: the new names show, the leaf no longer mapped is back to its description;
#   4. the map deleted and SIGHUP: the reload is refused naming the map, the names in use stay.
. "$(dirname "$0")/health_common.sh"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
W=${IBSIM_WORKDIR}
fail() { echo "FAIL: $*" >&2; exit 1; }

# The witness: ibnetdiscover's node lines ('Ca 1 "H-<guid>"  # "host-5"'), before any SM ran.
sim timeout 60 ibnetdiscover >"${W}/net0.txt" 2>&1 || { cat "${W}/net0.txt" >&2; fail "ibnetdiscover"; }
guid_of() { # guid_of DESCRIPTION: 0x + the node GUID ibnetdiscover prints for it
  awk -v d="\"$1\"" '($1 == "Ca" || $1 == "Switch") && $4 == "#" && $5 == d { g = $3; gsub(/"|[SH]-/, "", g); print "0x" g }' "$2"
}
HOST=$(guid_of host-5 "${W}/net0.txt")
LEAF=$(guid_of leaf-1 "${W}/net0.txt")
[[ ${HOST} =~ ^0x[0-9a-f]{16}$ && ${LEAF} =~ ^0x[0-9a-f]{16}$ ]] || fail "no GUIDs for host-5/leaf-1: '${HOST}' '${LEAF}'"
echo "ibnetdiscover: host-5 ${HOST}, leaf-1 ${LEAF}"

write_map() { # the whole file in one rename, as an operator's editor would not, but a config tool does
  printf '%s\n' "$@" >"${W}/names.map.new"
  mv -f "${W}/names.map.new" "${W}/names.map"
}
write_map "# site names" "${HOST} \"gpu node 5b\"   # rack 1" "" "${LEAF} rack1-leaf"
# A relative path: the map sits beside the policy file.
write_policy "${W}/smd.yaml" "${W}/state" "  sweep_interval: 0" "  node_name_map: names.map" \
  "perfmgr:" "  enabled: true" "  interval: 1"
start_daemon smd "${W}/smd.yaml"
wait_log smd "SUBNET UP" 60
grep -q "node_name_map=${W}/names.map(2 names)" "${W}/smd.log" || fail "the policy line does not name the map"

# 1. smctl's text: the node line ends in its name; host-4's port shows its leaf by the mapped name.
smctl nodes >"${W}/nodes.txt"
grep -E "^ca +${HOST} .* gpu node 5b$" "${W}/nodes.txt" || { cat "${W}/nodes.txt" >&2; fail "smctl nodes: host-5 not named"; }
grep -E "^switch +${LEAF} .* rack1-leaf$" "${W}/nodes.txt" || fail "smctl nodes: leaf-1 not named"
grep -E -- "-> rack1-leaf port 1 \(${LEAF}\)$" "${W}/nodes.txt" || fail "smctl nodes: host-4's peer not named"
if grep -E "host-5$" "${W}/nodes.txt"; then fail "smctl nodes still shows host-5 by its description"; fi
smctl route "gpu node 5b" host-0 >"${W}/route.txt" || { cat "${W}/route.txt" >&2; fail "smctl route by mapped name"; }
cat "${W}/route.txt"
grep -E "^gpu node 5b \(LID [0-9]+\) -> host-0 \(LID [0-9]+\): 3 switch hops$" "${W}/route.txt" || fail "route header"
grep -E "^  rack1-leaf +[0-9]+ +[0-9]+ +spine-[0-9]+ port [0-9]+$" "${W}/route.txt" || fail "route: first hop not named"
# The NodeDescription still finds the node.
smctl route host-5 host-4 | grep -E "^gpu node 5b \(LID [0-9]+\) -> host-4 .*: 1 switch hop$" || fail "route by description"

# The per-port metrics once a counter pass named the ports.
deadline=$((SECONDS + 20))
until scrape_metrics "${W}/metrics.txt" &&
  grep -q -E "^smd_port_xmit_bytes_per_second\{node_guid=\"${HOST}\",node_desc=\"gpu node 5b\",port=\"1\",peer=\"rack1-leaf port 2\"\}" \
    "${W}/metrics.txt"; do
  ((SECONDS < deadline)) || { grep -E "^smd_port_xmit_bytes_per_second" "${W}/metrics.txt" | head >&2; fail "metrics: host-5 not named"; }
  sleep 0.5
done
grep -E "^smd_port_xmit_bytes_per_second\{node_guid=\"${LEAF}\",node_desc=\"rack1-leaf\",port=\"2\",peer=\"gpu node 5b port 1\"\}" \
  "${W}/metrics.txt" || fail "metrics: leaf-1 port 2 not named"

# 2. The SA answers the node's own NodeDescription; its LID from ibnetdiscover after the SM ran.
sim timeout 60 ibnetdiscover >"${W}/net1.txt" 2>&1 || fail "ibnetdiscover after bring-up"
LID=$(awk -v g="\"H-${HOST#0x}\"" '$1 == "Ca" && $3 == g { ca = 1; next } ca && /^\[1\]/ { for (i = 1; i < NF; i++) if ($i == "lid") { print $(i + 1); exit } }' "${W}/net1.txt")
[[ ${LID} =~ ^[0-9]+$ ]] || fail "no LID for host-5 in ibnetdiscover: '${LID}'"
sim timeout 10 saquery NR "${LID}" >"${W}/nr.txt" 2>&1 || { cat "${W}/nr.txt" >&2; fail "saquery NR ${LID}"; }
grep -E "NodeDescription\.+host-5$" "${W}/nr.txt" || { cat "${W}/nr.txt" >&2; fail "NodeRecord does not carry host-5"; }
echo "saquery NR ${LID}: $(grep NodeDescription "${W}/nr.txt")"

# 3. A new map: host-5 renamed, leaf-1 no longer mapped. SIGHUP reads it again.
write_map "${HOST} \"gpu node 5c\""
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "node_name_map=${W}/names.map\(1 names\)" 30
wait_json 30 "any(n['guid'] == '${HOST}' and n['name'] == 'gpu node 5c' and n['description'] == 'host-5' for n in r['result'])" nodes
smctl nodes >"${W}/nodes2.txt"
grep -E "^ca +${HOST} .* gpu node 5c$" "${W}/nodes2.txt" || fail "after SIGHUP: host-5 not renamed"
grep -E "^switch +${LEAF} .* leaf-1$" "${W}/nodes2.txt" || fail "after SIGHUP: leaf-1 not back to its description"
smctl route "gpu node 5c" host-0 | grep -E "^  leaf-1 " || fail "after SIGHUP: route does not show leaf-1"
deadline=$((SECONDS + 20))
until scrape_metrics "${W}/metrics2.txt" &&
  grep -q -E "^smd_port_xmit_bytes_per_second\{node_guid=\"${LEAF}\",node_desc=\"leaf-1\",port=\"2\",peer=\"gpu node 5c port 1\"\}" \
    "${W}/metrics2.txt"; do
  ((SECONDS < deadline)) || fail "metrics after SIGHUP: leaf-1 port 2 not renamed"
  sleep 0.5
done

# 4. The map gone: the reload is refused (the policy names a missing file), the names in use stay.
rm -f "${W}/names.map"
kill -HUP "${DAEMON_PID_smd}"
wait_log smd "reload refused, running policy kept: .*sm.node_name_map: cannot open node name map ${W}/names.map" 10
smctl --json status >"${W}/status.json"
python3 - "${W}/status.json" "${W}/names.map" <<'PY' || fail "status does not show the refusal"
import json, sys
err = json.load(open(sys.argv[1]))["result"]["policy"]["reload_refused"]["error"]
assert "sm.node_name_map: cannot open node name map " + sys.argv[2] in err, err
PY
smctl nodes | grep -E "^ca +${HOST} .* gpu node 5c$" || fail "a refused reload changed the names"
echo "PASS: mapped names in smctl nodes/route and the metrics, NodeRecord unchanged, SIGHUP re-reads the map"
