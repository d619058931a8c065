#!/usr/bin/env bash
# bench/replay_one.sh's floor is only honest if the record holds every SMP smd sent and smp_replay sends
# them again faithfully. smd --once brings tests/fabrics/leafspine.net up under bench/smpcount.so with
# $SMPCOUNT_RECORD; ibroute reads every switch's LFT back. Then a FRESH ibsim gets only the replay, and
# infiniband-diags must find the same fabric: every link Active, every LID delivered, and every LFT
# exactly as smd left it. Every replayed SMP must be answered with status 0.
. "$(dirname "$0")/once_common.sh"
netfile="${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
ibsim_start "${netfile}"
work="${IBSIM_WORKDIR}"
gcc -shared -fPIC -O2 -o "${work}/smpcount.so" "${SMD_SOURCE_DIR}/bench/smpcount.c" -ldl -lpthread
write_policy "${work}/smd.yaml" "${work}/state"
(cd "${work}" && SMPCOUNT_OUT="${work}/smpcount.txt" SMPCOUNT_RECORD="${work}/smps.bin" \
  LD_PRELOAD="${work}/smpcount.so:${SIM_PRELOAD}" timeout 120 "${SMD_BIN}" --once --config "${work}/smd.yaml" \
  >"${work}/smd.out" 2>"${work}/smd.err") || { tail -n 30 "${work}/smd.err" >&2; echo "FAIL: smd --once" >&2; exit 1; }
grep -q "SUBNET UP" "${work}/smd.out"

# lft_dump FILE: every switch's LFT as ibroute prints it, in switch GUID order.
lft_dump() {
  local lids
  lids=$(sim timeout 30 ibswitches | sed -n 's/.* lid \([0-9]*\) .*/\1/p' | sort -n)
  [[ -n "${lids}" ]] || { echo "FAIL: ibswitches found no switch" >&2; return 1; }
  for lid in ${lids}; do sim timeout 30 ibroute "${lid}"; done >"$1"
}
lft_dump "${work}/lft.smd"

sent=$(awk '$1 == "smp_total" {print $2}' "${work}/smpcount.txt")
size=$(stat -c %s "${work}/smps.bin")
[[ "${size}" -eq $((sent * 264)) ]] || { echo "FAIL: record holds ${size} bytes for ${sent} SMPs (264 each)" >&2; exit 1; }

ibsim_stop
ibsim_start "${netfile}"
sim timeout 60 "${SMD_BUILD_DIR}/tests/integration/smp_replay" --record "${work}/smps.bin" --window 64 \
  >"${work}/replay.txt" 2>"${work}/replay.err" || { cat "${work}/replay.txt" "${work}/replay.err" >&2; echo "FAIL: replay" >&2; exit 1; }
cat "${work}/replay.txt"
grep -q "replay_smps=${sent} replay_ok=${sent} replay_failed=0 replay_skipped=0 " "${work}/replay.txt" || {
  echo "FAIL: expected all ${sent} recorded SMPs replayed and answered" >&2
  exit 1
}
check_with_diags --expect-switches 6 --expect-cas 16
lft_dump "${work}/lft.replay"
diff -u "${work}/lft.smd" "${work}/lft.replay" >&2 || { echo "FAIL: the replayed fabric's LFTs differ from smd's" >&2; exit 1; }
echo "PASS: ${sent} SMPs replayed; the fresh fabric matches smd's, $(grep -c . "${work}/lft.smd") ibroute lines"
