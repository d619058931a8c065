#!/usr/bin/env bash
# Transport check on ibsim: smp_probe's breadth-first directed-route NodeInfo sweep (UmadTransport with a
# full window) must find exactly the nodes ibnetdiscover finds, and exactly the nodes the generated
# netfile has; with windows 1 and 64 too; and with SMPs dropped on a link, through its timers and retries.
#
#   SMD_BUILD_DIR=build bash tests/integration/transport_test.sh
#   SMD_PROBE_BENCH=1 ...   # also print MAD/s for windows 1 8 32 64 on a 16 leaf x 8 spine x 16 host fabric
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "${HERE}/ibsim_env.sh"
PROBE="${SMD_BUILD_DIR:?set SMD_BUILD_DIR}/tests/integration/smp_probe"
[[ -x "${PROBE}" ]] || { echo "missing ${PROBE}" >&2; exit 2; }

# write_leaf_spine FILE LEAVES SPINES HOSTS_PER_LEAF: a 2-level Clos as an ibsim netfile. The first host
# comes first in the file, so the probe attaches at a CA (ibsim attaches a client at the first node).
write_leaf_spine() {
  local file=$1 leaves=$2 spines=$3 hosts=$4 l s h
  {
    for ((l = 1; l <= leaves; l++)); do
      for ((h = 1; h <= hosts; h++)); do
        printf 'Hca 1 "H-%d-%d"\n[1] "L-%d"[%d]\n\n' "$l" "$h" "$l" "$h"
      done
    done
    for ((l = 1; l <= leaves; l++)); do
      printf 'Switch %d "L-%d"\n' $((hosts + spines)) "$l"
      for ((h = 1; h <= hosts; h++)); do printf '[%d] "H-%d-%d"[1]\n' "$h" "$l" "$h"; done
      for ((s = 1; s <= spines; s++)); do printf '[%d] "S-%d"[%d]\n' $((hosts + s)) "$s" "$l"; done
      printf '\n'
    done
    for ((s = 1; s <= spines; s++)); do
      printf 'Switch %d "S-%d"\n' "$leaves" "$s"
      for ((l = 1; l <= leaves; l++)); do printf '[%d] "L-%d"[%d]\n' "$l" "$l" $((hosts + s)); done
      printf '\n'
    done
  } >"${file}"
}

# probe_field OUTPUT KEY: the value of KEY=... in smp_probe's output line.
probe_field() { sed -n "s/.*\b$2=\([0-9.]*\).*/\1/p" <<<"$1"; }

fail() { echo "FAIL: $*" >&2; exit 1; }

# --- 2 leaves x 1 spine x 4 hosts: 3 switches, 8 CAs -------------------------------------------------
NET="${IBSIM_WORKDIR}/net.small"
write_leaf_spine "${NET}" 2 1 4
ibsim_start "${NET}"

disc=$(sim timeout 60 ibnetdiscover)
want_sw=$(grep -c '^Switch' <<<"${disc}" || true)
want_ca=$(grep -c '^Ca' <<<"${disc}" || true)
[[ "${want_sw}" -eq 3 && "${want_ca}" -eq 8 ]] || fail "ibnetdiscover saw ${want_sw} switches ${want_ca} CAs, netfile has 3 and 8"

for w in 32 1 64; do
  out=$(sim timeout 60 "${PROBE}" --window "${w}")
  echo "window ${w}: ${out}"
  [[ "$(probe_field "${out}" switches)" -eq "${want_sw}" ]] || fail "window ${w}: switches differ from ibnetdiscover (${want_sw})"
  [[ "$(probe_field "${out}" cas)" -eq "${want_ca}" ]] || fail "window ${w}: CAs differ from ibnetdiscover (${want_ca})"
  [[ "$(probe_field "${out}" timeouts)" -eq "$(probe_field "${out}" unroutable)" ]] ||
    fail "window ${w}: a timeout on a port that has a node behind it"
done

