#!/usr/bin/env bash
# `smd plan --drain` on tests/fabrics/kary4-3.net (no fabric needed). The expected figures come from the
# netfile itself (hosts counted with awk), not from smd: a bad name is refused (exit 2, the argument named);
# one leaf up-cable drained loses nothing (exit 0); both up-cables of a leaf cut its h hosts off the other
# N-h (2*h*(N-h) ordered pairs) while they still reach one another (exit 5, no port cut off); the whole
# leaf drained also loses the h*(h-1) pairs among its hosts, and exactly its hosts are cut off.
set -euo pipefail
SMD="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
NET="${SMD_SOURCE_DIR:?}/tests/fabrics/kary4-3.net"
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT

# Run smd plan with a bound; sets rc, leaves stdout in $work/out and stderr in $work/err.
plan() {
  set +e
  timeout 60 "${SMD}" plan --topology "${NET}" "$@" >"${work}/out" 2>"${work}/err"
  rc=$?
  set -e
}
# A field of the JSON report on stdout.
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "${work}/out" "$1"; }

N=$(grep -c '^Hca' "${NET}")
# Hosts cabled to leaf sw-L0-1, read off its block of port lines.
leaf_hosts() { awk -v sw="\"$1\"" '$1=="Switch"{on=($3==sw); next} on && /"host-/{split($2,a,"\""); print a[2]}' "${NET}"; }
h=$(leaf_hosts sw-L0-1 | wc -l)
[[ ${N} -gt 0 && ${h} -gt 0 ]] || fail "netfile parse: N=${N} h=${h}"

plan --drain 'sw-L9-9'
[[ ${rc} == 2 ]] || fail "unknown switch: exit ${rc}"
grep -qx "smd plan: --drain 'sw-L9-9': no node is named 'sw-L9-9'" "${work}/err" || fail "unknown switch said: $(cat "${work}/err")"
[[ ! -s ${work}/out ]] || fail "unknown switch printed a report"
plan --drain '"sw-L0-0"[9]'
[[ ${rc} == 2 ]] && grep -q "has no port 9 (ports 1..8)" "${work}/err" || fail "bad port: ${rc} $(cat "${work}/err")"

plan --drain sw-L2-0 --drain 0x0000000000200020
[[ ${rc} == 2 ]] || fail "one switch twice: exit ${rc}"
grep -qx "smd plan: --drain '0x0000000000200020': the same switch as 'sw-L2-0'; name each part once" "${work}/err" ||
  fail "one switch twice said: $(cat "${work}/err")"

# A switch with a cable of its own (sw-L2-0 port 1, to sw-L1-0 port 5, named from the far end) is said in
# the report, not refused: the report is made as for the switch alone.
plan --drain sw-L2-0 --drain '"sw-L1-0"[5]'
[[ ${rc} == 0 ]] && grep -qx "note          '\"sw-L1-0\"\[5\]' is a cable of switch 'sw-L2-0' (drained with it)" "${work}/out" ||
  fail "a switch and its own cable: exit ${rc}: $(head -5 "${work}/out") $(cat "${work}/err")"

plan --drain sw-L2-0 --compare
[[ ${rc} == 2 ]] && grep -q "^smd plan: --drain reports on InfiniBand routing only" "${work}/err" ||
  fail "--drain --compare: ${rc} $(cat "${work}/err")"

plan --drain '"sw-L0-0"[5]' --format json
[[ ${rc} == 0 ]] || fail "one up-cable: exit ${rc}: $(cat "${work}/err")"
[[ $(field lost_pairs) == 0 && $(field cut_off_ports) == 0 && $(field cables_drained) == 1 ]] ||
  fail "one up-cable: lost $(field lost_pairs), cut off $(field cut_off_ports)"
[[ $(field reachable_pairs_after) == $((N * (N - 1))) ]] || fail "one up-cable: reachable $(field reachable_pairs_after)"
[[ $(field lft_blocks) -gt 0 ]] || fail "one up-cable: no LFT block would change"

