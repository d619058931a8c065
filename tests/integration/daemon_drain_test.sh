#!/usr/bin/env bash
# `smctl what-if drain`, `smctl drain` and `smctl undrain` on a running smd (issue 46 item 3), on the 4-ary
# 3-tree (48 switches, 64 hosts), with PathRecord queries (saquery) running the whole time.
#   1. what-if drain of spine sw-L2-0 predicts no lost pair and a number of LFT blocks per switch;
#   2. drain: the LFTs read back with infiniband-diags differ from those of before in exactly the predicted
#      blocks of exactly the predicted switches, no entry of any switch points at the spine, and every
#      switch still delivers every LID (check_fabric.py --avoid); a leaf drain is refused (it cuts hosts off);
#   3. the spine's cables are unlinked in ibsim: the 47 switches left route every LID, no PathRecord
#      query failed; relinked and the daemon restarted, the spine stays drained (state_dir/drained);
#   4. undrain: the spine carries routes again (check_fabric.py --use); a second undrain says "not drained".
. "$(dirname "$0")/health_common.sh"
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
READ_LFTS="$(cd "$(dirname "$0")" && pwd)/read_lfts.py"
fail() { echo "FAIL: $*" >&2; exit 1; }
ibsim_start "${NET}"
write_policy "${IBSIM_WORKDIR}/smd.yaml" "${IBSIM_WORKDIR}/state" "  sweep_interval: 5"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
sweeps() { grep -c "SUBNET UP" "${IBSIM_WORKDIR}/smd.log" || true; }