# --- unsolicited MADs and send_response: a second client at H-1-2 (issm) answers SMInfo Gets -----------
# serve_sminfo [--silent]: start it in the background, wait until it listens.
serve_sminfo() {
  rm -f "${IBSIM_WORKDIR}/serve.out"
  sim env SIM_HOST=H-1-2 timeout 30 "${PROBE}" --serve-sminfo 2 "$@" >"${IBSIM_WORKDIR}/serve.out" \
    2>"${IBSIM_WORKDIR}/serve.err" &
  SERVE_PID=$!
  ibsim_track "${SERVE_PID}"
  local i
  for i in $(seq 1 100); do grep -q ready "${IBSIM_WORKDIR}/serve.out" 2>/dev/null && return 0; sleep 0.05; done
  fail "SMInfo server did not start: $(cat "${IBSIM_WORKDIR}/serve.err")"
}
# H-1-2's port GUID as ibstat (the shim's view of that node) reports it: the answer must carry it.
want_guid=$(sim env SIM_HOST=H-1-2 timeout 30 ibstat -p | head -n1)
serve_sminfo
out=$(sim timeout 30 "${PROBE}" --sminfo 1,2 --timeout-ms 100 --retries 2)
echo "sminfo: ${out}"
wait "${SERVE_PID}" || true
grep -Eq "outcome=ok status=0x0 attempts=1 " <<<"${out}" || fail "SMInfo Get to the serving client was not answered"
grep -q "guid=${want_guid} priority=7 state=STANDBY" <<<"${out}" || fail "SMInfo answer is not the server's (${want_guid})"
grep -q "served=1 " "${IBSIM_WORKDIR}/serve.out" || fail "server did not see exactly one Get: $(cat "${IBSIM_WORKDIR}/serve.out")"

# Silent server: the Get is delivered but never answered, so only the per-request timer ends it:
# 3 attempts of 100 ms.
serve_sminfo --silent
out=$(sim timeout 30 "${PROBE}" --sminfo 1,2 --timeout-ms 100 --retries 2 || true)
echo "sminfo (silent): ${out}"
wait "${SERVE_PID}" || true
grep -Eq "outcome=timeout status=0x[0-9a-f]+ attempts=3 " <<<"${out}" || fail "unanswered SMInfo Get did not time out after 3 attempts"
elapsed=$(probe_field "${out}" elapsed_ms)
awk -v e="${elapsed}" 'BEGIN { exit !(e >= 295 && e < 2000) }' || fail "3 x 100 ms timeouts took ${elapsed} ms"
grep -q "unsolicited=3" "${IBSIM_WORKDIR}/serve.out" || fail "silent server did not receive all 3 attempts"

# --- drop 40% of SMPs on the spine's ports: timers and retries must still find everything --------------
ibsim_console 'Error "S-1"[1] 40'
ibsim_console 'Error "S-1"[2] 40'
sleep 0.3
out=$(sim timeout 60 "${PROBE}" --window 16 --timeout-ms 50 --retries 8)
echo "lossy: ${out}"
[[ "$(probe_field "${out}" switches)" -eq "${want_sw}" && "$(probe_field "${out}" cas)" -eq "${want_ca}" ]] ||
  fail "lossy links: the sweep lost nodes"
[[ "$(probe_field "${out}" retries)" -gt 0 ]] || fail "lossy links: no retry was needed, so the drop did not happen"

# --- optional: throughput against the window on a few hundred nodes ----------------------------------
if [[ -n "${SMD_PROBE_BENCH:-}" ]]; then
  kill -9 "${IBSIM_PID}" "${IBSIM_FEEDER_PID}" 2>/dev/null || true
  wait "${IBSIM_PID}" "${IBSIM_FEEDER_PID}" 2>/dev/null || true
  rm -f "${IBSIM_WORKDIR}/console"
  IBSIM_SOCKNAME="smd-$$-${RANDOM}-bench"
  export IBSIM_SOCKNAME
  BIG="${IBSIM_WORKDIR}/net.big"
  write_leaf_spine "${BIG}" 16 8 16
  ibsim_start "${BIG}"
  for w in 1 8 32 64; do
    out=$(sim timeout 120 "${PROBE}" --window "${w}")
    echo "bench window ${w}: ${out}"
    [[ "$(probe_field "${out}" switches)" -eq 24 && "$(probe_field "${out}" cas)" -eq 256 ]] || fail "bench: wrong node count"
  done
fi
echo "transport_test: OK"
