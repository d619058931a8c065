#!/usr/bin/env bash
# ftree's compute-node and I/O-node lists against OpenSM's cn_guid_file / io_guid_file / max_reverse_hops,
# judged by infiniband-diags on ibsim. The fabric, written below: a 2-level tree of 4 leaves (8 ports) and
# 4 spines (5 ports), 4 hosts per leaf (host-0..15, the compute nodes) and one I/O node on port 5 of every
# spine (io-0..3). An I/O node on a spine has no up*/down* route from the other spines: they reach it
# down to a leaf and up again, one reverse hop. GUIDs are ibsim's counters (tests/fabrics/README.md):
# host-i port 0x100000 + 2i + 1, io-j port 0x100000 + 2(16 + j) + 1, leaf-i 0x200000 + i, spine-j
# 0x200004 + j. Runs, each on a fresh fabric:
#   osm:  `opensm -o -R ftree -a ROOTS -u CN -G IO -H 1` (OpenSM ranks from every CA without roots, so
#         I/O nodes off the leaf level need its root_guid_file)
#   smd:  `smd --once`, routing.engines [ftree], cn_guids_file CN, io_guids_file IO, max_reverse_hops 1
#         (no roots: smd counts levels from the compute nodes alone)
#   zero: the same smd with max_reverse_hops 0: ftree must decline, naming a spine and the reverse hop
# Every switch's LFT is read back by name (read_routes.py: ibnetdiscover, ibroute, smpdump) and walked by
# ftree_io_check.py (levels counted from the switches with compute nodes):
#   - compute-to-compute: every shift i -> (i + k) mod 16 of host-0..15 (leaf by leaf, the CN order both
#     engines index), k = 1..15: the most flows on one switch-to-switch cable, for both SMs; smd's must be 1;
#   - I/O reachability: every (switch, I/O node) and every (CA, I/O node) and (I/O node, CA) pair walked:
#     delivered or not, and the most reverse hops (down-then-up turns) on a delivered route; smd's must all
#     be delivered within 1 reverse hop, and OpenSM's count is printed beside it.
# Measured here: both SMs shift max load 1; every I/O route delivered by both, smd within 1 reverse hop.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
READ="$(cd "$(dirname "$0")" && pwd)/read_routes.py"
NET="${w}/ftree-io.net"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The netfile: host-0 first (ibsim attaches the SM there), then the I/O nodes, leaves and spines.
{
  for i in $(seq 0 15); do printf 'Hca 1 "host-%d"\n[1] "leaf-%d"[%d]\n\n' "${i}" $((i / 4)) $((i % 4 + 1)); done
  for j in 0 1 2 3; do printf 'Hca 1 "io-%d"\n[1] "spine-%d"[5]\n\n' "${j}" "${j}"; done
  for i in 0 1 2 3; do
    printf 'Switch 8 "leaf-%d"\n' "${i}"
    for p in 1 2 3 4; do printf '[%d] "host-%d"[1]\n' "${p}" $((4 * i + p - 1)); done
    for j in 0 1 2 3; do printf '[%d] "spine-%d"[%d]\n' $((5 + j)) "${j}" $((i + 1)); done
    echo
  done
  for j in 0 1 2 3; do
    printf 'Switch 5 "spine-%d"\n' "${j}"
    for i in 0 1 2 3; do printf '[%d] "leaf-%d"[%d]\n' $((i + 1)) "${i}" $((5 + j)); done
    printf '[5] "io-%d"[1]\n\n' "${j}"
  done
} >"${NET}"
for i in $(seq 0 15); do printf '0x%016x\n' $((0x100000 + 2 * i + 1)); done >"${w}/cn"
for j in 0 1 2 3; do printf '0x%016x\n' $((0x100000 + 2 * (16 + j) + 1)); done >"${w}/io"
for j in 0 1 2 3; do printf '0x%016x\n' $((0x200004 + j)); done >"${w}/roots"

t0=${SECONDS}
# OpenSM once, then its tables by name.
ibsim_start "${NET}"
mkdir -p "${w}/osm-cache"
sim env OSM_CACHE_DIR="${w}/osm-cache" timeout 120 opensm -o -R ftree -a "${w}/roots" -u "${w}/cn" -G "${w}/io" \
  -H 1 -f "${w}/osm.log" >"${w}/osm.out" 2>&1 || true
