#!/usr/bin/env bash
# `smd plan --compare --collectives` through the real command line, no fabric: on the bundled 4-ary
# 3-tree (64 hosts, full bisection, ftree) the JSON carries every collective with its numbers, ring
# all-reduce at ideal under ib-static (one flow per cable: worked out in docs/roce.md) with busBw 1, the
# ideal times of r = 64 by hand (ring 126/64, all-to-all 63/64, moe:8 7/8, pipeline 1); the SVG is well-formed
# XML whose first panel is the collectives'; a misspelt collective exits 2 naming it.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
NET="${SMD_SOURCE_DIR:?SMD_SOURCE_DIR must point at the source tree}/tests/fabrics/kary4-3.net"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
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
    assert [s["name"] for s in c["schemes"]] == ["ib-static", "ib-adaptive", "roce-ecmp"], c
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

if smd plan --topology "${NET}" --seeds 1 --compare --collectives ring,rings >"${work}/out" 2>"${work}/err"; then
  fail "a misspelt collective was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "exit ${rc}, want 2"
grep -q "unknown collective 'rings'" "${work}/err" || { cat "${work}/err"; fail "the error does not name 'rings'"; }
echo "smd plan --collectives ring,rings: exit 2 naming 'rings'"
