#!/usr/bin/env bash
# `smd plan --compare --collectives` through the real command line, no fabric: on the bundled 4-ary
# 3-tree (64 hosts, full bisection, ftree) the JSON carries every collective with its numbers, ring
# all-reduce at ideal under ib-static (one flow per cable: worked out in docs/roce.md) with busBw 1, the
# ideal times of r = 64 by hand (ring 126/64, all-to-all 63/64, moe:8 7/8, pipeline 1); the SVG is well-formed
# XML whose first panel is the collectives'; a misspelt collective exits 2 naming it.
# Jobs: --job FILE (names, in rank order) and --placement fragmented:16,0.5 / random:16,5, each a job of
# its own in the JSON with the leaves its ranks are cabled to, counted here from the netfile's cables; a
# job whose ring crosses each leaf by one flow only is at ideal under every scheme; the SVG's first panel
# has one group of bars per (job, collective); a job file naming an unknown host exits 2 at file:line.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
NET="${SMD_SOURCE_DIR:?SMD_SOURCE_DIR must point at the source tree}/tests/fabrics/kary4-3.net"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
export HERE="$(cd "$(dirname "$0")" && pwd)"  # netfile_hosts.py
fail() { echo "FAIL: $*" >&2; exit 1; }
smd() { timeout 60 "${SMD_BIN}" "$@"; }

smd plan --topology "${NET}" --seeds 2 --compare --format json --svg "${work}/chart.svg" \
  --collectives ring,alltoall,moe:8,pipeline >"${work}/plan.json" || fail "smd plan --collectives exited $?"
python3 - "${work}/plan.json" "${work}/chart.svg" <<'PY' || fail "figures"
import json, sys
import xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1]))
cols = {c["name"]: c for c in doc["roce"]["comparison"]["collectives"]}
assert list(cols) == ["ring-allreduce", "alltoall", "moe-alltoall:8", "pipeline"], list(cols)
ideal = {"ring-allreduce": 126 / 64, "alltoall": 63 / 64, "moe-alltoall:8": 7 / 8, "pipeline": 1.0}
for name, c in cols.items():
    assert c["ranks"] == 64, c
    assert abs(c["ideal_time"] - ideal[name]) < 1e-12, (name, c["ideal_time"])
    assert [s["name"] for s in c["schemes"]] == ["ib-static", "ib-adaptive", "roce-ecmp", "roce-eecmp",
                                                 "roce-spray"], c
    for s in c["schemes"]:
        assert s["relative_time"] >= 1 - 1e-12, (name, s)
        assert abs(s["time"] - s["relative_time"] * c["ideal_time"]) < 1e-9, (name, s)
        assert abs(s["bus_bandwidth"] - c["bus_factor"] / s["time"]) < 1e-9, (name, s)
        assert s["unrouted"] == 0, (name, s)
ring = cols["ring-allreduce"]
assert ring["phases"] == 126 and ring["distinct_phases"] == 1, ring
static = ring["schemes"][0]
assert static["relative_time"] == 1.0 and abs(static["bus_bandwidth"] - 1.0) < 1e-12, static
svg = ET.parse(sys.argv[2]).getroot()
ns = "{http://www.w3.org/2000/svg}"
titles = [t.text for t in svg.iter(ns + "text") if t.get("font-weight") == "bold"]
assert "relative to ideal" in titles[1], titles  # titles[0] is the chart's title
heights = [float(r.get("height")) for r in svg.iter(ns + "rect") if r.find(ns + "title") is not None]
assert heights and min(heights) >= 2, min(heights)
PY
echo "smd plan --collectives: JSON figures and SVG as expected"

# Two hosts of each of leaves sw-L0-0 and sw-L0-1, then host-63: 5 ranks on 3 leaves.
printf '# a job\nhost-0\nhost-1   # same leaf\n\nhost-4\nhost-5\nhost-63\n' >"${work}/job.txt"
smd plan --topology "${NET}" --seeds 1 --compare --format json --svg "${work}/jobs.svg" --collectives ring \
  --job "${work}/job.txt" --placement fragmented:16,0.5 --placement random:16,5 >"${work}/jobs.json" ||
  fail "smd plan --job/--placement exited $?"