# The spine's cabled ports, read off the netfile.
mapfile -t spine_ports < <(awk '$1=="Switch"{on=($3=="\"sw-L2-0\""); next} on && /"sw-/{gsub(/[][]/," ",$1); print $1+0}' "${NET}")
[[ ${#spine_ports[@]} == 4 ]] || fail "netfile parse: sw-L2-0 ports ${spine_ports[*]}"
avoid=(--drained sw-L2-0)
for p in "${spine_ports[@]}"; do avoid+=(--avoid "sw-L2-0:${p}"); done
# Once drained, no LID route reaches the spine: its LFT is read by directed route from host-0 (where the
# shim attaches), the path found in the netfile.
spine_dr=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import netfile_hosts as n
print(",".join(map(str, n.directed_route(sys.argv[2], "host-0", "sw-L2-0"))))' "$(dirname "${READ_LFTS}")" "${NET}")
read_lfts() { sim timeout 240 python3 "${READ_LFTS}" --dr "0x0000000000200020=${spine_dr}" >"$1"; }

# PathRecord load: saquery between host LIDs (CA port GUIDs are below ibsim's switch GUIDs 0x200000) in a
# loop until told to stop; every answer counted as ok or failed.
mapfile -t host_lids < <(python3 -c 'import sys
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3 and int(f[0], 16) < 0x200000: print(int(f[1], 16))' "${IBSIM_WORKDIR}/state/guid2lid")
[[ ${#host_lids[@]} == 64 ]] || fail "guid2lid: ${#host_lids[@]} host LIDs"
pr_load() {
  local ok=0 failed=0 i=0 src dst
  while [[ ! -e "${IBSIM_WORKDIR}/pr.stop" ]]; do
    src=${host_lids[$((i % 64))]} dst=${host_lids[$(((i * 7 + 13) % 64))]}
    i=$((i + 1))
    [[ ${src} == "${dst}" ]] && continue
    if sim timeout 10 saquery -p --src-to-dst "${src}:${dst}" >"${IBSIM_WORKDIR}/pr.last" 2>&1 &&
      grep -q "^[[:space:]]*dlid\.\.\." "${IBSIM_WORKDIR}/pr.last"; then
      ok=$((ok + 1))
    else
      failed=$((failed + 1))
      cp "${IBSIM_WORKDIR}/pr.last" "${IBSIM_WORKDIR}/pr.failed.${failed}"
    fi
    echo "${ok} ${failed}" >"${IBSIM_WORKDIR}/pr.count.tmp" && mv "${IBSIM_WORKDIR}/pr.count.tmp" "${IBSIM_WORKDIR}/pr.count"
  done
}
pr_load &
PR_PID=$!
ibsim_track "${PR_PID}"
deadline=$((SECONDS + 30))
until [[ -e "${IBSIM_WORKDIR}/pr.count" ]] && read -r ok failed <"${IBSIM_WORKDIR}/pr.count" && ((ok > 0)); do
  ((SECONDS < deadline)) || fail "no PathRecord answered: $(cat "${IBSIM_WORKDIR}/pr.last" 2>/dev/null)"
  sleep 0.2
done

# 1. The prediction.
read_lfts "${IBSIM_WORKDIR}/before.lfts"
start_ns=$(date +%s%N)
smctl --json what-if drain sw-L2-0 >"${IBSIM_WORKDIR}/whatif.json" || fail "what-if: $(cat "${IBSIM_WORKDIR}/whatif.json")"
echo "what-if drain wall time (smctl round trip): $((($(date +%s%N) - start_ns) / 1000000)) ms"
smctl what-if drain sw-L2-0 | tee "${IBSIM_WORKDIR}/whatif.txt"
grep -q "^lost pairs    0$" "${IBSIM_WORKDIR}/whatif.txt" || fail "what-if text: no 'lost pairs 0' line"
python3 - "${IBSIM_WORKDIR}/whatif.json" <<'PY' || fail "what-if report"
import json, sys
r = json.load(open(sys.argv[1]))["result"]
rep = r["report"]
assert rep["cables_drained"] == 4 and rep["lost_pairs"] == 0 and rep["cut_off_ports"] == 0, rep
assert rep["reachable_pairs_after"] == 64 * 63, rep["reachable_pairs_after"]
assert rep["lft_blocks"] > 0 and rep["switches_changed"] > 0, rep
assert r["safe"] is True, r["safe"]
print(f"what-if: {rep['lft_blocks']} LFT blocks on {rep['switches_changed']} switches, {r['what_if_ms']:.0f} ms in smd")
PY
# Nothing changed on the fabric because of it.
read_lfts "${IBSIM_WORKDIR}/still.lfts"
cmp -s "${IBSIM_WORKDIR}/before.lfts" "${IBSIM_WORKDIR}/still.lfts" || fail "the what-if changed some LFT"

# 2. The drain, and what the fabric then holds.
n=$(sweeps)
smctl drain sw-L2-0 | tee "${IBSIM_WORKDIR}/drain.txt"
grep -q "^drained switch 0x[0-9a-f]* (sw-L2-0)$" "${IBSIM_WORKDIR}/drain.txt" || fail "drain answer"
wait_log smd "SUBNET UP" 60 $((n + 1))
read_lfts "${IBSIM_WORKDIR}/after.lfts"
python3 "$(dirname "${READ_LFTS}")/drain_blocks_check.py" "${IBSIM_WORKDIR}/before.lfts" "${IBSIM_WORKDIR}/after.lfts" \
  "${IBSIM_WORKDIR}/whatif.json" || fail "the fabric's LFTs are not the predicted ones"
check_with_diags --expect-switches 48 --expect-cas 64 "${avoid[@]}"
smctl --json status >"${IBSIM_WORKDIR}/status.json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["result"]; d=s["drained"]
assert len(d) == 1 and d[0]["port"] == 0 and "sw-L2-0" in d[0]["what"] and not d[0]["forced"], d
assert s["drained_cables"] == 4, s["drained_cables"]' "${IBSIM_WORKDIR}/status.json" || fail "status: drained"
smctl status | grep -q "^Drained  *switch 0x[0-9a-f]* (sw-L2-0)$" || fail "status text: no Drained line"
scrape_metrics "${IBSIM_WORKDIR}/metrics.txt"
grep -q "^smd_drained_parts 1$" "${IBSIM_WORKDIR}/metrics.txt" && grep -q "^smd_drained_cables 4$" "${IBSIM_WORKDIR}/metrics.txt" ||
  fail "metrics: $(grep drained "${IBSIM_WORKDIR}/metrics.txt")"
# A leaf cuts its hosts off: refused, nothing recorded.
if smctl drain sw-L0-1 2>"${IBSIM_WORKDIR}/refused.txt"; then fail "leaf drain accepted"; fi
grep -q "would cut off .*nothing drained; --force drains anyway" "${IBSIM_WORKDIR}/refused.txt" ||
  fail "refusal said: $(cat "${IBSIM_WORKDIR}/refused.txt")"
[[ $(grep -c . "${IBSIM_WORKDIR}/state/drained") == 2 ]] || fail "state/drained: $(cat "${IBSIM_WORKDIR}/state/drained")"

# 3. The spine's cables pulled, under load: routes already avoid them.
n=$(sweeps)
for p in "${spine_ports[@]}"; do ibsim_console "Unlink \"sw-L2-0\"[${p}]"; done
wait_log smd "SUBNET UP" 60 $((n + 1))
sleep 6  # traps of the later unlinks, and the periodic sweep, settle
check_with_diags --expect-switches 47 --expect-cas 64
n=$(sweeps)
for p in "${spine_ports[@]}"; do ibsim_console "ReLink \"sw-L2-0\"[${p}]"; done
wait_log smd "SUBNET UP" 60 $((n + 1))
touch "${IBSIM_WORKDIR}/pr.stop"
wait "${PR_PID}" || true
read -r ok failed <"${IBSIM_WORKDIR}/pr.count"
echo "PathRecord queries under drain, unlink and relink: ${ok} answered, ${failed} failed"
((failed == 0)) || fail "${failed} PathRecord queries failed; first: $(cat "${IBSIM_WORKDIR}/pr.failed.1")"
((ok >= 20)) || fail "only ${ok} PathRecord queries ran"

# The drain survives a restart: the spine is back in the fabric and still routed around.
kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}" || true
mv "${IBSIM_WORKDIR}/smd.log" "${IBSIM_WORKDIR}/smd.first.log"
start_daemon smd "${IBSIM_WORKDIR}/smd.yaml"
wait_log smd "SUBNET UP" 60
grep -q "drains: 1 part(s) stay drained from before" "${IBSIM_WORKDIR}/smd.log" || fail "restart: drains not read"
check_with_diags --expect-switches 48 --expect-cas 64 "${avoid[@]}"

# 4. Undrain: the next sweep routes over the spine again.
n=$(sweeps)
smctl undrain sw-L2-0 | grep -q "^undrained switch 0x[0-9a-f]* (sw-L2-0)$" || fail "undrain answer"
wait_log smd "SUBNET UP" 60 $((n + 1))
check_with_diags --expect-switches 48 --expect-cas 64 --use "sw-L2-0:${spine_ports[0]}"
smctl --json status | python3 -c 'import json,sys; assert json.load(sys.stdin)["result"]["drained"] == []' ||
  fail "status still lists drains"
# Undrain is idempotent per part: again, it says so and succeeds.
smctl undrain sw-L2-0 >"${IBSIM_WORKDIR}/undrain2.txt" || fail "a second undrain failed: $(cat "${IBSIM_WORKDIR}/undrain2.txt")"
grep -q "^not drained switch 0x[0-9a-f]* (sw-L2-0)$" "${IBSIM_WORKDIR}/undrain2.txt" &&
  grep -q "^nothing changed$" "${IBSIM_WORKDIR}/undrain2.txt" || fail "second undrain said: $(cat "${IBSIM_WORKDIR}/undrain2.txt")"

kill -TERM "${DAEMON_PID_smd}"
wait "${DAEMON_PID_smd}"
grep -q "smd stopped" "${IBSIM_WORKDIR}/smd.log"
echo "PASS: daemon_drain"
