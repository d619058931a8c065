#!/usr/bin/env bash
# PathRecord rates on cables of today's speeds: FDR, EDR, HDR and, where ibsim can carry it (ibsim 0.12,
# Debian 13), NDR. leafspine's cables get ibnetdiscover-style annotations ('# "x" lid 0 4xHDR'), which ibsim
# turns into LinkSpeedExtEnabled masks; each link then runs at the fastest speed both ends enable. smd
# brings the fabric up, and every ordered pair of the 16 CAs (240 PathRecords, through the libibumad-only
# tests/integration/sa_client) is judged by sa_check_paths.py: the rate must be the slowest port's on the
# path walked through the LFTs read back with ibroute, each port's width x speed read with smpquery. Neither
# witness is smd's code.
#   host-i's cable:  i % 4 = 0: the top speed (NDR on ibsim 0.12, else HDR), 1: HDR, 2: EDR, 3: FDR;
#                    host-3's cable is annotated EDR at the host and FDR at the leaf (the link runs FDR).
#   leaf-spine:      the top speed, but leaf-3 to spine-1 at EDR (paths through it are capped there).
# The records must use every rate the cables give (top, HDR, EDR, FDR): else the check proved less.
# Then MCMemberRecords: groups made by an FDR host and a top-speed host carry their creators' rates, and the
# FDR host may not join the faster group (the rates are the codes the PathRecords above were judged by).
. "$(dirname "$0")/sa_common.sh"

ibsim_version=$(dpkg-query -W -f '${Version}' ibsim-utils)
if dpkg --compare-versions "${ibsim_version}" ge 0.12; then top=NDR; else top=HDR; fi
echo "ibsim ${ibsim_version}: top cable speed ${top}"

net="${IBSIM_WORKDIR}/leafspine-rates.net"
awk -v top="${top}" '
  function host_speed(name,   i) { i = substr(name, 6) + 0; return i % 4 == 0 ? top : i % 4 == 1 ? "HDR" : i % 4 == 2 ? "EDR" : "FDR" }
  function speed(a, b) {
    if (a ~ /^host-/) return a == "host-3" ? "EDR" : host_speed(a)
    if (b ~ /^host-/) return host_speed(b)
    if ((a == "leaf-3" && b == "spine-1") || (a == "spine-1" && b == "leaf-3")) return "EDR"
    return top
  }
  /^(Hca|Switch)/ { node = $3; gsub(/"/, "", node) }
  /^\[/ { peer = $2; sub(/^"/, "", peer); sub(/".*/, "", peer); $0 = $0 " # \"" node "\" lid 0 4x" speed(node, peer) }
  { print }' "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" >"${net}"
[[ $(grep -c ' lid 0 4x' "${net}") -eq 48 ]]  # both ends of 24 cables

sa_bringup "${net}" sm host-0 10

# ibsim took the annotations: the active speeds infiniband-diags see, per speed (both ends of each cable).
sim timeout 30 iblinkinfo >"${IBSIM_WORKDIR}/iblinkinfo" 2>/dev/null
declare -A gbps=([FDR]=14.0625 [EDR]=25.78125 [HDR]=53.125 [NDR]=106.25)
count_at() { grep -cE "4X +${gbps[$1]//./\\.} Gbps Active" "${IBSIM_WORKDIR}/iblinkinfo" || true; }
# Cables per speed: top 4 host + 7 leaf-spine, HDR 4 host, EDR 4 host + leaf-3:spine-1, FDR 4 host.
if [[ ${top} == NDR ]]; then
  want_ndr=$((2 * (4 + 7))) want_hdr=$((2 * 4))
else
  want_ndr=0 want_hdr=$((2 * (4 + 4 + 7)))
fi
for s in NDR HDR EDR FDR; do
  case ${s} in NDR) want=${want_ndr} ;; HDR) want=${want_hdr} ;; EDR) want=$((2 * (4 + 1))) ;; FDR) want=$((2 * 4)) ;; esac
  got=$(count_at "${s}")
  echo "port lines at ${s}: ${got} (want ${want})"
  [[ ${got} -eq ${want} ]] || { echo "FAIL: iblinkinfo shows ${got} port lines at ${s}, want ${want}" >&2; exit 1; }
done

