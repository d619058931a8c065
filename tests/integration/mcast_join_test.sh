#!/usr/bin/env bash
# Multicast trees as the switches hold them (issue 17), judged only by infiniband-diags and a checker that
# knows nothing of smd: the 8-ary 3-tree (512 hosts, 192 switches) with smd as SM and SA; every host joins
# the IPoIB broadcast group ff12:401b:ffff::ffff:ffff (sa_client proxies for all of them, JoinState full);
# a second group is created by a join and taken by a quarter of the hosts, half of them send-only
# (JoinState 8 after the creator's full join). Once tests/integration/tools/mft_watch sees each group's MFT
# entries settle, `ibroute -M` reads the MFT of every switch and tests/integration/check_mft.py floods a
# packet from every member of each group over what was read: every other member reached exactly once, no
# loop, no stray entry. Then half of the broadcast group's members leave; the tree follows (read back and
# checked again), and `smctl groups` names both groups with their member counts.
# SA_TEST_SM=opensm runs the same checks on OpenSM's trees (the checker's own proof).
. "$(dirname "$0")/sa_common.sh"
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
MFT_WATCH="${SMD_BUILD_DIR}/tests/integration/mft_watch"
TOOLS="${SMD_SOURCE_DIR}/tests/integration/tools"
CHECK_MFT="${SMD_SOURCE_DIR}/tests/integration/check_mft.py"
w=${IBSIM_WORKDIR}
"${SMD_BUILD_DIR}/smd/smd-fabric" kary --k 8 --n 3 -o "${w}/k8.net" >/dev/null
sa_bringup "${w}/k8.net" sm host-0 10
bcast="ff12:401b:ffff::ffff:ffff"
created="ff15:101b::77"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
client() { # client ARGS...: sa_client at host-1 (JSON lines on stdout)
  sim env SIM_HOST=host-1 timeout 120 "${SA_CLIENT}" --timeout-ms 2000 --retries 3 "$@"
}
# mlid_of MGID: the group's MLID as saquery -g prints it
mlid_of() {
  saq -g >"${w}/groups.txt" 2>&1 || { cat "${w}/groups.txt" >&2; fail "saquery -g"; }
  awk -v mgid="$1" '/MGID/ { split($0, a, "\\.+"); g = a[2] } /Mlid/ { split($0, a, "\\.+"); if (g == mgid) print a[2] }' \
    "${w}/groups.txt"
}
# settle NAME MLID MEMBERS: mft_watch until the MLID's MFT entries hold MEMBERS' ports and stop changing
settle() {
  python3 "${TOOLS}/mft_watch_inputs.py" "${w}/net-p.txt" "${w}/net.txt" "${w}" "$3" >/dev/null
  sim env SIM_HOST=host-2 timeout 150 "${MFT_WATCH}" --switches "${w}/switches.txt" --mlid "$2" --timeout-s 120 \
    >"${w}/watch-$1.txt" 2>&1 || { cat "${w}/watch-$1.txt" >&2; fail "$1: the MFT entries of MLID $2 did not settle"; }
  echo "$1: MLID $2 settled ($(cat "${w}/watch-$1.txt"))"
}
# readback NAME GROUPS: ibroute -M of every switch, then check_mft.py with GROUPS ("MLID GUID..." lines)
readback() {
  : >"${w}/mft-$1.txt"
  local lid
  for lid in $(sed -nE 's/^Switch.*base port 0 lid ([0-9]+).*/\1/p' "${w}/net.txt"); do
    sim timeout 20 ibroute -M "${lid}" 0xc000 0xc01f >>"${w}/mft-$1.txt" 2>&1 || fail "ibroute -M ${lid}"
  done
  python3 "${CHECK_MFT}" --netdiscover "${w}/net.txt" --mft "${w}/mft-$1.txt" --groups "$2" \
    --expect-groups "$(wc -l <"$2")" >"${w}/check-$1.txt" 2>&1 || { cat "${w}/check-$1.txt" >&2; fail "$1: check_mft"; }
  echo "$1: $(head -n 1 "${w}/check-$1.txt")"
}

