#!/usr/bin/env bash
# `smd plan --compare` on a rail-optimized fabric through the real command line, no ibsim: smd-fabric rail
# (2 units x 4 hosts x 4 rails, 4 spines) writes hosts of 4 HCAs "host-H mlx5_I"; the comparison finds the
# 8 hosts, places jobs in whole hosts and times collectives as NCCL runs them (docs/roce.md). By hand, for a
# job of H hosts, n = 4H ranks: ring all-reduce ideal 2(n-1)/(4n) (one ring per rail, S/(R n) a step), PXN
# all-to-all (H-1) x 4/n, moe:8 (2-host expert groups) 4/8; moe:4 stays inside hosts and is left out.
# contiguous:16 is the first 4 hosts of the CA order: the hosts of the first leaf, all in one unit, whose 4
# rail leaves then carry every flow: no flow leaves a leaf, every scheme at ideal.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
FABRIC_TOOL="${SMD_BUILD_DIR}/smd/smd-fabric"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
smd() { timeout 60 "${SMD_BIN}" "$@"; }

NET="${work}/rail.net"
"${FABRIC_TOOL}" rail --sus 2 --hosts-per-su 4 --rails 4 --spines 4 -o "${NET}"
printf '# two hosts, one per unit, by host name\nhost-0\nhost-5\n' >"${work}/job.txt"
smd plan --topology "${NET}" --seeds 1 --compare --format json --collectives ring,alltoall,moe:4,moe:8 \
  --job "${work}/job.txt" --placement contiguous:16 --placement fragmented:16,0.5,across >"${work}/plan.json" ||
  fail "smd plan on the rail fabric exited $?"
python3 - "${work}/plan.json" <<'PY' || fail "figures"
import json, sys
cmp = json.load(open(sys.argv[1]))["roce"]["comparison"]
notes = cmp["notes"]
assert any("multi-HCA hosts: 8 hosts x 4 HCAs" in n for n in notes), notes
assert sum("moe-alltoall:4 left out" in n for n in notes) == 3, notes
jobs = {}
for c in cmp["collectives"]:
    jobs.setdefault(c["job"], {})[c["name"]] = c
assert list(jobs) == [sys.argv[1].rsplit("/", 1)[0] + "/job.txt", "contiguous:16", "fragmented:16,0.5,across"], list(jobs)
hosts = {"contiguous:16": 4, "fragmented:16,0.5,across": 4}
hosts[list(jobs)[0]] = 2
leaves = {"contiguous:16": 4, "fragmented:16,0.5,across": 8, list(jobs)[0]: 8}
for job, cols in jobs.items():
    h = hosts[job]
    n = 4 * h
    assert list(cols) == ["ring-allreduce", "alltoall", "moe-alltoall:8"], (job, list(cols))
    ideal = {"ring-allreduce": 2 * (n - 1) / (4 * n), "alltoall": (h - 1) * 4 / n, "moe-alltoall:8": 0.5}
    for name, c in cols.items():
        assert c["ranks"] == n and c["leaves"] == leaves[job], (job, c)
        assert abs(c["ideal_time"] - ideal[name]) < 1e-12, (job, name, c["ideal_time"], ideal[name])
        for s in c["schemes"]:
            assert s["relative_time"] >= 1 - 1e-12 and s["unrouted"] == 0, (job, name, s)
            if job == "contiguous:16":
                assert abs(s["relative_time"] - 1) < 1e-12, (job, name, s)
    ring = cols["ring-allreduce"]["schemes"][0]
    assert abs(ring["bus_bandwidth"] - 4 / ring["relative_time"]) < 1e-9, ring  # ideal busBw = R = 4
PY
echo "smd plan on a rail fabric: hosts, jobs and ideal times as worked out"

expect_bad() {  # expect_bad WORDS ARGS...: exit 2 and WORDS on stderr
  local words=$1 rc=0
  shift
  smd plan --topology "${NET}" --seeds 1 --compare "$@" >/dev/null 2>"${work}/err" || rc=$?
  [[ ${rc} -eq 2 ]] || fail "$* exited ${rc}, expected 2"
  grep -qF "${words}" "${work}/err" || { cat "${work}/err" >&2; fail "$*: no '${words}'"; }
}
expect_bad "6 ranks are not whole hosts of 4 HCAs" --collectives ring --placement contiguous:6
printf 'host-1\nhost-0 mlx5_2\n' >"${work}/part.txt"
expect_bad "part.txt:2: host 'host-0' has 4 HCAs and the job names 1 of them" --collectives ring --job "${work}/part.txt"
expect_bad "neither whole hosts" --collectives moe:6
echo "smd plan on a rail fabric: partial hosts and odd expert groups refused"

# Every collective asked left out (moe:4 stays inside hosts): the page names what was asked and why, not
# "--collectives none".
smd plan --topology "${NET}" --seeds 1 --collectives moe:4 --job "${work}/job.txt" --report "${work}/moe4.html" \
  >/dev/null || fail "smd plan --collectives moe:4 --report exited $?"
grep -qF "No collectives were timed: every one of --collectives moe:4 was left out." "${work}/moe4.html" &&
  grep -qF "moe-alltoall:4 left out" "${work}/moe4.html" && ! grep -qF -- "--collectives none" "${work}/moe4.html" ||
  fail "the page on moe:4: $(grep -o 'No collectives[^<]*' "${work}/moe4.html")"
echo "smd plan --report: every collective left out is said as asked"
