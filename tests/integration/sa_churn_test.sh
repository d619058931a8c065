#!/usr/bin/env bash
# Join/leave churn (issue 17): on the 4-ary 3-tree (64 hosts) with the smd daemon as SM and SA, sa_client
# (libibumad only, at host-1) runs MCMemberRecord Set/Delete cycles as proxy for every host on two groups
# that exist before: the IPoIB broadcast group and a group created first by host-63 and joined by host-0
# (both keep their full membership: churn never touches those ports on that group, as their leave would
# change or end it; everywhere else every host is churned on both groups). Each cycle
# joins with random non-empty JoinState bits (full, non, send-only non, send-only full) and leaves those
# same bits, sometimes in two partial Deletes; 16 cycles are in flight. A warm-up of 1,000 cycles, then
# 10,000. Afterwards: every Set and Delete was answered with status 0; the groups and their MLIDs
# (saquery -g, and smctl groups of the daemon) are those of before, with the members of before; the SA
# counted every join and leave (smctl sa); the MFT entries of the 16 leaf switches for 0xC000-0xC01F
# (ibroute -M) are exactly those of before (host-0's and host-63's ports for the created group, no other
# member port, nothing for the broadcast group); the daemon's VmRSS after the 10,000 cycles is within
# SA_CHURN_RSS_KIB (default 1 MiB) of its VmRSS after the warm-up. Why 1 MiB: the warm-up brings the
# allocator's arenas and the SA's tables to their working size, so what grows after it is kept per
# request; 1 MiB over 10,000 cycles (about 23,000 requests) catches a leak of about 105 bytes per cycle or
# 45 per request, less than one MCMemberRecord with its map node; measured growth is 0-12 KiB.
# Under AddressSanitizer (the CI build) freed memory waits in ASan's quarantine (256 MiB by default) before
# it is reused, so RSS grows with every free whether or not anything leaks: the daemon runs with the
# quarantine off, and what a leak would keep still shows. GCC 14's AddressSanitizer (Debian 13) still grows
# for some thousands of cycles after that (1.3-5 MiB over the 10,000 cycles after a 1,000-cycle warm-up, and
# only 2.3 MiB over 30,000: it levels off; a Release build on Debian 13 grows 16 KiB), so a sanitized daemon
# warms up for as many cycles as it is then measured over (SA_CHURN_WARMUP overrides).
. "$(dirname "$0")/sa_common.sh"
ASAN_OPTIONS="${ASAN_OPTIONS}:quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
export ASAN_OPTIONS
[[ ${SA_TEST_SM} == smd ]] || { echo "sa_churn_test: smd only (RSS and smctl of the daemon)"; exit 0; }
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
SMCTL="${SMD_BUILD_DIR}/smd/smctl"
RSS_BOUND_KIB=${SA_CHURN_RSS_KIB:-1024}
CYCLES=${SA_CHURN_CYCLES:-10000}
if grep -qa __asan_init "${SMD_BUILD_DIR}/smd/smd"; then WARMUP=${SA_CHURN_WARMUP:-${CYCLES}}; else WARMUP=${SA_CHURN_WARMUP:-1000}; fi
w=${IBSIM_WORKDIR}
sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" sm host-0 10
bcast="ff12:401b:ffff::ffff:ffff"
created="ff15:c0de::17"
# shellcheck disable=SC2154 # set by start_daemon
pid=${DAEMON_PID_sm}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
client() { # client ARGS...: sa_client at host-1 (JSON lines on stdout)
  sim env SIM_HOST=host-1 timeout 100 "${SA_CLIENT}" --timeout-ms 2000 --retries 2 "$@"
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/${pid}/status"; }
# groups_state FILE: "MGID MLID" of every group (saquery -g) plus smctl groups' members, sorted
groups_state() {
  saq -g >"${w}/saq-g.txt" 2>&1 || { cat "${w}/saq-g.txt" >&2; fail "saquery -g"; }
  awk '/MGID/ { split($0, a, "\\.+"); g = a[2] } /Mlid/ { split($0, a, "\\.+"); print "saquery", g, tolower(a[2]) }' \
    "${w}/saq-g.txt" | sort >"$1"
  timeout 10 "${SMCTL}" --socket "${w}/state-sm.control.socket" --json groups >"${w}/smctl-groups.json" ||
    fail "smctl groups"
  python3 - "${w}/smctl-groups.json" >>"$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r = r.get("result", r)
for g in sorted(r, key=lambda g: g["mgid"]):
    print("smctl", g["mgid"], g["mlid"].lower(), "members", g["members"], "full", g["full"], "non", g["non_member"],
          "send_only", g["send_only"])
PY
}
# churn NAME CYCLES SEED: run the churn client, check its summary
churn() {
  client churn --ports "${w}/hosts.txt" --cycles "$2" --seed "$3" --window 16 --mgid "${bcast}" --mgid "${created}" \
    --hold "${created}=${host63}" --hold "${created}=${host0}" >"${w}/churn-$1.json" 2>"${w}/churn-$1.err" ||
    { cat "${w}/churn-$1.json" "${w}/churn-$1.err" >&2; fail "$1: sa_client churn (a request not answered with status 0)"; }
  python3 - "${w}/churn-$1.json" "$2" <<'PY' || fail "$1: churn summary"
import json, sys
s = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
n = int(sys.argv[2])
assert s["cycles"] == n and s["joins_ok"] == n and s["joins_failed"] == 0, s
assert s["leaves_ok"] == n + s["split_leaves"] and s["leaves_failed"] == 0 and s["mlid_mismatch"] == 0, s
assert all(s["join_states"][str(b)] > 0 for b in range(1, 16)), s  # every JoinState mix was used
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {s['cycles']} cycles, {s['joins_ok']} joins, {s['leaves_ok']} leaves "
      f"({s['split_leaves']} split), all status 0, {s['seconds']:.1f} s, {s['cycles_per_s']:.0f} cycles/s, "
      f"retried {s['retried']}")
PY
}
# leaf_mft FILE: the MFT rows for 0xC000-0xC01F of every leaf switch (ibroute -M), as "LID row" lines
leaf_mft() {
  local lid
  : >"$1"
  for lid in ${leaf_lids}; do
    sim timeout 20 ibroute -M "${lid}" 0xc000 0xc01f >"${w}/ibroute.txt" 2>&1 || { cat "${w}/ibroute.txt" >&2; fail "ibroute -M ${lid}"; }
    awk -v lid="${lid}" 'tolower($1) ~ /^0xc0/ { print lid, $0 }' "${w}/ibroute.txt" >>"$1"
  done
}
sa_count() { # sa_count FIELD: smctl sa's counter
  timeout 10 "${SMCTL}" --socket "${w}/state-sm.control.socket" --json sa |
    python3 -c 'import json, sys; r = json.load(sys.stdin); r = r.get("result", r); print(r[sys.argv[1]])' "$1"
}

