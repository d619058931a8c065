#!/usr/bin/env bash
# The torus-2QoS engine (issue 41) with OpenSM 3.3.23's `-R torus-2QoS` (qos TRUE, --torus_config) as the
# witness, on a 5x5 2D torus with one host per switch (smd-fabric; odd rings, so the same routes on one VL
# close cycles round them: on a 4x4 OpenSM's host routes are acyclic even on one VL), both SMs reading the same
# torus-2QoS.conf (its GUIDs read by ibnetdiscover before any SM runs). Each SM runs as the daemon on its
# own fresh ibsim of the netfile and is judged only by what infiniband-diags and the independent SA client
# read back: every switch's LFT (ibroute), every SL2VL table of every (in, out) port pair (smpquery sl2vl,
# bench/readback.py) and one PathRecord per ordered pair of hosts (its SL; tests/integration/sa_client).
# For both: every route delivered (check_fabric.py), every pair answered, the (cable, VL) dependency graph
# acyclic while the same routes on one VL are cyclic (check_vl_layers.py: the VL may change hop by hop).
# Then smd against OpenSM, by node name (the SMs may assign other LIDs): every LFT entry to a host and
# every PathRecord SL equal.
. "$(dirname "$0")/sa_common.sh"
# shellcheck source=vl_judge.sh
. "$(dirname "$0")/vl_judge.sh"
w=${IBSIM_WORKDIR}
net="${w}/torus5x5.net"
"${SMD_BUILD_DIR}/smd/smd-fabric" torus --dims 5x5 --hosts-per-switch 1 -o "${net}"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# guid_of NAME: the node GUID ibnetdiscover gives the switch named NAME (from ${w}/fabric.txt).
guid_of() {
  local g
  g=$(sed -nE "s/^Switch[[:space:]]+[0-9]+[[:space:]]+\"S-([0-9a-fA-F]{16})\".*# \"$1\".*/\1/p" "${w}/fabric.txt")
  [[ -n ${g} ]] || fail "ibnetdiscover shows no switch $1"
  echo "0x${g}"
}

# judge NAME: read the live fabric back and check it (vl_judge.sh); the summary in ${w}/NAME-layers.json.
judge() {
  judge_vl_routing "$1" 25 25 "--expect-acyclic --expect-all-paths --expect-one-vl-cyclic --min-vls 2 --max-vls 8" ""
}

# --- the geometry, from the fabric's GUIDs: sw-0-0 at the origin, its +x and +y links ---
ibsim_start "${net}"
sim timeout 60 ibnetdiscover >"${w}/fabric.txt" 2>/dev/null || fail "ibnetdiscover"
cat >"${w}/torus-2QoS.conf" <<EOF_CONF
# 5x5 torus from smd-fabric: sw-X-Y
torus 5 5 1
xp_link $(guid_of sw-0-0) $(guid_of sw-1-0)
yp_link $(guid_of sw-0-0) $(guid_of sw-0-1)
EOF_CONF

# --- OpenSM ---
start_opensm osm "" host-0 "qos TRUE" "routing_engine torus-2QoS" "torus_config ${w}/torus-2QoS.conf"
sa_wait_up osm 60
sa_wait_sa 20
grep -q "torus-2QoS" "${w}/osm.log" || fail "OpenSM did not route with torus-2QoS"
judge osm
kill -9 "${OSM_PID_osm}" 2>/dev/null || true
wait "${OSM_PID_osm}" 2>/dev/null || true
ibsim_stop

# --- smd ---
ibsim_start "${net}"
write_policy "${w}/sm.yaml" "${w}/state-sm" "routing:" "  engines: [torus-2QoS]" "  torus_2qos:" \
  "    config_file: ${w}/torus-2QoS.conf" "qos:" "  enabled: true" "  max_vls: 8"
start_daemon sm "${w}/sm.yaml" SIM_HOST=host-0
sa_wait_up sm 60
sa_wait_sa 20
grep -q "engine torus-2QoS" "${w}/sm.log" || fail "smd did not route with torus-2QoS"
judge smd

python3 - "${w}/osm.json" "${w}/smd.json" "${w}/osm.paths.jsonl" "${w}/smd.paths.jsonl" \
  "${w}/osm-layers.json" "${w}/smd-layers.json" <<'PY' || fail "smd and OpenSM differ"
import json, sys
osm, smd = (json.load(open(p)) for p in sys.argv[1:3])

def owners(rb):
    out = {}
    for name, n in rb['nodes'].items():
        if n['type'] == 'ca':
            for p, (lid, _) in n['port_lids'].items():
                out[lid] = f"{name}:{p}"
    return out

def lft_by_name(rb):
    own = owners(rb)
    return {(sw, own[int(lid)]): port for sw, t in rb['lfts'].items() for lid, port in t.items() if int(lid) in own}

def sls(path, rb):
    own = owners(rb)
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r.get('status') == '0x0':
            out[(own[r['slid']], own[r['dlid']])] = r['sl']
    return out

a, b = lft_by_name(osm), lft_by_name(smd)
same = sum(1 for k in a if b.get(k) == a[k])
print(f"LFT entries to hosts equal: {same} of {len(a)} (smd has {len(b)})")
sa, sb = sls(sys.argv[3], osm), sls(sys.argv[4], smd)
same_sl = sum(1 for k in sa if sb.get(k) == sa[k])
print(f"PathRecord SLs equal: {same_sl} of {len(sa)}; SLs used: OpenSM {sorted(set(sa.values()))}, smd {sorted(set(sb.values()))}")
lo, ls = (json.load(open(p)) for p in sys.argv[5:7])
print(f"VLs used: OpenSM {lo['vls_used']}, smd {ls['vls_used']}")
assert len(a) == 25 * 25 and same == len(a), "smd's LFTs differ from OpenSM's torus-2QoS"
assert len(sa) == 25 * 24 and same_sl == len(sa), "smd's PathRecord SLs differ from OpenSM's"
PY
echo "PASS: smd's torus-2QoS routes and SLs equal OpenSM's, both deadlock free on their VLs"
