#!/usr/bin/env bash
# The file routing engine (issue 41) with OpenSM 3.3.23 as the witness, on tests/fabrics/kary4-3.net
# (48 switches, 64 hosts). OpenSM routes a first ibsim once with its minhop engine and writes
# opensm-lfts.dump (log_flags ROUTING) and its guid2lid (OSM_CACHE_DIR); what it programmed is read back
# with ibroute/smpdump (read_lfts.py). smd's own default chain (ftree) routes this fabric otherwise: about
# 1 row in 5 differs (checked offline below), so only a replay can match. `smd plan` with the file engine
# and OpenSM's guid2lid must reproduce OpenSM's dump byte for byte (and, without that guid2lid, refuse
# the dump because the switches' LIDs moved); then on a FRESH ibsim `smd --once` with the file engine fed
# that dump and OpenSM's guid2lid (copied to its state_dir) must leave every switch holding what OpenSM
# programmed, as ibroute reads it, and check_fabric.py must find every LID delivered.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
NET="${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net"
READ="${SMD_SOURCE_DIR}/tests/integration/read_lfts.py"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# --- OpenSM: one sweep (-o), its dumps and guid2lid kept ---
ibsim_start "${NET}"
mkdir -p "${w}/osm-cache" "${w}/osm-dump"
(cd "${w}" && exec env OSM_CACHE_DIR="${w}/osm-cache" LD_PRELOAD="${SIM_PRELOAD}" timeout 120 opensm -o -R minhop \
  -D 0x43 --dump_files_dir "${w}/osm-dump" -f "${w}/osm.log" >"${w}/osm.out" 2>&1) &
osm=$!
ibsim_track "${osm}"
wait "${osm}" || fail "opensm -o exited $?"
grep -q "SUBNET UP" "${w}/osm.log" || fail "OpenSM did not bring the subnet up"
dump="${w}/osm-dump/opensm-lfts.dump"
g2l="${w}/osm-cache/guid2lid"
[[ -s "${dump}" && -s "${g2l}" ]] || fail "OpenSM wrote no opensm-lfts.dump or guid2lid"
sim timeout 120 python3 "${READ}" >"${w}/osm.live" || fail "reading OpenSM's LFTs back"
python3 "${READ}" --dump "${dump}" >"${w}/osm.file"
diff -u "${w}/osm.file" "${w}/osm.live" >&2 || fail "OpenSM's dump is not what it programmed"
ibsim_stop

# --- Offline: smd's own chain differs; the file engine reproduces the dump ---
"${SMD_BIN}" plan --topology "${NET}" --guid2lid "${g2l}" --opensm-lfts "${w}/own.dump" >/dev/null ||
  fail "smd plan with the default chain"
python3 "${READ}" --dump "${w}/own.dump" >"${w}/own.file"
if cmp -s "${w}/own.file" "${w}/osm.file"; then fail "smd's default chain already routes as OpenSM did: no witness"; fi
write_policy "${w}/plan.yaml" "${w}/plan-state" "routing:" "  engines: [file]" "  file:" "    lfts_file: ${dump}"
"${SMD_BIN}" plan --topology "${NET}" --config "${w}/plan.yaml" --guid2lid "${g2l}" \
  --opensm-lfts "${w}/replay.dump" >"${w}/plan.out" || { cat "${w}/plan.out" >&2; fail "smd plan with the file engine"; }
cmp "${w}/replay.dump" "${dump}" || fail "smd plan --opensm-lfts of the replay differs from OpenSM's dump"
# Without OpenSM's guid2lid smd numbers the fabric in netfile order: the replay is refused, naming why.
rc=0
"${SMD_BIN}" plan --topology "${NET}" --config "${w}/plan.yaml" >"${w}/nolids.out" 2>&1 || rc=$?
[[ ${rc} -eq 3 ]] || { cat "${w}/nolids.out" >&2; fail "replay without OpenSM's LIDs: exit ${rc}, expected 3"; }
grep -qF "in the dump: run with the guid2lid of the fabric the dump was made on" "${w}/nolids.out" ||
  { cat "${w}/nolids.out" >&2; fail "replay without OpenSM's LIDs: no reason given"; }

# --- smd --once on a fresh ibsim of the same netfile, with OpenSM's dump and guid2lid ---
mkdir -p "${w}/state"
cp "${g2l}" "${w}/state/guid2lid"
once_bringup "${NET}" 48 64 "routing:" "  engines: [file]" "  file:" "    lfts_file: ${dump}"
grep -q "routing:  engine file" "${ONCE_OUT}" || fail "smd did not route with the file engine"
sim timeout 120 python3 "${READ}" >"${w}/smd.live" || fail "reading smd's LFTs back"
diff -u "${w}/osm.live" "${w}/smd.live" >&2 || fail "the switches do not hold what OpenSM programmed"
check_with_diags --expect-switches 48 --expect-cas 64
echo "PASS: $(grep -c top "${w}/smd.live") switches hold OpenSM's LFTs, $(grep -c '^  ' "${w}/smd.live") entries"