sim timeout 60 ibnetdiscover -p >"${w}/net-p.txt" || fail "ibnetdiscover -p"
awk '$1 == "CA" { print $4 }' "${w}/net-p.txt" | sort -u >"${w}/hosts.txt"
[[ $(wc -l <"${w}/hosts.txt") == 64 ]] || fail "expected 64 host ports, found $(wc -l <"${w}/hosts.txt")"
host63=$(awk '/\x27host-63\x27/ && $1 == "CA" { print $4; exit }' "${w}/net-p.txt")
host0=$(awk '/\x27host-0\x27/ && $1 == "CA" { print $4; exit }' "${w}/net-p.txt")
[[ -n "${host63}" && -n "${host0}" ]] || fail "host-0's or host-63's port GUID not in ibnetdiscover -p"
leaf_lids=$(sim timeout 20 ibswitches | sed -nE 's/.*"sw-L0-[0-9]+".* lid ([0-9]+) .*/\1/p')
[[ $(wc -w <<<"${leaf_lids}") == 16 ]] || fail "expected 16 leaf switches, found: ${leaf_lids}"

client join --create --mgid "${created}" --qkey 0x17 --port "${host63}" --join-state 1 >"${w}/create.jsonl" ||
  { cat "${w}/create.jsonl" >&2; fail "sa_client join --create (host-63 as proxy)"; }
client join --mgid "${created}" --port "${host0}" --join-state 1 >"${w}/join0.jsonl" ||
  { cat "${w}/join0.jsonl" >&2; fail "sa_client join (host-0 as proxy)"; }
deadline=$((SECONDS + 20))
until leaf_mft "${w}/mft-before.txt" && (($(wc -l <"${w}/mft-before.txt") == 2)); do # the created group's tree
  ((SECONDS < deadline)) || { cat "${w}/mft-before.txt" >&2; fail "the created group's MFT rows on the two leaves did not appear"; }
  sleep 0.5
