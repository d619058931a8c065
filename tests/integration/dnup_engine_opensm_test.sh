#!/usr/bin/env bash
# The dnup engine (issue 41) with OpenSM 3.3.23's `-R dnup` as the witness, on two fabrics: the bundled 4-ary
# 3-tree (tests/fabrics/kary4-3.net: CAs on the leaves only) and a leaf/spine with two storage CAs on spine-0
# (`smd-fabric leafspine --hosts-per-spine 2 --spines-with-hosts 1`: the case dnup is for). For each, OpenSM
# routes a first ibsim once (`opensm -o -R dnup`) and its LFTs are read back with ibroute/smpdump
# (read_lfts.py); then smd --once with `engines: [dnup]` and OpenSM's guid2lid routes a FRESH ibsim of the
# same netfile and its LFTs are read back too. What must hold, judged from the read-back tables alone
# (check_fabric.py, no smd code): smd delivers every LID from every switch, and its single-VL channel
# dependency graph is acyclic; OpenSM delivers every CA LID from every switch too. A third fabric, the
# bundled 4-switch ring with CAs on every switch, shows why smd orders cables between equal ranks: OpenSM's
# tables there have a channel dependency cycle, smd's none. The tables need not be
# equal (OpenSM's cables between equal ranks are free both ways; it balances by its own port counters and
# leaves LIDs between top switches unrouted): the test prints how many entries are equal.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
READ="${SMD_SOURCE_DIR}/tests/integration/read_lfts.py"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# witness NAME NETFILE SWITCHES CAS [cycle]: OpenSM then smd on NETFILE, LFTs read back and compared; with
# `cycle`, OpenSM's read-back tables must have a channel dependency cycle. Leaves smd's ibsim running.
witness() {
  local name=$1 net=$2 switches=$3 cas=$4 osm_cycle=${5:-}
  ibsim_start "${net}"
  mkdir -p "${w}/osm-${name}"
  (cd "${w}" && exec env OSM_CACHE_DIR="${w}/osm-${name}" LD_PRELOAD="${SIM_PRELOAD}" timeout 120 opensm -o \
    -R dnup -f "${w}/osm-${name}.log" >"${w}/osm-${name}.out" 2>&1) &
  local osm=$!
  ibsim_track "${osm}"
  wait "${osm}" || fail "${name}: opensm -o exited $?"
  grep -q "SUBNET UP" "${w}/osm-${name}.log" || fail "${name}: OpenSM did not bring the subnet up"
  grep -q "dnup" "${w}/osm-${name}.log" || fail "${name}: OpenSM did not route with dnup"
  sim timeout 120 python3 "${READ}" >"${w}/osm-${name}.live" || fail "${name}: reading OpenSM's LFTs back"
  if [[ -n ${osm_cycle} ]]; then
    if check_with_diags --deadlock-free >"${w}/osm-${name}-cdg.out" 2>&1; then
      fail "${name}: OpenSM's dnup tables are acyclic, expected a cycle"
    fi
    grep -q "channel dependency cycle" "${w}/osm-${name}-cdg.out" ||
      { cat "${w}/osm-${name}-cdg.out" >&2; fail "${name}: OpenSM's tables: no cycle named"; }
    echo "${name}: OpenSM's dnup tables have a channel dependency cycle (equal ranks are free both ways)"
  fi
  ibsim_stop
  rm -rf "${w}/state"
  mkdir -p "${w}/state"
  cp "${w}/osm-${name}/guid2lid" "${w}/state/guid2lid"
  once_bringup "${net}" "${switches}" "${cas}" "routing:" "  engines: [dnup]" >"${w}/once-${name}.out" ||
    { cat "${w}/once-${name}.out" >&2; fail "${name}: smd --once"; }
  grep -q "routing:  engine dnup" "${ONCE_OUT}" || fail "${name}: smd did not route with dnup"
  sim timeout 120 python3 "${READ}" >"${w}/smd-${name}.live" || fail "${name}: reading smd's LFTs back"
  check_with_diags --expect-switches "${switches}" --expect-cas "${cas}" --deadlock-free ||
    fail "${name}: smd's dnup tables do not deliver everything or are not deadlock free"
  # Both tables side by side: every CA LID routed by both at every switch, and the entries that agree.
  python3 - "${w}/osm-${name}.live" "${w}/smd-${name}.live" "${w}/osm-${name}/guid2lid" "${name}" <<'PY' ||
import sys
osm_file, smd_file, guid2lid, name = sys.argv[1:5]

def tables(path):
    out, cur = {}, None
    for line in open(path):
        if line.startswith('0x'):
            cur = out.setdefault(int(line.split()[0], 16), {})
        elif line.startswith('  '):
            lid, port = line.split()
            cur[int(lid, 16)] = int(port)
    return out

osm, smd = tables(osm_file), tables(smd_file)
assert osm.keys() == smd.keys(), f"{name}: the two runs read different switches"
lids = {}
for line in open(guid2lid):
    f = line.split()
    if len(f) >= 2 and f[0].startswith('0x'):
        lids[int(f[0], 16)] = int(f[1], 0)
switch_lids = {lids[g] for g in osm if g in lids}
ca_lids = set(lids.values()) - switch_lids
assert ca_lids, f"{name}: no CA LID in OpenSM's guid2lid"
for who, t in (('OpenSM', osm), ('smd', smd)):
    for sw, entries in t.items():
        missing = ca_lids - entries.keys()
        assert not missing, f"{name}: {who} leaves CA LIDs {sorted(missing)[:5]} unrouted at switch {sw:#x}"
all_lids = ca_lids | switch_lids
def count(t, subset):
    return sum(1 for sw in t for lid in subset if lid in t[sw])
def equal(subset):
    return sum(1 for sw in osm for lid in subset if lid in osm[sw] and osm[sw].get(lid) == smd[sw].get(lid))
n = len(osm)
print(f"{name}: {n} switches, {len(ca_lids)} CA LIDs, {len(switch_lids)} switch LIDs;"
      f" CA entries equal {equal(ca_lids)}/{n * len(ca_lids)};"
      f" switch-LID entries OpenSM {count(osm, switch_lids)}, smd {count(smd, switch_lids)}"
      f" of {n * len(switch_lids)}, equal {equal(switch_lids)}")
assert count(smd, all_lids) == n * len(all_lids), f"{name}: smd leaves entries unrouted"
PY
    fail "${name}: comparing the tables"
}

witness kary4-3 "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" 48 64
ibsim_stop

"${SMD_BUILD_DIR}/smd/smd-fabric" leafspine --leaves 4 --spines 2 --hosts-per-leaf 4 --hosts-per-spine 2 \
  --spines-with-hosts 1 -o "${w}/spine-storage.net"
witness spine-storage "${w}/spine-storage.net" 6 18
ibsim_stop

# The bundled ring: every switch has CAs, all rank 0. OpenSM routes it min-hop, around the ring both ways;
# smd orders the one plateau and stays acyclic.
witness ring "${SMD_SOURCE_DIR}/tests/fabrics/ring.net" 4 8 cycle
echo "PASS: dnup routes every LID deadlock free where OpenSM's -R dnup routes every CA LID (kary4-3, spine storage, ring)"
