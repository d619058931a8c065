#!/usr/bin/env bash
# `smd plan --fail PART` through the real command line, no fabric, on the bundled leaf/spine (4 leaves of
# 4 hosts, 2 spines; leaf ports 1-4 hosts, 5 -> spine-0, 6 -> spine-1):
#   - one spine cable (leaf-0[5]): nothing cut off, the comparison before is the one a run without
#     --fail prints (same numbers), and after it leaf-0 has one uplink left for 4 hosts, so in every
#     shift that sends all 4 off the leaf (k = 4..12 of 15) that cable carries 4 flows under every scheme:
#     shift max link load 4 after, worked out here from the cabling, not read from smd;
#   - one leaf (leaf-1): its 4 hosts, read from the netfile, are the cut-off endpoints; over all 15
#     shifts every ordered pair occurs once, so shift and all-to-all both leave 16*15 - 12*11 = 108 flows
#     unrouted under every scheme, and the ring all-reduce never ends (time null); the leaf and its hosts
#     are no longer discovered;
#   - the SVG holds both charts, the one after titled "after losing ...";
#   - with routing.repair: full, the comparison after a spine or a cable is lost equals, figure for
#     figure, a plain run on the netfile with that spine or cable deleted (netfile_hosts.without);
#   - an unknown part exits 2 naming --fail, one cable named by both ends exits 2, and --fail with --drain
#     exits 2.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
NET="${SMD_SOURCE_DIR:?SMD_SOURCE_DIR must point at the source tree}/tests/fabrics/leafspine.net"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
export HERE="$(cd "$(dirname "$0")" && pwd)"  # netfile_hosts.py
fail() { echo "FAIL: $*" >&2; exit 1; }
smd() { timeout 60 "${SMD_BIN}" "$@"; }

smd plan --topology "${NET}" --seeds 2 --collectives ring --format json >"${work}/plain.json" ||
  fail "smd plan without --fail exited $?"
smd plan --topology "${NET}" --seeds 2 --collectives ring --format json --fail 'leaf-0[5]' \
  --svg "${work}/cable.svg" >"${work}/cable.json" || fail "smd plan --fail 'leaf-0[5]' exited $?"
python3 - "${work}/plain.json" "${work}/cable.json" "${work}/cable.svg" <<'PY' || fail "one spine cable"
import json, sys
import xml.etree.ElementTree as ET
plain = json.load(open(sys.argv[1]))["roce"]["comparison"]
doc = json.load(open(sys.argv[2]))["roce"]
assert doc["comparison"]["patterns"] == plain["patterns"], "the comparison before differs from a plain run"
assert doc["comparison"]["collectives"] == plain["collectives"]
loss = doc["after_loss"]
assert loss["cables"] == 1 and loss["cut_off_endpoints"] == [], loss
part = loss["failed"][0]
assert part["text"] == "leaf-0[5]" and part["kind"] == "cable" and part["port"] == 5 and part["peer_port"] == 1, part
assert loss["ib_static"]["made_by"] in ("local repair", "minimal repair"), loss["ib_static"]
after = {p["name"]: p for p in loss["comparison"]["patterns"]}
assert list(after) == [p["name"] for p in plain["patterns"]], list(after)
for s in after["shift"]["schemes"]:
    assert s["max_link_load"] == 4 and s["unrouted"] == 0 and s["flows"] == 15 * 16, s
for p in after.values():
    for s in p["schemes"]:
        assert s["unrouted"] == 0, (p["name"], s)
ring = loss["comparison"]["collectives"][0]
assert all(s["relative_time"] is not None and s["relative_time"] >= 1 for s in ring["schemes"]), ring
svg = ET.parse(sys.argv[3]).getroot()
ns = "{http://www.w3.org/2000/svg}"
charts = svg.findall(ns + "svg")
assert len(charts) == 2, len(charts)
assert float(svg.get("height")) == sum(float(c.get("height")) for c in charts)
titles = [t.text for c in charts for t in c.iter(ns + "text") if t.get("font-size") == "16"]
assert titles[0].endswith("before the loss") and titles[1].startswith("after losing leaf-0[5]"), titles
PY
echo "smd plan --fail 'leaf-0[5]': before as without --fail, shift max load 4 after under every scheme"

smd plan --topology "${NET}" --seeds 2 --collectives ring --format json --fail leaf-1 >"${work}/leaf.json" ||
  fail "smd plan --fail leaf-1 exited $?"
