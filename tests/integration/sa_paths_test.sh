#!/usr/bin/env bash
# PathRecords between the 64 CAs of kary4-3 (48 switches), judged by sa_check_paths.py against the LFTs read
# back with ibroute and each port's MTUCap and width x speed from smpquery: SLID/DLID are the endpoints',
# the walked path delivers, MTU and rate are the path minimum.
#   default:         saquery -p per pair, every CA to SA_PATHS_PER_CA (3) spread-out others (192 pairs)
#   SA_PATHS_ALL=1:  every ordered pair (64 x 63 = 4032) through saquery (slow: minutes)
#   SA_CLIENT=PATH:  every ordered pair through a multi-pair client: `SA_CLIENT paths < pairs` must print
#                    one JSON line {"slid","dlid","status","mtu","rate"} per "SLID DLID" line it reads
# SA_TEST_SM=opensm runs the same checks against OpenSM's SA (sa_common.sh).
. "$(dirname "$0")/sa_common.sh"
sa_bringup "${SMD_SOURCE_DIR}/tests/fabrics/kary4-3.net" sm host-0 10
if [[ -n "${SA_CLIENT:-}" ]]; then
  sa_check paths --list-pairs >"${IBSIM_WORKDIR}/pairs"
  [[ $(wc -l <"${IBSIM_WORKDIR}/pairs") -eq 4032 ]]
  sim timeout 100 "${SA_CLIENT}" paths <"${IBSIM_WORKDIR}/pairs" >"${IBSIM_WORKDIR}/paths.jsonl"
  sa_check paths --expect-cas 64 --records "${IBSIM_WORKDIR}/paths.jsonl"
elif [[ -n "${SA_PATHS_ALL:-}" ]]; then
  SA_CHECK_TIMEOUT=280 sa_check paths --expect-cas 64 --save "${IBSIM_WORKDIR}/paths.jsonl"
else
  sa_check paths --expect-cas 64 --per-ca "${SA_PATHS_PER_CA:-3}" --save "${IBSIM_WORKDIR}/paths.jsonl"
fi