# Every cable of sw-L0-1 to another switch, in both accepted forms (NAME[PORT], then GUID/PORT for the last).
mapfile -t up < <(awk '$1=="Switch"{on=($3=="\"sw-L0-1\""); next} on && /"sw-/{gsub(/[][]/,"",$1); print $1}' "${NET}")
[[ ${#up[@]} -ge 2 ]] || fail "netfile parse: up-links of sw-L0-1: ${up[*]}"
drains=()
for p in "${up[@]::${#up[@]}-1}"; do drains+=(--drain "sw-L0-1[${p}]"); done
drains+=(--drain "0x0000000000200001/${up[-1]}")
plan "${drains[@]}" --format json
[[ ${rc} == 5 ]] || fail "leaf up-cables: exit ${rc}"
[[ $(field lost_pairs) == $((2 * h * (N - h))) ]] || fail "leaf up-cables: lost $(field lost_pairs), want $((2 * h * (N - h)))"
[[ $(field cut_off_ports) == 0 && $(field cables_drained) == "${#up[@]}" ]] ||
  fail "leaf up-cables: $(field cut_off_ports) ports cut off, $(field cables_drained) cables"

plan --drain sw-L0-1 --format json
[[ ${rc} == 5 ]] || fail "leaf: exit ${rc}"
grep -q "^smd plan: the drain would cut off $((2 * h * (N - h) + h * (h - 1))) ordered CA pairs ($h CA ports" \
  "${work}/err" || fail "leaf said: $(cat "${work}/err")"
[[ $(field lost_pairs) == $((2 * h * (N - h) + h * (h - 1))) ]] || fail "leaf: lost $(field lost_pairs)"
got=$(python3 -c 'import json,sys; print("\n".join(sorted(p["port"].split("[")[0] for p in json.load(open(sys.argv[1]))["first_cut_off_ports"])))' "${work}/out")
[[ ${got} == "$(leaf_hosts sw-L0-1 | sort)" ]] || fail "leaf: cut off ${got}"

# Both failures at once: the LFT dump cannot be written (its folder is a file) and the leaf's hosts are cut
# off. The report is still printed, stderr says both, and the exit is the cut-off's 5, not the write's 4.
touch "${work}/not-a-dir"
plan --drain sw-L0-1 --lft-dump "${work}/not-a-dir/after.lft"
[[ ${rc} == 5 ]] || fail "leaf, unwritable dump: exit ${rc}: $(cat "${work}/err")"
grep -q "not-a-dir/after.lft" "${work}/err" || fail "leaf, unwritable dump: the write failure is not said: $(cat "${work}/err")"
grep -q "^smd plan: the drain would cut off .* (exit 5 wins over 4)$" "${work}/err" ||
  fail "leaf, unwritable dump: the cut-off is not said: $(cat "${work}/err")"
grep -q "^lost pairs    $((2 * h * (N - h) + h * (h - 1))) " "${work}/out" || fail "leaf, unwritable dump: no report"

plan --drain sw-L2-0 --lft-dump "${work}/after.lft"
[[ ${rc} == 0 ]] || fail "spine: exit ${rc}: $(cat "${work}/err")"
grep -q "^lost pairs    0$" "${work}/out" && grep -q "^reachable     $((N * (N - 1))) -> $((N * (N - 1))) " "${work}/out" ||
  fail "spine: $(cat "${work}/out")"
# The dump holds the tables after the drain: the spine routes only its own LID (port 0), and no switch
# sends anything down a cable to it (its cables read off the netfile).
python3 - "${NET}" "${work}/after.lft" <<'PY' || fail "spine: the LFT dump still uses sw-L2-0"
import re, sys
net, dump = sys.argv[1], sys.argv[2]
to_spine, cur = set(), None
for line in open(net):
    m = re.match(r'^Switch \d+ "([^"]+)"', line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
    if m and cur and m.group(2) == "sw-L2-0":
        to_spine.add((cur, int(m.group(1))))
assert len(to_spine) == 4, to_spine
entries, cur = {}, None
for line in open(dump):
    m = re.match(r'^switch \S+ "([^"]*)"', line)
    if m:
        cur = m.group(1)
        entries[cur] = []
    elif not line.startswith("#"):
        lid, port = line.split()
        entries[cur].append(int(port))
assert entries["sw-L2-0"] == [0], entries["sw-L2-0"]
used = [(sw, p) for sw, ports in entries.items() for p in ports if (sw, p) in to_spine]
assert not used, used[:5]
print(f"after.lft: {len(entries)} switches, none forwards to sw-L2-0")
PY
echo PASS