python3 - "${work}/leaf.json" "${NET}" <<'PY' || fail "one leaf"
import json, os, sys
sys.path.insert(0, os.environ["HERE"])
from netfile_hosts import host_switches
behind = sorted(h + "[1]" for h, sw in host_switches(sys.argv[2]).items() if sw == "leaf-1")
loss = json.load(open(sys.argv[1]))["roce"]["after_loss"]
assert loss["cables"] == len(behind) + 2, loss["cables"]
assert loss["nodes_gone"] == len(behind) + 1, loss["nodes_gone"]  # the leaf and its hosts
assert sorted(loss["cut_off_endpoints"]) == sorted(behind), (loss["cut_off_endpoints"], behind)
n, c = 16, len(behind)
lost = n * (n - 1) - (n - c) * (n - c - 1)
after = {p["name"]: p for p in loss["comparison"]["patterns"]}
for name in ("shift", "all-to-all"):
    for s in after[name]["schemes"]:
        assert s["unrouted"] == lost, (name, s, lost)
assert any("cut off" in note for note in loss["comparison"]["notes"]), loss["comparison"]["notes"]
for s in loss["comparison"]["collectives"][0]["schemes"]:
    assert s["time"] is None and s["unrouted"] > 0, s
PY
behind_hosts=($(python3 -c 'import os, sys; sys.path.insert(0, os.environ["HERE"]); from netfile_hosts import host_switches
print(" ".join(h for h, s in host_switches(sys.argv[1]).items() if s == "leaf-1"))' "${NET}"))
smd plan --topology "${NET}" --seeds 2 --collectives ring --fail leaf-1 >"${work}/leaf.txt" || fail "text exited $?"
grep -qF "after losing leaf-1 (6 cable(s); $((${#behind_hosts[@]} + 1)) node(s) no longer discovered)" "${work}/leaf.txt" ||
  fail "no 'after losing' line: $(grep after "${work}/leaf.txt")"
grep -Eq "^ring-allreduce +roce-ecmp +1\.000 +unrouted " "${work}/leaf.txt" || fail "no before/after ring row"
echo "smd plan --fail leaf-1: its hosts cut off, 108 flows unrouted under every scheme"

# With routing.repair: full the tables after are the chain's fresh ones, so the whole comparison after
# must be what a plain plan of the netfile with the part deleted by hand gives, figure for figure (the
# endpoints, hosts and switches keep their order).
printf 'routing:\n  repair: full\n' >"${work}/full.yaml"
for part in spine-1 'leaf-0[6]'; do
  python3 -c 'import os, sys; sys.path.insert(0, os.environ["HERE"]); from netfile_hosts import without
part = sys.argv[2]
print(without(sys.argv[1], end=(part[:-3], int(part[-2]))) if part.endswith("]") else without(sys.argv[1], switch=part))' \
    "${NET}" "${part}" >"${work}/reduced.net"
  smd plan --topology "${NET}" --config "${work}/full.yaml" --seeds 3 --collectives ring,alltoall --format json \
    --fail "${part}" >"${work}/failed.json" || fail "--fail ${part} with repair full exited $?"
  smd plan --topology "${work}/reduced.net" --config "${work}/full.yaml" --seeds 3 --collectives ring,alltoall \
    --format json >"${work}/reduced.json" || fail "the reduced netfile exited $?"
  python3 - "${work}/failed.json" "${work}/reduced.json" <<'PY' || fail "--fail ${part} differs from the reduced netfile"
import json, sys
after = json.load(open(sys.argv[1]))["roce"]["after_loss"]
plain = json.load(open(sys.argv[2]))
assert after["ib_static"]["made_by"] == "fresh tables" and after["ib_static"]["engine"] == plain["engine"], after
for key in ("patterns", "collectives"):
    assert after["comparison"][key] == plain["roce"]["comparison"][key], key
PY
done
echo "smd plan --fail with routing.repair full: the comparison after equals the plan of the reduced netfile"

if smd plan --topology "${NET}" --seeds 1 --fail leaf-9 >"${work}/out" 2>"${work}/err"; then
  fail "an unknown part was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "unknown part: exit ${rc}, want 2"
grep -qx "smd plan: --fail 'leaf-9': no node is named 'leaf-9'" "${work}/err" || fail "said: $(cat "${work}/err")"
# One cable named twice, by both of its ends (leaf-0 port 5 is spine-0 port 1 in the netfile): refused.
if smd plan --topology "${NET}" --seeds 1 --fail 'leaf-0[5]' --fail 'spine-0[1]' >"${work}/out" 2>"${work}/err"; then
  fail "one cable failed twice was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "one cable twice: exit ${rc}, want 2"
grep -qx "smd plan: --fail 'spine-0\[1\]': the same cable as 'leaf-0\[5\]'; name each part once" "${work}/err" ||
  fail "one cable twice said: $(cat "${work}/err")"
if smd plan --topology "${NET}" --seeds 1 --fail leaf-1 --drain leaf-2 >"${work}/out" 2>"${work}/err"; then
  fail "--fail with --drain was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "--fail with --drain: exit ${rc}, want 2"
grep -q "and --fail" "${work}/err" || fail "said: $(cat "${work}/err")"
echo "smd plan --fail: an unknown part and --drain exit 2"