SA_CLIENT="${SMD_BUILD_DIR}/tests/integration/sa_client/sa_client"
sa_check paths --list-pairs >"${IBSIM_WORKDIR}/pairs"
[[ $(wc -l <"${IBSIM_WORKDIR}/pairs") -eq 240 ]]
sim timeout 60 "${SA_CLIENT}" paths --by-lid --pairs "${IBSIM_WORKDIR}/pairs" >"${IBSIM_WORKDIR}/paths.jsonl"
sa_check paths --expect-cas 16 --records "${IBSIM_WORKDIR}/paths.jsonl"
# And a sample through saquery, so infiniband-diags decodes the records too.
sa_check paths --expect-cas 16 --per-ca 1 --save "${IBSIM_WORKDIR}/saquery-paths.jsonl"

# Every cable speed shows up as a path rate (IBA rate codes: 4x FDR 56 Gb/s = 12, EDR 100 = 16, HDR 200 = 17,
# NDR 400 = 21).
declare -A code=([FDR]=12 [EDR]=16 [HDR]=17 [NDR]=21)
speeds=(FDR EDR HDR)
[[ ${top} == HDR ]] || speeds+=("${top}")
for s in "${speeds[@]}"; do
  n=$(python3 -c 'import json, sys; print(sum(json.loads(l).get("rate") == int(sys.argv[2]) for l in open(sys.argv[1])))' \
    "${IBSIM_WORKDIR}/paths.jsonl" "${code[${s}]}")
  echo "PathRecords at 4x ${s} (rate ${code[${s}]}): ${n}"
  [[ ${n} -gt 0 ]] || { echo "FAIL: no PathRecord at 4x ${s}" >&2; exit 1; }
done

# MCMemberRecord rates (IBA 15.2.5.17, OpenSM's rule): a group created without a rate takes its creator's
# port rate; a port slower than a group's rate may not join it (REQ_INVALID), a port as fast or faster may.
# host-3 runs FDR, host-0 and host-4 the top speed (iblinkinfo above said so).
client_at() { # client_at HOST ARGS...: sa_client at HOST, JSON lines on stdout
  local host=$1
  shift
  sim env SIM_HOST="${host}" timeout 60 "${SA_CLIENT}" --timeout-ms 2000 --retries 3 "$@"
}
rate_of() { python3 -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if "record" in j: print(int(j["record"]["rate"], 16) & 0x3f); break  # below RateSelector' "$1"; }
status_of() { python3 -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if "status" in j: print(j["status"]); break' "$1"; }
w="${IBSIM_WORKDIR}"
client_at host-3 join --create --mgid ff12:401b:ffff::f3 --qkey 0x33 --join-state 1 >"${w}/mcm-slow.jsonl" ||
  { cat "${w}/mcm-slow.jsonl" >&2; echo "FAIL: host-3 (FDR) could not create a group" >&2; exit 1; }
client_at host-0 join --create --mgid ff12:401b:ffff::f0 --qkey 0x30 --join-state 1 >"${w}/mcm-fast.jsonl" ||
  { cat "${w}/mcm-fast.jsonl" >&2; echo "FAIL: host-0 (${top}) could not create a group" >&2; exit 1; }
slow=$(rate_of "${w}/mcm-slow.jsonl")
fast=$(rate_of "${w}/mcm-fast.jsonl")
echo "MCMemberRecord rates: group made by host-3 ${slow} (want ${code[FDR]}), by host-0 ${fast} (want ${code[${top}]})"
[[ ${slow} == "${code[FDR]}" && ${fast} == "${code[${top}]}" ]] || { echo "FAIL: group rates" >&2; exit 1; }
client_at host-0 join --mgid ff12:401b:ffff::f3 --join-state 1 >"${w}/mcm-fast-joins-slow.jsonl" ||
  { cat "${w}/mcm-fast-joins-slow.jsonl" >&2; echo "FAIL: host-0 could not join the FDR group" >&2; exit 1; }
client_at host-4 join --mgid ff12:401b:ffff::f0 --join-state 1 >"${w}/mcm-fast-joins-fast.jsonl" ||
  { cat "${w}/mcm-fast-joins-fast.jsonl" >&2; echo "FAIL: host-4 could not join the ${top} group" >&2; exit 1; }
if client_at host-3 join --mgid ff12:401b:ffff::f0 --join-state 1 >"${w}/mcm-slow-joins-fast.jsonl"; then
  echo "FAIL: host-3 (FDR) joined a group of rate ${fast}" >&2
  exit 1
fi
refused=$(status_of "${w}/mcm-slow-joins-fast.jsonl")
echo "host-3 joining the ${top} group: status ${refused}"
[[ ${refused} == 0x200 ]] || { echo "FAIL: want REQ_INVALID (0x200), got ${refused}" >&2; exit 1; }
echo "PASS: PathRecord and MCMemberRecord rates match the cables (top speed ${top})"
