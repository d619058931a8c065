#!/usr/bin/env bash
# SR-IOV alias GUIDs (GUIDInfoRecord Set/Delete, IBA 15.2.5.18) on twoswitch, with saquery and smpquery as
# witnesses:
#   - host-1 sets two aliases of its own port (one chosen, one "0 = SM, assign one"): the SA answers the
#     block, `saquery GIR LID/0` shows it, and the assigned GUID is OUI 0x001405 | sa.alias_guid_byte (0x2a)
#     << 32 | 1, computed here from that rule;
#   - host-2 asking the same for host-1's port is DENIED (0x0700) and the log names host-2's LID;
#   - a PathRecord from host-0 to the alias GID (saquery --sgid-to-dgid) reaches host-1's LID;
#   - the SM writes the block to the port (GUIDInfo Set) and logs what the port answered; ibsim's CAs refuse
#     GUIDInfo Sets (status 0x0008; smpquery guidinfo still shows the port GUID only): the log says so, and
#     the write itself is checked against a port model in the unit tests (sa_alias_writer_test.cpp);
#   - the aliases outlive a restart (state_dir/sa-alias-guids, kill -9, start again: same GIR answer);
#   - Delete clears the entry.
. "$(dirname "$0")/sa_common.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ ${SA_TEST_SM} == smd ]] || { echo "alias GUIDs: smd only (OpenSM's answers differ in who may set)"; exit 0; }

ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/twoswitch.net"
STATE="${IBSIM_WORKDIR}/state-sm"
write_policy "${IBSIM_WORKDIR}/sm.yaml" "${STATE}" "sa:" "  alias_guid_byte: 42"
start_daemon sm "${IBSIM_WORKDIR}/sm.yaml" SIM_HOST=host-0
sa_wait_up sm 60
sa_wait_sa 20

lid_of() { sim env SIM_HOST="$1" timeout 10 smpquery -D portinfo 0 | sed -nE 's/^Lid:\.+([0-9]+)$/\1/p'; }
guid_of() { sim env SIM_HOST="$1" timeout 10 smpquery -D nodeinfo 0 | sed -nE 's/^PortGuid:\.+(0x[0-9a-f]+)$/\1/p'; }
LID1=$(lid_of host-1)
LID2=$(lid_of host-2)
LID0=$(lid_of host-0)
PORT1=$(guid_of host-1)
[[ -n ${LID1} && -n ${LID2} && -n ${PORT1} ]] || fail "no LIDs/GUID from smpquery"
CHOSEN=0x0002c903000abc01
ASSIGNED=$(printf '0x%016x' $(((0x001405 << 40) | (42 << 32) | 1)))
echo "host-1 LID ${LID1} port ${PORT1}; host-2 LID ${LID2}; expect assigned ${ASSIGNED}"

# gir_hex LID BLOCK GUID0..GUID7: a GUIDInfoRecord as sa_client --data-hex takes it.
gir_hex() {
  local lid=$1 block=$2
  shift 2
  printf '%04x%02x%02x%08x' "${lid}" "${block}" 0 0
  for g in "$@"; do printf '%016x' "$((g))"; done
}
# client HOST ARGS...: sa_client get from HOST, its JSON answer on stdout.
client() {
  local host=$1
  shift
  sim env SIM_HOST="${host}" timeout 30 "${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client" --timeout-ms 2000 \
    --retries 3 get --attr 0x30 "$@"
}
field() { python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())[sys.argv[1]])' "$1"; }
# answer_guid N: GUID N of the record in a JSON answer's data.
answer_guid() { python3 -c 'import json, sys; d = json.loads(sys.stdin.readline())["data"]; i = 16 + 16 * int(sys.argv[1]); print("0x" + d[i:i + 16])' "$1"; }
# gir_guid LID N: GUID N of block 0 as saquery GIR shows it.
gir_guid() { saq GIR "$1/0" | sed -nE "s/^[[:space:]]*GUID $2\.+(0x[0-9a-f]+)$/\1/p" | head -n1; }

# Mask: LID | BlockNum | GUID1 | GUID2.
set_rec=$(gir_hex "${LID1}" 0 0 "${CHOSEN}" 0 0 0 0 0 0)
client host-1 --method set --mask 0x63 --data-hex "${set_rec}" >"${IBSIM_WORKDIR}/set.json" || fail "Set: no answer"
[[ $(field status <"${IBSIM_WORKDIR}/set.json") == 0x0 ]] || fail "Set answered $(cat "${IBSIM_WORKDIR}/set.json")"
[[ $(answer_guid 0 <"${IBSIM_WORKDIR}/set.json") == "${PORT1}" ]] || fail "Set answer: GUID 0 is not the port GUID"
[[ $(answer_guid 1 <"${IBSIM_WORKDIR}/set.json") == "${CHOSEN}" ]] || fail "Set answer: GUID 1 is not ${CHOSEN}"
[[ $(answer_guid 2 <"${IBSIM_WORKDIR}/set.json") == "${ASSIGNED}" ]] || fail "Set answer: GUID 2 $(answer_guid 2 <"${IBSIM_WORKDIR}/set.json"), want ${ASSIGNED}"
echo "Set: the SA answered GUID 1 ${CHOSEN}, GUID 2 ${ASSIGNED} (assigned)"
[[ $(gir_guid "${LID1}" 1) == "${CHOSEN}" && $(gir_guid "${LID1}" 2) == "${ASSIGNED}" ]] ||
  { saq GIR "${LID1}/0" >&2; fail "saquery GIR ${LID1}/0 does not show the aliases"; }
