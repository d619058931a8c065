#!/usr/bin/env bash
# Multicast groups in the SA (IBA 15.2.5.17): the default partition's IPoIB broadcast group
# ff12:401b:ffff::ffff:ffff is there before anyone joins (saquery -g, MLID 0xC000); sa_client at host-1
# (libibumad only) joins itself and, as proxy, host-2 and host-3 (PortGID = that host's GID, as the
# join-storm client does for every host); saquery -m with the SM_Key lists the three members (untrusted,
# OpenSM shows one record per group without PortGID); they leave and the group
# stays (pre-created groups survive with no members). A group created by a join (sa_client --create) gets
# the next MLID and is gone after its last full member leaves (a non-IPoIB MGID: OpenSM checks an IPoIB
# group against its broadcast group). smd only: the groups file in the state
# directory holds the groups. twoswitch: 4 hosts, so every GetTable answer fits one MAD (ibsim, no RMPP).
. "$(dirname "$0")/sa_common.sh"
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net" sm host-0 10
bcast="ff12:401b:ffff::ffff:ffff"
created="ff15:1234::42"
# Port GUIDs by ibsim's numbering (CAs from 0x100000 in netfile order, port GUID = node GUID + 1).
hosts=(100003 100005 100007)
host_gids=("fe80::10:3" "fe80::10:5" "fe80::10:7")

client() {  # client ARGS...: sa_client at host-1, JSON lines on stdout
  (cd "${IBSIM_WORKDIR}" && env LD_PRELOAD="${SIM_PRELOAD}" SIM_HOST=host-1 timeout 30 "${SA_CLIENT}" "$@")
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# group_listed FILE MGID: saquery -g output FILE lists MGID
group_listed() { grep -qE "MGID\.+$2\$" "$1"; }

saq -g >"${IBSIM_WORKDIR}/groups0.txt" 2>&1 || { cat "${IBSIM_WORKDIR}/groups0.txt" >&2; fail "saquery -g"; }
group_listed "${IBSIM_WORKDIR}/groups0.txt" "${bcast}" ||
  { cat "${IBSIM_WORKDIR}/groups0.txt" >&2; fail "saquery -g does not list the IPoIB broadcast group ${bcast}"; }
grep -qiE "Mlid\.+0xc000$" "${IBSIM_WORKDIR}/groups0.txt" ||
  { cat "${IBSIM_WORKDIR}/groups0.txt" >&2; fail "the broadcast group is not at MLID 0xC000"; }
echo "saquery -g: ${bcast} at MLID 0xC000 before any join"

ports=()
for h in "${hosts[@]}"; do ports+=(--port "${h}"); done
client join --mgid "${bcast}" "${ports[@]}" --join-state 1 >"${IBSIM_WORKDIR}/join.jsonl" 2>"${IBSIM_WORKDIR}/join.err" ||
  { cat "${IBSIM_WORKDIR}/join.jsonl" "${IBSIM_WORKDIR}/join.err" >&2; fail "sa_client join (status other than 0)"; }
python3 - "${IBSIM_WORKDIR}/join.jsonl" <<'PY' || fail "join answers"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"op"' in l]
assert len(rows) == 3, rows
for r in rows:
    rec = r["record"]
    assert r["method"] == "0x81", r
    assert rec["mlid"] == "0xc000" and rec["join_state"] == 1 and rec["qkey"] == "0xb1b", r
PY
echo "sa_client join: host-1 and, as proxy, host-2 and host-3 joined ${bcast}"

saq --smkey "${SA_TEST_SMKEY}" -m >"${IBSIM_WORKDIR}/members.txt" 2>&1 || { cat "${IBSIM_WORKDIR}/members.txt" >&2; fail "saquery -m"; }
for g in "${host_gids[@]}"; do
  grep -qE "PortGid\.+${g}\$" "${IBSIM_WORKDIR}/members.txt" ||
    { cat "${IBSIM_WORKDIR}/members.txt" >&2; fail "saquery -m does not list member ${g}"; }
done
echo "saquery -m: ${host_gids[*]} are members"

client leave --mgid "${bcast}" "${ports[@]}" --join-state 1 >"${IBSIM_WORKDIR}/leave.jsonl" 2>&1 ||
  { cat "${IBSIM_WORKDIR}/leave.jsonl" >&2; fail "sa_client leave"; }
saq --smkey "${SA_TEST_SMKEY}" -m >"${IBSIM_WORKDIR}/members2.txt" 2>&1
for g in "${host_gids[@]}"; do
  if grep -qE "PortGid\.+${g}\$" "${IBSIM_WORKDIR}/members2.txt"; then
    cat "${IBSIM_WORKDIR}/members2.txt" >&2
    fail "${g} still a member after leaving"
  fi
done
saq -g >"${IBSIM_WORKDIR}/groups1.txt" 2>&1
group_listed "${IBSIM_WORKDIR}/groups1.txt" "${bcast}" || fail "the broadcast group went away with its last member"
echo "left: no members, ${bcast} stays"

client join --create --mgid "${created}" --qkey 0x42 --join-state 1 >"${IBSIM_WORKDIR}/create.jsonl" 2>&1 ||
  { cat "${IBSIM_WORKDIR}/create.jsonl" >&2; fail "sa_client join --create"; }
saq -g >"${IBSIM_WORKDIR}/groups2.txt" 2>&1
group_listed "${IBSIM_WORKDIR}/groups2.txt" "${created}" ||
  { cat "${IBSIM_WORKDIR}/groups2.txt" >&2; fail "saquery -g does not list the created group ${created}"; }
mlid=$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if "\"op\"" in l][0]["record"]["mlid"])' \
  "${IBSIM_WORKDIR}/create.jsonl")
[[ ${mlid} == 0xc001 ]] || fail "the created group got MLID ${mlid}, want 0xc001 (the lowest free)"
if [[ ${SA_TEST_SM} == smd ]]; then
  grep -q "ff151234000000000000000000000042" "${IBSIM_WORKDIR}/state-sm/sa-groups.json" ||
    fail "the groups file does not hold ${created}"
fi
echo "created ${created} at MLID ${mlid}"

client leave --mgid "${created}" --join-state 1 >"${IBSIM_WORKDIR}/leave2.jsonl" 2>&1 ||
  { cat "${IBSIM_WORKDIR}/leave2.jsonl" >&2; fail "sa_client leave (created group)"; }
saq -g >"${IBSIM_WORKDIR}/groups3.txt" 2>&1
if group_listed "${IBSIM_WORKDIR}/groups3.txt" "${created}"; then
  cat "${IBSIM_WORKDIR}/groups3.txt" >&2
  fail "${created} still listed after its last full member left"
fi
group_listed "${IBSIM_WORKDIR}/groups3.txt" "${bcast}" || fail "the broadcast group is gone"
echo "PASS: sa_groups (${SA_TEST_SM})"
