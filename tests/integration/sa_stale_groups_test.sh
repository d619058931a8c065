#!/usr/bin/env bash
# An SM back after another master ran the subnet does not restore its own, older groups file. Two smd on
# leafspine with their own state directories: "a" at host-0 (priority 10), "b" at host-1 (priority 5).
#  1. "a" alone: sa_client at host-3 creates group G1 (ff15:1234::a1, MLID 0xC001, after the IPoIB
#     broadcast group's 0xC000). "a" is killed and started again alone: it restores G1 from its file.
#  2. "a" is killed; "b" takes the subnet: G1 is left (deleted) and G2 (ff15:1234::b2) created, at the MLID
#     that is free again.
#  3. "a" comes back and takes over from "b" (higher priority). Its file still holds G1, which "b" deleted
#     and whose MLID "b" gave to G2: "a" must not bring G1 back (saquery -g against "a"), and says why.
. "$(dirname "$0")/sa_common.sh"
[[ ${SA_TEST_SM} == smd ]] || { echo "sa_stale_groups_test: smd only (the groups file is smd's)"; exit 0; }
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
g1="ff15:1234::a1"
g2="ff15:1234::b2"
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
for sm in a:10 b:5; do
  IFS=: read -r name prio <<<"${sm}"
  write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${IBSIM_WORKDIR}/state-${name}" "  priority: ${prio}" \
    "  poll_interval: 1" "  poll_retries: 2"
done
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
client() {  # client ARGS...: sa_client at host-3
  sim env SIM_HOST=host-3 timeout 30 "${SA_CLIENT}" "$@"
}
mlid_of() {  # mlid_of JSONL: the MLID of the first answer
  python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if "\"op\"" in l][0]["record"]["mlid"])' "$1"
}
groups_now() {  # groups_now FILE: saquery -g into FILE, from whichever SM is master
  saq -g >"$1" 2>&1 || { cat "$1" >&2; fail "saquery -g"; }
}
listed() { grep -qE "MGID\.+$2\$" "$1"; }
wait_file_has() {  # wait_file_has FILE TEXT SECONDS
  local deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  fail "$1 does not hold $2 within $3 s"
}

# 1. "a" creates G1 and restores it after a restart on its own.
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
sa_wait_sa 20
client join --create --mgid "${g1}" --qkey 0x42 --join-state 1 >"${IBSIM_WORKDIR}/g1.jsonl" 2>&1 ||
  { cat "${IBSIM_WORKDIR}/g1.jsonl" >&2; fail "sa_client join --create ${g1}"; }
[[ $(mlid_of "${IBSIM_WORKDIR}/g1.jsonl") == 0xc001 ]] || fail "G1 at $(mlid_of "${IBSIM_WORKDIR}/g1.jsonl"), want 0xc001"
wait_file_has "${IBSIM_WORKDIR}/state-a/sa-groups.json" "ff1512340000000000000000000000a1" 10
kill -9 "${DAEMON_PID_a}"
mv "${IBSIM_WORKDIR}/a.log" "${IBSIM_WORKDIR}/a-1.log"
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "SUBNET UP" 60
wait_log a "multicast group\(s\) restored from" 20
sa_wait_sa 20
groups_now "${IBSIM_WORKDIR}/groups-a2.txt"
listed "${IBSIM_WORKDIR}/groups-a2.txt" "${g1}" ||
  { cat "${IBSIM_WORKDIR}/groups-a2.txt" >&2; fail "a restarted alone does not restore ${g1} from its file"; }
echo "a restarted alone: ${g1} restored from its own file"

# 2. "b" runs the subnet: G1 deleted, G2 created at the MLID G1 had.
kill -9 "${DAEMON_PID_a}"
mv "${IBSIM_WORKDIR}/a.log" "${IBSIM_WORKDIR}/a-2.log"
start_daemon b "${IBSIM_WORKDIR}/b.yaml" SIM_HOST=host-1
wait_log b "SUBNET UP" 60
wait_log b "SA: serving" 30
sa_wait_sa 20
client leave --mgid "${g1}" --join-state 1 >"${IBSIM_WORKDIR}/leave-g1.jsonl" 2>&1 || true  # b may not know G1
client join --create --mgid "${g2}" --qkey 0x43 --join-state 1 >"${IBSIM_WORKDIR}/g2.jsonl" 2>&1 ||
  { cat "${IBSIM_WORKDIR}/g2.jsonl" >&2; fail "sa_client join --create ${g2} on b"; }
[[ $(mlid_of "${IBSIM_WORKDIR}/g2.jsonl") == 0xc001 ]] || fail "G2 at $(mlid_of "${IBSIM_WORKDIR}/g2.jsonl"), want 0xc001"
echo "b: ${g1} gone, ${g2} at MLID 0xc001"

# 3. "a" takes over again and must not revive G1.
start_daemon a "${IBSIM_WORKDIR}/a.yaml" SIM_HOST=host-0
wait_log a "-> MASTER" 60
wait_log a "SA: serving" 30
sa_wait_sa 20
groups_now "${IBSIM_WORKDIR}/groups-a3.txt"
if listed "${IBSIM_WORKDIR}/groups-a3.txt" "${g1}"; then
  cat "${IBSIM_WORKDIR}/groups-a3.txt" >&2
  fail "a brought back ${g1}, which b deleted (its MLID is G2's now)"
fi
wait_log a "sa-groups.json not restored: this SM wrote it before another master ran the subnet" 10
listed "${IBSIM_WORKDIR}/groups-a3.txt" "ff12:401b:ffff::ffff:ffff" ||
  { cat "${IBSIM_WORKDIR}/groups-a3.txt" >&2; fail "a has no IPoIB broadcast group after taking over"; }
deadline=$((SECONDS + 10))  # the new groups are written within the SA's flush delay
while grep -q "ff1512340000000000000000000000a1" "${IBSIM_WORKDIR}/state-a/sa-groups.json"; do
  ((SECONDS < deadline)) || fail "a's groups file still holds ${g1} 10 s after a took over with a fresh state"
  sleep 0.2
done
echo "PASS: sa_stale_groups (a took over from b without reviving ${g1})"