sim timeout 60 ibnetdiscover >"${w}/net.txt" || fail "ibnetdiscover"
sim timeout 60 ibnetdiscover -p >"${w}/net-p.txt" || fail "ibnetdiscover -p"
python3 "${TOOLS}/mft_watch_inputs.py" "${w}/net-p.txt" "${w}/net.txt" "${w}" >/dev/null
cp "${w}/members.txt" "${w}/all.txt"
[[ $(wc -l <"${w}/all.txt") == 512 ]] || fail "expected 512 CA ports, found $(wc -l <"${w}/all.txt")"
bmlid=$(mlid_of "${bcast}")
[[ -n "${bmlid}" ]] || fail "no IPoIB broadcast group before the joins"

# Every host joins the broadcast group.
client join --mgid "${bcast}" --ports "${w}/all.txt" --join-state 1 --window 32 >"${w}/join-all.jsonl" ||
  { tail -n 3 "${w}/join-all.jsonl" >&2; fail "sa_client join (every host)"; }
settle all "${bmlid}" "${w}/all.txt"

# A second group: host-1 creates it, a quarter of the hosts join (every other one send-only full).
client join --create --mgid "${created}" --qkey 0x77 --join-state 1 >"${w}/create.jsonl" ||
  { cat "${w}/create.jsonl" >&2; fail "sa_client join --create"; }
awk 'NR % 4 == 1' "${w}/all.txt" >"${w}/quarter.txt"
awk 'NR % 2 == 1' "${w}/quarter.txt" >"${w}/quarter-full.txt"
awk 'NR % 2 == 0' "${w}/quarter.txt" >"${w}/quarter-sendonly.txt"
client join --mgid "${created}" --ports "${w}/quarter-full.txt" --join-state 1 >"${w}/join-q1.jsonl" ||
  fail "sa_client join (quarter, full)"
client join --mgid "${created}" --ports "${w}/quarter-sendonly.txt" --join-state 8 >"${w}/join-q8.jsonl" ||
  fail "sa_client join (quarter, send-only full)"
cmlid=$(mlid_of "${created}")
[[ -n "${cmlid}" && "${cmlid}" != "${bmlid}" ]] || fail "the created group has no MLID of its own (${cmlid})"
host1=$(awk '/\x27host-1\x27/ && $1 == "CA" { print $4; exit }' "${w}/net-p.txt")
[[ -n "${host1}" ]] || fail "host-1's port GUID not in ibnetdiscover -p"
sort -u "${w}/quarter.txt" <(echo "${host1}") >"${w}/created.txt"
settle created "${cmlid}" "${w}/created.txt"
{
  echo "${bmlid} $(tr '\n' ' ' <"${w}/all.txt")"
  echo "${cmlid} $(tr '\n' ' ' <"${w}/created.txt")"
} >"${w}/groups-2.txt"
readback joined "${w}/groups-2.txt"

# Half the hosts leave the broadcast group: the tree shrinks to the rest.
awk 'NR % 2 == 0' "${w}/all.txt" >"${w}/leavers.txt"
awk 'NR % 2 == 1' "${w}/all.txt" >"${w}/stayers.txt"
client leave --mgid "${bcast}" --ports "${w}/leavers.txt" --join-state 1 >"${w}/leave.jsonl" || fail "sa_client leave"
settle left "${bmlid}" "${w}/stayers.txt"
{
  echo "${bmlid} $(tr '\n' ' ' <"${w}/stayers.txt")"
  echo "${cmlid} $(tr '\n' ' ' <"${w}/created.txt")"
} >"${w}/groups-left.txt"
readback left "${w}/groups-left.txt"

if [[ ${SA_TEST_SM} == smd ]]; then
  timeout 10 "${SMD_BUILD_DIR}/smd/smctl" --socket "${w}/state-sm.control.socket" groups >"${w}/smctl-groups.txt" ||
    fail "smctl groups"
  cat "${w}/smctl-groups.txt"
  grep -qE "^${bmlid,,} +${bcast} +members 256 " "${w}/smctl-groups.txt" || fail "smctl groups: broadcast group not 256 members"
  grep -qE "^${cmlid,,} +${created} +members $(wc -l <"${w}/created.txt") " "${w}/smctl-groups.txt" ||
    fail "smctl groups: created group member count"
fi
echo "PASS: mcast_join (${SA_TEST_SM})"
