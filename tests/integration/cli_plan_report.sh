#!/usr/bin/env bash
# `smd plan --report FILE.html` through the real command line, no fabric (docs/roce.md, "The report"):
#   - on the bundled 4-ary 3-tree (64 hosts) with a ring over a job ranked across four leaves, the page is
#     checked against the run's --format json by check_report.py (bars as long as the JSON's relative
#     times, the hottest cables marked and named, self-contained);
#   - the JSON's ib-static hottest cables of that ring are what the LFTs give: the flows traced here through
#     the --lft-dump of the same run and the netfile's cables (no smd code), loads counted per switch
#     out-port; the named cables carry the loads the JSON says, those are the highest, and
#     cables_at_max_load counts the cables at the top load;
#   - on the bundled leaf/spine with --fail 'leaf-0[5]': the chart after the loss on the same scale, the
#     lost cable drawn lost, the findings about the loss; --report with --drain exits 2.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
SRC="${SMD_SOURCE_DIR:?SMD_SOURCE_DIR must point at the source tree}"
HERE="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
smd() { timeout 60 "${SMD_BIN}" "$@"; }

NET="${SRC}/tests/fabrics/kary4-3.net"
# Two hosts of each of the leaves sw-L0-0 .. sw-L0-3, ranked across them: every ring flow crosses leaves.
printf 'host-0\nhost-4\nhost-8\nhost-12\nhost-1\nhost-5\nhost-9\nhost-13\n' >"${work}/across.txt"
smd plan --topology "${NET}" --seeds 2 --collectives ring,alltoall --job "${work}/across.txt" \
  --placement contiguous:16 --format json --report "${work}/report.html" --lft-dump "${work}/lfts.txt" \
  >"${work}/plan.json" || fail "smd plan --report exited $?"
python3 "${HERE}/check_report.py" "${work}/report.html" "${work}/plan.json" || fail "report against its JSON"

python3 - "${NET}" "${work}/lfts.txt" "${work}/plan.json" "${work}/across.txt" <<'PY' || fail "ib-static witness"
import json, re, sys
from collections import Counter
net, dump, plan, job = sys.argv[1:5]
peer, node = {}, None  # (node, port) -> (node, port), from the netfile's cable lines
for line in open(net):
    m = re.match(r'^(?:Switch|Hca)\s+\d+\s+"([^"]+)"', line)
    if m:
        node = m.group(1)
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if m and node:
        peer[(node, int(m.group(1)))] = (m.group(2), int(m.group(3)))
lft, cur = {}, None  # switch name -> {lid: port}
for line in open(dump):
    m = re.match(r'^switch 0x[0-9a-f]{16} "(.*)" DR .* top', line)
    if m:
        cur = m.group(1)
        lft[cur] = {}
        continue
    m = re.match(r'^(0x[0-9a-f]{4}) (\d+)$', line.strip())
    if m and cur:
        lft[cur][int(m.group(1), 16)] = int(m.group(2))
# A host's LID: the one its leaf forwards out of the port cabled to it.
lid = {}
for sw, table in lft.items():
    for l, p in table.items():
        far = peer.get((sw, p))
        if far and far[0] not in lft:
            lid[far[0]] = l
hosts = [h.strip() for h in open(job) if h.strip()]
load = Counter()
for i, src in enumerate(hosts):
    dst = hosts[(i + 1) % len(hosts)]
    sw, _ = peer[(src, 1)]
    for _ in range(16):
        p = lft[sw][lid[dst]]
        nxt = peer[(sw, p)]
        if nxt[0] == dst:
            break
        load[(sw, p)] += 1  # a switch-to-switch out-port
        sw = nxt[0]
    else:
        sys.exit(f"{src} -> {dst} loops")
ring = next(c for c in json.load(open(plan))["roce"]["comparison"]["collectives"]
            if c["name"] == "ring-allreduce" and c["job"] == job)
static = ring["schemes"][0]
assert static["name"] == "ib-static", static
top = sorted(load.values(), reverse=True)
got = static["hottest_cables"]
assert [c["load"] for c in got] == top[:3], (got, top[:3])
for c in got:
    assert load[(c["from"], c["from_port"])] == c["load"], (c, load[(c["from"], c["from_port"])])
    assert peer[(c["from"], c["from_port"])] == (c["to"], c["to_port"]), c
assert static["cables_at_max_load"] == top.count(top[0]), (static["cables_at_max_load"], top)
print(f"ib-static ring: hottest loads {top[:3]}, {top.count(top[0])} cable(s) at the top, as traced")
PY

LS="${SRC}/tests/fabrics/leafspine.net"
smd plan --topology "${LS}" --seeds 2 --collectives ring,alltoall --format json --fail 'leaf-0[5]' \
  --report "${work}/fail.html" >"${work}/fail.json" || fail "smd plan --fail --report exited $?"
python3 "${HERE}/check_report.py" "${work}/fail.html" "${work}/fail.json" --lost leaf-0 5 || fail "report after a loss"

if smd plan --topology "${LS}" --drain spine-0 --report "${work}/drain.html" >"${work}/out" 2>"${work}/err"; then
  fail "--report with --drain was accepted"
else
  rc=$?
fi
[[ ${rc} -eq 2 ]] || fail "--report with --drain: exit ${rc}, want 2"
grep -q -- "--report" "${work}/err" || { cat "${work}/err"; fail "the error does not name --report"; }
# An empty file name is a bad argument (exit 2, naming the option), not a run that writes nothing and exits 0;
# so is any other output's.
for opt in --report --svg --lft-dump; do
  if smd plan --topology "${LS}" "${opt}" '' >"${work}/out" 2>"${work}/err"; then
    fail "${opt} '' was accepted"
  else
    rc=$?
  fi
  [[ ${rc} -eq 2 ]] && grep -q -- "${opt}.*empty file name" "${work}/err" ||
    fail "${opt} '': exit ${rc}: $(cat "${work}/err")"
done
echo "smd plan --report: page, witness and loss as expected; an empty file name exits 2"