grep -q "SUBNET UP" "${w}/osm.log" || { tail -n 20 "${w}/osm.log" >&2; fail "OpenSM -R ftree did not bring the subnet up"; }
grep -q "ftree tables configured on all switches" "${w}/osm.log" ||
  { grep -i "ftree\|routing" "${w}/osm.log" | tail -n 10 >&2; fail "OpenSM's ftree did not route (fell back)"; }
sim timeout 240 python3 "${READ}" >"${w}/osm.json"
ibsim_stop

# smd with the same lists and one reverse hop.
ibsim_start "${NET}"
write_policy "${w}/smd.yaml" "${w}/state-smd" "routing:" "  engines: [ftree]" "  ftree:" \
  "    cn_guids_file: ${w}/cn" "    io_guids_file: ${w}/io" "    max_reverse_hops: 1"
if ! sim timeout 120 "${SMD_BIN}" --once --config "${w}/smd.yaml" >"${w}/smd.out" 2>"${w}/smd.err"; then
  tail -n 30 "${w}/smd.err" >&2
  fail "smd --once with the lists did not bring the subnet up"
fi
grep -q "SUBNET UP" "${w}/smd.out" || fail "smd --once: no SUBNET UP"
if grep -q "skipped" "${w}/smd.err"; then
  grep "skipped" "${w}/smd.err" >&2
  fail "smd skipped GUIDs of the CN or I/O file"
fi
sim timeout 240 python3 "${READ}" >"${w}/smd.json"
ibsim_stop

# The control: no reverse hop allowed, ftree alone in the chain: nothing may be programmed.
ibsim_start "${NET}"
write_policy "${w}/zero.yaml" "${w}/state-zero" "routing:" "  engines: [ftree]" "  ftree:" \
  "    cn_guids_file: ${w}/cn" "    io_guids_file: ${w}/io" "    max_reverse_hops: 0"
if sim timeout 120 "${SMD_BIN}" --once --config "${w}/zero.yaml" >"${w}/zero.out" 2>"${w}/zero.err"; then
  fail "smd --once with max_reverse_hops 0 brought the subnet up: an I/O node on a spine needs a reverse hop"
fi
grep -q "only with 1 reverse hop, routing.ftree.max_reverse_hops is 0" "${w}/zero.err" "${w}/zero.out" ||
  { tail -n 20 "${w}/zero.err" >&2; fail "smd with max_reverse_hops 0 did not say which switch needs a reverse hop"; }
ibsim_stop

CHECK="$(cd "$(dirname "$0")" && pwd)/ftree_io_check.py"
python3 "${CHECK}" --readback "${w}/osm.json" --cn-prefix host- --io-prefix io- >"${w}/osm.check" || fail "ftree_io_check (OpenSM)"
python3 "${CHECK}" --readback "${w}/smd.json" --cn-prefix host- --io-prefix io- >"${w}/smd.check" || fail "ftree_io_check (smd)"
python3 - "${w}/osm.check" "${w}/smd.check" <<'PY'
import json, sys
osm, smd = (json.load(open(f)) for f in sys.argv[1:3])
for name, r in (("OpenSM ftree -H 1", osm), ("smd ftree max_reverse_hops 1", smd)):
    print(f"{name}: CN shift max load {r['cn_shift_max_load']}; I/O routes delivered "
          f"{r['io_delivered']}/{r['io_routes']}, most reverse hops {r['io_max_reverse_hops']}")
errors = []
if smd["cns"] != 16 or smd["ios"] != 4 or smd["io_routes"] != 172:
    errors.append(f"read back {smd['cns']} CNs, {smd['ios']} I/O nodes, {smd['io_routes']} I/O routes, "
                  "not 16, 4 and 172")
if smd["cn_shift_max_load"] != 1:
    errors.append(f"smd's compute-node shift max load is {smd['cn_shift_max_load']}, not 1")
if smd["io_delivered"] != smd["io_routes"] or smd["io_max_reverse_hops"] > 1:
    errors.append(f"smd delivers {smd['io_delivered']}/{smd['io_routes']} I/O routes with up to "
                  f"{smd['io_max_reverse_hops']} reverse hops, not all within 1")
if osm["cn_shift_max_load"] is not None and smd["cn_shift_max_load"] > osm["cn_shift_max_load"]:
    errors.append(f"smd's shift max load is above OpenSM's {osm['cn_shift_max_load']}")
if errors:
    sys.exit("FAIL: " + "; ".join(errors))
PY
echo "PASS: ftree_io_nodes_test ($((SECONDS - t0)) s)"