echo "saquery GIR ${LID1}/0 shows both aliases"

# Another port: DENIED, logged with its LID.
client host-2 --method set --mask 0x23 --data-hex "$(gir_hex "${LID1}" 0 0 0x77 0 0 0 0 0 0)" >"${IBSIM_WORKDIR}/deny.json" ||
  fail "foreign Set: no answer"
[[ $(field status <"${IBSIM_WORKDIR}/deny.json") == 0x700 ]] || fail "foreign Set answered $(cat "${IBSIM_WORKDIR}/deny.json")"
wait_log sm "GUIDInfoRecord Set from lid ${LID2} for lid ${LID1} denied" 5
echo "host-2's Set of host-1's aliases: DENIED, logged with lid ${LID2}"

# A PathRecord to the alias GID reaches host-1.
PORT0=$(guid_of host-0)
gid() { printf 'fe80::%x:%x:%x:%x' $((($1 >> 48) & 0xffff)) $((($1 >> 32) & 0xffff)) $((($1 >> 16) & 0xffff)) $(($1 & 0xffff)); }
saq -p --sgid-to-dgid "$(gid "${PORT0}")-$(gid "${ASSIGNED}")" >"${IBSIM_WORKDIR}/pr.txt" 2>&1 || { cat "${IBSIM_WORKDIR}/pr.txt" >&2; fail "PathRecord to the alias"; }
dlid=$(sed -nE 's/^[[:space:]]*dlid\.+([0-9]+)$/\1/p' "${IBSIM_WORKDIR}/pr.txt" | head -n1)
[[ ${dlid} == "${LID1}" ]] || { cat "${IBSIM_WORKDIR}/pr.txt" >&2; fail "PathRecord to $(gid "${ASSIGNED}") has DLID '${dlid}', want ${LID1}"; }
echo "PathRecord host-0 -> $(gid "${ASSIGNED}"): DLID ${dlid} (host-1)"

# The SM wrote the block to the port and logged the echo. ibsim 0.10 answers a GUIDInfo Set with MAD status
# 0x0008 (unsupported) and keeps the port GUID only; a port that stores it echoes the block.
wait_log sm "port ${PORT1} \\(lid ${LID1}\\) (holds its alias GUIDs of block 0|GUIDInfo block 0: written|refused GUIDInfo Set of block 0: MAD status 0x0008)" 10
echo "the SM's GUIDInfo write: $(grep -E "port ${PORT1} .*GUIDInfo|port ${PORT1} .*alias GUIDs" "${IBSIM_WORKDIR}/sm.log" | head -n1)"
sim timeout 10 smpquery guidinfo "${LID1}" | head -n 3 || true

# Restart: the file, then the same answer.
grep -q "^${PORT1} 2 ${ASSIGNED}$" "${STATE}/sa-alias-guids" || { cat "${STATE}/sa-alias-guids" >&2; fail "sa-alias-guids lacks the assigned alias"; }
kill -9 "${DAEMON_PID_sm}"
wait "${DAEMON_PID_sm}" 2>/dev/null || true
start_daemon sm2 "${IBSIM_WORKDIR}/sm.yaml" SIM_HOST=host-0
sa_wait_up sm2 60
sa_wait_sa 20
wait_log sm2 "2 alias GUID\\(s\\) of 1 port\\(s\\) restored" 10
[[ $(gir_guid "${LID1}" 1) == "${CHOSEN}" && $(gir_guid "${LID1}" 2) == "${ASSIGNED}" ]] ||
  { saq GIR "${LID1}/0" >&2; fail "after the restart saquery GIR ${LID1}/0 lacks the aliases"; }
echo "after kill -9 and a restart: saquery GIR shows the same aliases"

# Delete GUID 1: gone from the answer and from GIR; GUID 2 stays.
client host-1 --method delete --mask 0x23 --data-hex "$(gir_hex "${LID1}" 0 0 0 0 0 0 0 0 0)" >"${IBSIM_WORKDIR}/del.json" || fail "Delete: no answer"
[[ $(field status <"${IBSIM_WORKDIR}/del.json") == 0x0 && $(field method <"${IBSIM_WORKDIR}/del.json") == 0x95 ]] ||
  fail "Delete answered $(cat "${IBSIM_WORKDIR}/del.json")"
[[ $(gir_guid "${LID1}" 1) == 0x0000000000000000 && $(gir_guid "${LID1}" 2) == "${ASSIGNED}" ]] ||
  { saq GIR "${LID1}/0" >&2; fail "after Delete saquery GIR is wrong"; }
echo "Delete of GUID 1: saquery GIR shows it cleared, GUID 2 kept"
echo "PASS"
