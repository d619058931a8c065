#!/usr/bin/env bash
# OpenSM's connect_roots (-z) against smd's updn and ftree on ibsim, judged by check_fabric.py (every switch
# LID delivered from every switch, infiniband-diags only). On leafspine both spines are roots: a route from
# one spine to the other's own LID must go down to a leaf and up again, which up*/down* forbids, so OpenSM's
# updn and ftree leave those switch LIDs unrouted unless -z lets root LIDs take plain shortest paths. smd has
# no such option: its updn and ftree always route every switch LID, turning at one valley switch
# (routing/engines/common/updn_paths.h), so connect_roots TRUE is how smd always behaves
# (import-opensm-conf: built in). Runs, each on a fresh fabric, roots given as both spines' GUIDs:
#   OpenSM -R updn -a ROOTS        check_fabric fails on exactly the two spine-to-spine routes (the control)
#   OpenSM -R updn -a ROOTS -z     check_fabric passes
#   OpenSM -R ftree -a ROOTS -z    check_fabric passes
#   smd updn roots ROOTS           check_fabric passes
#   smd ftree roots ROOTS          check_fabric passes
# Measured here: 24 s on 2 cores at load average 13.
. "$(dirname "$0")/once_common.sh"
w=${IBSIM_WORKDIR}
NET="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# osm_run NAME OPENSM-ARGS...: `opensm -o` on a fresh fabric; leaves ibsim up for the check.
osm_run() {
  local name=$1
  shift
  ibsim_start "${NET}"
  mkdir -p "${w}/cache-${name}"
  sim env OSM_CACHE_DIR="${w}/cache-${name}" timeout 120 opensm -o "$@" -f "${w}/${name}.log" \
    >"${w}/${name}.out" 2>&1 || true
  grep -q "SUBNET UP" "${w}/${name}.log" || { tail -n 20 "${w}/${name}.log" >&2; fail "${name}: OpenSM did not bring the subnet up"; }
}

t0=${SECONDS}
ibsim_start "${NET}"
sim timeout 60 ibnetdiscover >"${w}/fabric.txt" || fail "ibnetdiscover before any SM"
ibsim_stop
for spine in spine-0 spine-1; do
  sed -nE "s/^Switch[[:space:]]+[0-9]+[[:space:]]+\"S-([0-9a-fA-F]{16})\".*# \"${spine}\".*/0x\1/p" "${w}/fabric.txt"
done >"${w}/roots"
[[ $(wc -l <"${w}/roots") -eq 2 ]] || fail "ibnetdiscover does not show both spines"
roots=$(paste -sd, "${w}/roots")

osm_run osm-updn -R updn -a "${w}/roots"
if check_with_diags --expect-switches 6 --expect-cas 16 >"${w}/osm-updn.check" 2>&1; then
  fail "OpenSM's updn without -z delivers every switch LID: the control shows nothing"
fi
# Exactly the two spine-to-spine routes fail: each spine cannot reach the other's LID.
grep "does not deliver" "${w}/osm-updn.check" >"${w}/osm-updn.undelivered" || true
[[ $(wc -l <"${w}/osm-updn.undelivered") -eq 2 ]] || { cat "${w}/osm-updn.check" >&2; fail "OpenSM without -z: not exactly two routes undelivered"; }
while read -r root; do
  grep -q "switch S-${root#0x} does not deliver LID [0-9]* to S-" "${w}/osm-updn.undelivered" ||
    { cat "${w}/osm-updn.check" >&2; fail "OpenSM without -z: root ${root} is not one of the switches that fail"; }
done <"${w}/roots"
ibsim_stop
for engine in updn ftree; do
  osm_run "osm-${engine}-z" -R "${engine}" -a "${w}/roots" -z
  check_with_diags --expect-switches 6 --expect-cas 16 || fail "OpenSM -R ${engine} -z: not every LID delivered"
  ibsim_stop
  once_bringup "${NET}" 6 16 "routing:" "  engines: [${engine}]" "  ${engine}:" "    roots: [${roots}]" \
    >"${w}/smd-${engine}.out" || { cat "${w}/smd-${engine}.out" >&2; fail "smd ${engine}"; }
  grep -q "routing:  engine ${engine}" "${ONCE_OUT}" || fail "smd did not route with ${engine}"
  check_with_diags --expect-switches 6 --expect-cas 16 || fail "smd ${engine}: not every LID delivered"
  ibsim_stop
done
echo "PASS: connect_roots_opensm_test: OpenSM's updn leaves a spine's LID unrouted without -z; with -z OpenSM's" \
  "updn and ftree, and smd's updn and ftree as they always are, deliver every LID ($((SECONDS - t0)) s)"