python3 - "${work}/jobs.json" "${work}/jobs.svg" "${NET}" "${work}/job.txt" <<'PY' || fail "job figures"
import json, os, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["HERE"])
from netfile_hosts import host_switches
leaf = host_switches(sys.argv[3])  # host -> the switch its port is cabled to, from the netfile
doc = json.load(open(sys.argv[1]))
cols = doc["roce"]["comparison"]["collectives"]
assert [c["job"] for c in cols] == [sys.argv[4], "fragmented:16,0.5", "random:16,5"], [c["job"] for c in cols]
job_hosts = ["host-0", "host-1", "host-4", "host-5", "host-63"]
assert cols[0]["ranks"] == 5 and cols[0]["leaves"] == len({leaf[h] for h in job_hosts}) == 3, cols[0]
# Ring 0 -> 1 -> 4 -> 5 -> 63 -> 0: each leaf sends one flow out and receives one: ideal for all.
# fragmented: 2 of each leaf's 4 hosts, ranks grouped by leaf: 8 leaves, the same one-flow-per-leaf ring.
assert cols[1]["ranks"] == 16 and cols[1]["leaves"] == 16 // 2, cols[1]
for c in cols[:2]:
    assert abs(c["ideal_time"] - 2 * (c["ranks"] - 1) / c["ranks"]) < 1e-12, c
    for s in c["schemes"]:
        assert s["relative_time"] == 1.0, (c["job"], s)
assert cols[2]["ranks"] == 16 and 1 <= cols[2]["leaves"] <= 16, cols[2]
svg = ET.parse(sys.argv[2]).getroot()
ns = "{http://www.w3.org/2000/svg}"
labels = [t.text for t in svg.iter(ns + "text")]
# Under each group its collective, then its job on a second line.
for job in (sys.argv[4], "fragmented:16,0.5", "random:16,5"):
    at = labels.index(job)
    assert labels[at - 1] == "ring-allreduce", (job, labels[at - 1])
titles = [t.text for t in svg.iter(ns + "title")]
assert any(t.startswith("random:16,5 ring-allreduce, roce-ecmp: ") for t in titles), titles
PY
echo "smd plan --job/--placement: one result per job, leaves and ring figures as expected"

# Two jobs at once: host-2, host-3 and host-6, host-7 beside the job file's hosts: 4 ranks each, no host
# shared, so the result is one collective over 8 ranks on 2 leaves, named after both.
printf 'host-2\nhost-3\nhost-6\nhost-7\n' >"${work}/other.txt"
printf 'host-0\nhost-1\nhost-4\nhost-5\n' >"${work}/four.txt"
smd plan --topology "${NET}" --seeds 1 --format json --collectives ring --job "${work}/four.txt" \
  --job "${work}/other.txt" --jobs-at-once >"${work}/once.json" || fail "--jobs-at-once exited $?"
python3 - "${work}/once.json" "${work}/four.txt" "${work}/other.txt" <<'PY' || fail "jobs at once"
import json, sys
cols = json.load(open(sys.argv[1]))["roce"]["comparison"]["collectives"]
assert len(cols) == 1, cols
c = cols[0]
assert c["job"] == sys.argv[2] + " + " + sys.argv[3] and c["ranks"] == 8 and c["leaves"] == 2, c
assert c["phases"] == 6 and abs(c["ideal_time"] - 6 / 4) < 1e-12, c
PY
if smd plan --topology "${NET}" --seeds 1 --collectives ring --job "${work}/four.txt" --placement contiguous:5 \
  --jobs-at-once >"${work}/out" 2>"${work}/err"; then
  fail "jobs of different sizes were run at once"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "jobs at once of different sizes: exit ${rc}, want 2"
grep -q "their phases differ" "${work}/err" || { cat "${work}/err"; fail "no reason given"; }
echo "smd plan --jobs-at-once: one result for both jobs; different sizes exit 2"

printf 'host-0\nhost-99\n' >"${work}/bad.txt"  # --job without --compare: it implies it
if smd plan --topology "${NET}" --seeds 1 --collectives ring --job "${work}/bad.txt" >"${work}/out" 2>"${work}/err"; then
  fail "a job file naming an unknown host was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "bad job file: exit ${rc}, want 2"
grep -q "bad.txt:2: 'host-99' is no endpoint" "${work}/err" || { cat "${work}/err"; fail "the error does not say file:line"; }
echo "smd plan --job with an unknown host: exit 2 at file:line"

if smd plan --topology "${NET}" --seeds 1 --compare --collectives ring,rings >"${work}/out" 2>"${work}/err"; then
  fail "a misspelt collective was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "exit ${rc}, want 2"
grep -q "unknown collective 'rings'" "${work}/err" || { cat "${work}/err"; fail "the error does not name 'rings'"; }
echo "smd plan --collectives ring,rings: exit 2 naming 'rings'"
