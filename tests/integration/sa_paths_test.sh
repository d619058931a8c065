#!/usr/bin/env bash
# PathRecords between the 64 CAs of kary4-3 (48 switches), judged by sa_check_paths.py against the LFTs read
# back with ibroute and each port's MTUCap and width x speed from smpquery: SLID/DLID are the endpoints',
# the walked path delivers, MTU and rate are the path minimum.
# Three cables (host-5's, one leaf-to-middle, one middle-to-top) run at 1X DDR, 5 Gb/s (rate code 5), the
# rest at 4X SDR, 10 Gb/s (code 3): paths across them must say 5, which the smaller code 3 is not (rate
# codes are not ordered by speed). ibsim gives every port MTUCap 2048, so the MTU check cannot vary.
#   every ordered pair (64 x 63 = 4032) through tests/integration/sa_client (libibumad only, no smd code:
#   a PathRecord Get by SLID/DLID per pair, 16 outstanding), and a sample of SA_PATHS_PER_CA (1) pairs per
#   CA through saquery -p too, so the records are also decoded by infiniband-diags
#   SA_PATHS_ALL=1:  every ordered pair through saquery as well (slow: minutes)
. "$(dirname "$0")/sa_common.sh"
net="${IBSIM_WORKDIR}/kary4-3-slow.net"
awk -v cables="host-5:sw-L0-1 sw-L0-0:sw-L1-0 sw-L1-4:sw-L2-8" '
  BEGIN { n = split(cables, c, " "); for (i = 1; i <= n; i++) { split(c[i], ab, ":"); slow[ab[1] SUBSEP ab[2]] = 1; slow[ab[2] SUBSEP ab[1]] = 1 } }
  /^(Hca|Switch)/ { node = $3; gsub(/"/, "", node) }
  /^\[/ { peer = $2; sub(/^"/, "", peer); sub(/".*/, "", peer); if ((node SUBSEP peer) in slow) $0 = $0 " w=1 s=2" }
  { print }' "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" >"${net}"
[[ $(grep -c " w=1 s=2$" "${net}") -eq 6 ]]  # both ends of three cables
sa_bringup "${net}" sm host-0 10
[[ $(sim timeout 30 iblinkinfo 2>/dev/null | grep -c "1X .* 5.0 Gbps Active") -eq 6 ]]  # seen from both ends
SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
sa_check paths --list-pairs >"${IBSIM_WORKDIR}/pairs"
[[ $(wc -l <"${IBSIM_WORKDIR}/pairs") -eq 4032 ]]
sim timeout 100 "${SA_CLIENT}" paths --by-lid --pairs "${IBSIM_WORKDIR}/pairs" >"${IBSIM_WORKDIR}/paths.jsonl"
sa_check paths --expect-cas 64 --records "${IBSIM_WORKDIR}/paths.jsonl"
if [[ -n "${SA_PATHS_ALL:-}" ]]; then
  SA_CHECK_TIMEOUT=280 sa_check paths --expect-cas 64 --save "${IBSIM_WORKDIR}/saquery-paths.jsonl"
else
  sa_check paths --expect-cas 64 --per-ca "${SA_PATHS_PER_CA:-1}" --save "${IBSIM_WORKDIR}/saquery-paths.jsonl"
fi
# The slow cables were on some sampled paths (else the rate check proved nothing).
python3 -c 'import json, sys; sys.exit(0 if any(json.loads(l).get("rate") == 5 for l in open(sys.argv[1])) else 1)' \
  "${IBSIM_WORKDIR}/paths.jsonl" || { echo "FAIL: no PathRecord crossed a 5 Gb/s cable" >&2; exit 1; }
echo "PathRecords at 5 Gb/s (rate 5): $(python3 -c 'import json, sys; print(sum(json.loads(l).get("rate") == 5 for l in open(sys.argv[1])))' "${IBSIM_WORKDIR}/paths.jsonl")"
