#!/usr/bin/env bash
# The tester's defects of `smctl drain`, `undrain`, `what-if drain` and state_dir/drained (issue 46 item 3),
# on the leaf/spine fabric (4 leaves, 2 spines, 16 hosts) under routing.engines [ftree]:
#   1. a whole spine drained is an island to routing: the local repair declines and so does ftree. Refused
#      (exit 1, the command, the part and ftree's failure named, nothing recorded); --force records it and
#      the sweeps route with minhop (said in the log), around the spine (check_fabric.py --drained --avoid);
#   2. undrain of the spine twice plus its GUID in one request, of one cable by both ends, and again: exit 0,
#      each part undrained once, the rest "not drained";
#   3. errors name `smctl drain` and `smctl what-if drain`, never the offline CLI's --drain;
#   4. what-if drain exits 5 when host pairs would lose every path (a host's cable: 2 x 15 pairs, counted
#      from the netfile), 0 when safe (a leaf up-cable, routed around by the local repair), and the JSON
#      says safe false / true;
#   5. a drained file with an unknown GUID, a port the switch does not have and junk lines: smd starts, warns
#      each by file:line (the unknown GUIDs in one warning with their count), keeps the good line (status
#      lists it, its cable is out of routing);
#   6. what-if drain resolves names on the whole fabric: with the cable leaf-0[5] drained, its other end
#      'spine-0[1]' (no cable on the drained fabric) is still named, and takes nothing more out; an unknown
#      name exits 2, as `smd plan --drain` does for it. (A switch named with its own cable is said in the
#      report both share: cli.plan_drain, since under [ftree] no switch drain routes here.)
. "$(dirname "$0")/health_common.sh"
NET="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
fail() { echo "FAIL: $*" >&2; exit 1; }
W=${IBSIM_WORKDIR}
S=${W}/state
ibsim_start "${NET}"
write_policy "${W}/smd.yaml" "${S}" "  sweep_interval: 5" "routing:" "  engines: [ftree]"
start_daemon smd "${W}/smd.yaml"
wait_log smd "SUBNET UP" 60
grep -q "routing: engine ftree routed" "${W}/smd.log" || fail "ftree did not route the fabric"
sweeps() { grep -c "SUBNET UP" "${W}/smd.log" || true; }
# run_smctl NAME ARGS...: smctl ARGS with its exit code in rc, stdout in NAME.out, stderr in NAME.err.
run_smctl() {
  local name=$1
  shift
  smctl "$@" >"${W}/${name}.out" 2>"${W}/${name}.err" && rc=0 || rc=$?
}
said() { cat "${W}/$1.out" "${W}/$1.err"; }
N=$(grep -c '^Hca' "${NET}")
mapfile -t spine_ports < <(awk '$1=="Switch"{on=($3=="\"spine-0\""); next} on && /"leaf-/{gsub(/[][]/," ",$1); print $1+0}' "${NET}")
[[ ${N} == 16 && ${#spine_ports[@]} == 4 ]] || fail "netfile parse: ${N} hosts, spine-0 ports ${spine_ports[*]}"

# 3. The operator's command is named.
run_smctl typo drain nosuch
[[ ${rc} == 1 ]] && grep -qx "smctl: smd: smctl drain 'nosuch': no node is named 'nosuch'" "${W}/typo.err" ||
  fail "drain of an unknown name: exit ${rc}: $(said typo)"
run_smctl typo_whatif what-if drain nosuch
[[ ${rc} == 2 ]] && grep -qx "smctl: smd: smctl what-if drain 'nosuch': no node is named 'nosuch'" "${W}/typo_whatif.err" ||
  fail "what-if of an unknown name: exit ${rc}: $(said typo_whatif)"

# 4. What-if: a leaf up-cable is safe (the local repair routes around it: exit 0, safe true); a host's
# cable loses its 2 x (N-1) pairs (exit 5, safe false).
run_smctl safe --json what-if drain 'leaf-0[5]'
[[ ${rc} == 0 ]] || fail "what-if of a leaf up-cable: exit ${rc}: $(said safe)"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; assert r["safe"] is True and r["lost_pairs"] == 0, r' \
  "${W}/safe.out" || fail "what-if of a leaf up-cable: $(head -c 400 "${W}/safe.out")"
run_smctl lossy what-if drain 'host-3[1]'
[[ ${rc} == 5 ]] || fail "what-if of a host cable: exit ${rc}, want 5: $(said lossy)"
grep -q "^lost pairs    $((2 * (N - 1))) (would lose every path)$" "${W}/lossy.out" || fail "what-if text: $(said lossy)"
run_smctl lossy_json --json what-if drain 'host-3[1]'
[[ ${rc} == 5 ]] || fail "what-if --json of a host cable: exit ${rc}, want 5"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; assert r["safe"] is False and r["lost_pairs"] == int(sys.argv[2]), r' \
  "${W}/lossy_json.out" "$((2 * (N - 1)))" || fail "what-if --json of a host cable: $(head -c 400 "${W}/lossy_json.out")"
echo "what-if: leaf up-cable safe (exit 0), host cable loses $((2 * (N - 1))) pairs (exit 5)"

# 1. A spine that no engine of the chain routes around: refused, nothing recorded.
run_smctl refused drain spine-0
[[ ${rc} == 1 ]] || fail "spine drain under [ftree]: exit ${rc}: $(said refused)"
grep -q "^smctl: smd: smctl drain spine-0: no engine of the chain routes the fabric with it drained (.*ftree: .*): nothing drained; --force drains anyway (the SM then routes with minhop, as OpenSM falls back to its default engine)$" \
  "${W}/refused.err" || fail "refusal said: $(said refused)"
[[ ! -s ${S}/drained ]] || fail "a refused drain was recorded: $(cat "${S}/drained")"
! grep -q -- "--drain" "${W}"/*.err || fail "an error names --drain: $(grep -- --drain "${W}"/*.err)"
# Forced: recorded as forced, and the next sweep routes with minhop instead of failing.
n=$(sweeps)
run_smctl forced drain --force spine-0
[[ ${rc} == 0 ]] || fail "forced spine drain: exit ${rc}: $(said forced)"
grep -q "^drained switch 0x[0-9a-f]* (spine-0)$" "${W}/forced.out" &&
  grep -q "^forced: no engine of the chain routes it (.*); the SM routes with minhop until it is undrained$" "${W}/forced.out" ||
  fail "forced drain said: $(said forced)"
wait_log smd "SUBNET UP" 60 $((n + 1))
grep -q "routing: no engine of the chain routes the fabric with its drains (.*); routed with minhop" "${W}/smd.log" ||
  fail "the sweep did not say it fell back to minhop"
avoid=(--drained spine-0)
for p in "${spine_ports[@]}"; do avoid+=(--avoid "spine-0:${p}"); done
check_with_diags --expect-switches 6 --expect-cas 16 "${avoid[@]}"
smctl --json status | python3 -c 'import json,sys; d=json.load(sys.stdin)["result"]["drained"]
assert len(d) == 1 and d[0]["forced"] and "spine-0" in d[0]["what"], d' || fail "status: the forced drain"

# 2. Undrain: the spine twice and by GUID in one request; ftree routes again.
n=$(sweeps)
run_smctl undrain_twice undrain spine-0 spine-0 0x0000000000200004
[[ ${rc} == 0 ]] || fail "undrain of one spine named thrice: exit ${rc}: $(said undrain_twice)"
[[ $(grep -c "^undrained switch 0x[0-9a-f]* (spine-0)$" "${W}/undrain_twice.out") == 1 ]] ||
  fail "undrain of one spine named thrice said: $(said undrain_twice)"
wait_log smd "SUBNET UP" 60 $((n + 1))
check_with_diags --expect-switches 6 --expect-cas 16 --use "spine-0:${spine_ports[0]}"
# One cable, drained and undrained by both of its ends in one request, then again.
run_smctl cable drain --force 'leaf-0[5]'
[[ ${rc} == 0 ]] || fail "cable drain: exit ${rc}: $(said cable)"
# The what-if reads the last programming sweep's fabric: wait for the sweep that takes the cable out.
wait_log smd "SUBNET UP" 60 $((n + 2))
# 6. What-if on the drained fabric: the drained cable's other end still resolves (names are read on the whole
# fabric, where it is a cable) and takes nothing more out.
run_smctl drained_cable what-if drain 'spine-0[1]'
[[ ${rc} == 0 ]] && grep -q "^cables        0 taken out of routing" "${W}/drained_cable.out" ||
  fail "what-if of a drained cable: exit ${rc}: $(said drained_cable)"
echo "what-if: a drained cable resolves"
run_smctl both_ends undrain 'leaf-0[5]' 'spine-0[1]'
[[ ${rc} == 0 ]] && [[ $(grep -c "^undrained cable 0x[0-9a-f]* (leaf-0) port 5$" "${W}/both_ends.out") == 1 ]] ||
  fail "undrain by both ends: exit ${rc}: $(said both_ends)"
run_smctl again undrain 'spine-0[1]'
[[ ${rc} == 0 ]] && grep -q "^not drained cable 0x[0-9a-f]* (spine-0) port 1$" "${W}/again.out" ||
  fail "undrain again: exit ${rc}: $(said again)"
echo "undrain: one part named several ways is undrained once; again, 'not drained', exit 0"

# 5. A drained file edited by hand: the daemon starts, warns each bad line by file:line, keeps the good one
# (spine-1 port 3, the cable to leaf-2).
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}" || true
mv "${W}/smd.log" "${W}/smd.first.log"
# Lines 7-11 are junk too: the first five bad lines (5-9) are named, the last two counted in one line.
printf '# by hand\n0x0000000000200005 3 checked\n0x0000000000abcdef 0 checked\n0x0000000000200000 9 checked\ngarbage\n\x7f\x01\xfe\nj7\nj8\nj9\nj10\nj11\n' \
  >"${S}/drained"
start_daemon smd "${W}/smd.yaml"
wait_log smd "SUBNET UP" 60
for want in "drains: ${S}/drained:5: expected '0xGUID PORT checked|forced' (line skipped)" \
  "drains: ${S}/drained: 1 drain(s) name a GUID no node of the fabric has (${S}/drained:3 0x0000000000abcdef port 0); kept, each drains nothing until its node is back" \
  "drains: ${S}/drained:4: 0x0000000000200000 (leaf-0) has no port 9 (ports 1..6); it drains nothing (smctl undrain 0x0000000000200000/9 removes it)"; do
  grep -qF -- "${want}" "${W}/smd.log" || fail "no warning: ${want}"
done
grep -qF "drains: ${S}/drained:6: " "${W}/smd.log" || fail "the junk line 6 is not named"
grep -qF "drains: ${S}/drained: 2 more line(s) skipped (the first 5 named above)" "${W}/smd.log" ||
  fail "junk lines 10-11 are not counted in one line"
! grep -qF "drains: ${S}/drained:10: " "${W}/smd.log" || fail "junk line 10 is named: the log is not capped"
smctl --json status | python3 -c 'import json,sys; s=json.load(sys.stdin)["result"]
assert len(s["drained"]) == 3 and s["drained_cables"] == 1, (s["drained"], s["drained_cables"])' ||
  fail "status after the hand-edited file"
check_with_diags --expect-switches 6 --expect-cas 16 --avoid "spine-1:3"
echo "drained file: 3 bad lines warned by line, the good one holds"

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${W}/smd.log"
echo "PASS: daemon_drain_refusals"