done
echo "leaf MFT rows before:"
sed 's/^/  /' "${w}/mft-before.txt"
groups_state "${w}/before.txt"
if ! grep -q "saquery ${bcast} " "${w}/before.txt" || ! grep -q "saquery ${created} " "${w}/before.txt"; then
  cat "${w}/before.txt" >&2
  fail "the two groups are not both listed before the churn"
fi
echo "before:"
sed 's/^/  /' "${w}/before.txt"
rss0=$(rss_kib)
joins0=$(sa_count mcast_joins)
leaves0=$(sa_count mcast_leaves)

churn warmup "${WARMUP}" 1
rss1=$(rss_kib)
churn main "${CYCLES}" 17
rss2=$(rss_kib)

# Settled: smctl groups shows no member but host-63, and every tree programmed.
deadline=$((SECONDS + 20))
until groups_state "${w}/after.txt" && diff -q "${w}/before.txt" "${w}/after.txt" >/dev/null; do
  ((SECONDS < deadline)) || { diff "${w}/before.txt" "${w}/after.txt" >&2 || true; fail "groups, MLIDs or members differ after the churn"; }
  sleep 0.5
done
echo "after: the same groups, MLIDs and members"
joins=$(($(sa_count mcast_joins) - joins0))
leaves=$(($(sa_count mcast_leaves) - leaves0))
want_leaves=$(python3 -c 'import json, sys; print(sum(json.loads(open(f).read().strip().splitlines()[-1])["leaves_ok"] for f in sys.argv[1:]))' \
  "${w}/churn-warmup.json" "${w}/churn-main.json")
[[ ${joins} == $((WARMUP + CYCLES)) && ${leaves} == "${want_leaves}" ]] ||
  fail "smctl sa counted ${joins} joins and ${leaves} leaves, want $((WARMUP + CYCLES)) and ${want_leaves}"
echo "smctl sa: ${joins} joins and ${leaves} leaves counted"
deadline=$((SECONDS + 20))
until leaf_mft "${w}/mft-after.txt" && diff -q "${w}/mft-before.txt" "${w}/mft-after.txt" >/dev/null; do
  ((SECONDS < deadline)) || { diff "${w}/mft-before.txt" "${w}/mft-after.txt" >&2 || true; fail "leaf MFT rows differ from before"; }
  sleep 0.5
done
echo "leaf MFTs: the same rows as before (host-0's and host-63's created group only)"
# No MLID leaked: a group created now gets the lowest free MLID, the one after the created group's, and
# is gone with its creator's leave.
probe="ff15:c0de::18"
client join --create --mgid "${probe}" --qkey 0x18 --port "${host63}" --join-state 1 >"${w}/probe.jsonl" ||
  { cat "${w}/probe.jsonl" >&2; fail "sa_client join --create ${probe}"; }
pmlid=$(python3 -c 'import json, sys; print([json.loads(l) for l in open(sys.argv[1]) if "\"op\"" in l][0]["record"]["mlid"])' \
  "${w}/probe.jsonl")
[[ ${pmlid} == 0xc002 ]] || fail "a group created after the churn got MLID ${pmlid}, want 0xc002 (the lowest free)"
client leave --mgid "${probe}" --port "${host63}" --join-state 1 >"${w}/probe-leave.jsonl" ||
  { cat "${w}/probe-leave.jsonl" >&2; fail "sa_client leave ${probe}"; }
deadline=$((SECONDS + 20))
until groups_state "${w}/after2.txt" && diff -q "${w}/before.txt" "${w}/after2.txt" >/dev/null; do
  ((SECONDS < deadline)) || { diff "${w}/before.txt" "${w}/after2.txt" >&2 || true; fail "${probe} not gone after its leave"; }
  sleep 0.5
done
echo "MLIDs: a group created after the churn got ${pmlid} (none leaked) and went away with its leave"
growth=$((rss2 - rss1))
echo "smd VmRSS: ${rss0} KiB before, ${rss1} KiB after the warm-up, ${rss2} KiB after ${CYCLES} cycles (growth ${growth} KiB, bound ${RSS_BOUND_KIB} KiB)"
((growth < RSS_BOUND_KIB)) || fail "smd's RSS grew ${growth} KiB over ${CYCLES} cycles"
echo "PASS: sa_churn"
