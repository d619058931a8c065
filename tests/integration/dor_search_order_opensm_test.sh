#!/usr/bin/env bash
# dor's dimension order from a port_search_ordering_file (OpenSM's -O, its dor meaning; issue 41), with
# OpenSM 3.3.23's `-R dor -O FILE` as the witness, on a 4x4 mesh from smd-fabric (one host per switch). The
# file, written here from ibnetdiscover before any SM runs, lists every switch's dimension-1 ports (its
# neighbours that differ in the second coordinate of the "sw-x-y" name) first, so every route corrects Y
# before X, the reverse of the cabling's port order. OpenSM routes a first ibsim once and its LFTs are read
# back (read_lfts.py); smd --once with `engines: [dor]`, routing.dor.port_search_ordering_file FILE and
# OpenSM's guid2lid routes a fresh ibsim of the same netfile: every switch must hold exactly what OpenSM
# programmed (dor is deterministic). check_fabric.py then finds every LID delivered on shortest paths and the
# channel-dependency graph acyclic (Y-then-X is a dimension order too), and smd without the file (the
# control, X first) differs.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
READ="${SMD_SOURCE_DIR}/tests/integration/read_lfts.py"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

t0=${SECONDS}
net="${w}/mesh.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" mesh --dims 4x4 --hosts-per-switch 1 -o "${net}"
ibsim_start "${net}"
sim timeout 60 ibnetdiscover >"${w}/fabric.txt" || fail "ibnetdiscover before any SM"
ibsim_stop
python3 - "${w}/fabric.txt" >"${w}/search" <<'PY'
import re, sys
# Switch headers name the node "S-<GUID>" and its description; port lines name the peer's description.
HDR = re.compile(r'^Switch\s+\d+\s+"S-([0-9a-fA-F]{16})"\s*#\s*"([^"]+)"')
PORT = re.compile(r'^\[(\d+)\]\s+"S-[0-9a-fA-F]{16}"\[\d+\].*#\s*"([^"]+)"')
lines, cur = [], None
for line in open(sys.argv[1]):
    m = HDR.match(line)
    if m:
        cur = [m.group(1), m.group(2).split("-")[1:], []]
        lines.append(cur)
        continue
    m = PORT.match(line)
    if m and cur is not None and m.group(2).split("-")[2] != cur[1][1]:
        cur[2].append(m.group(1))
for guid, _xy, ports in lines:
    if ports:
        print(f"0x{guid} {' '.join(ports)}  # dimension 1 first")
PY
[[ $(wc -l <"${w}/search") -eq 16 ]] || { cat "${w}/search" >&2; fail "the search file does not list the 16 switches"; }

ibsim_start "${net}"
mkdir -p "${w}/osm"
sim env OSM_CACHE_DIR="${w}/osm" timeout 120 opensm -o -R dor -O "${w}/search" -f "${w}/osm.log" >"${w}/osm.out" 2>&1 || true
grep -q "SUBNET UP" "${w}/osm.log" || fail "OpenSM did not bring the subnet up"
sim timeout 120 python3 "${READ}" >"${w}/osm.live" || fail "reading OpenSM's LFTs back"
ibsim_stop

rm -rf "${w}/state"
mkdir -p "${w}/state"
cp "${w}/osm/guid2lid" "${w}/state/guid2lid"
once_bringup "${net}" 16 16 "routing:" "  engines: [dor]" "  dor:" "    port_search_ordering_file: ${w}/search" \
  >"${w}/once.out" || { cat "${w}/once.out" >&2; fail "smd --once with the file"; }
grep -q "routing:  engine dor" "${ONCE_OUT}" || fail "smd did not route with dor"
sim timeout 120 python3 "${READ}" >"${w}/smd.live" || fail "reading smd's LFTs back"
diff -u "${w}/osm.live" "${w}/smd.live" >&2 || fail "smd's LFTs differ from OpenSM's -R dor -O"
check_with_diags --expect-switches 16 --expect-cas 16 --min-hop --deadlock-free || fail "not shortest or not deadlock free"
ibsim_stop

once_bringup "${net}" 16 16 "routing:" "  engines: [dor]" >"${w}/plain.out" || fail "smd --once without the file"
sim timeout 120 python3 "${READ}" >"${w}/plain.live" || fail "reading smd's plain LFTs back"
ibsim_stop
if diff -q "${w}/smd.live" "${w}/plain.live" >/dev/null; then fail "the search order changed nothing"; fi
echo "PASS: dor_search_order_opensm_test: $(grep -c '^  ' "${w}/smd.live") entries equal to OpenSM's -R dor -O," \
  "Y before X, deadlock free ($((SECONDS - t0)) s)"
