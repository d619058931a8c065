#!/usr/bin/env bash
# `smd plan` with the file engine, offline (issue 41). Round trip: for four fabrics and engines, the
# opensm-lfts.dump smd writes, replayed by `engines: [file]`, is written again byte for byte. Refusals: a
# dump with one route removed (a black hole) fails verification (exit 3) and `[file, minhop]` falls back
# to minhop; a dump naming a switch the fabric lacks, or a port beyond a switch's, fails at the dump's
# line and column; a
# malformed dump refuses the policy at the policy's and the dump's file:line:column (exit 2).
set -euo pipefail
SMD="${SMD_BUILD_DIR:?}/smd/smd"
FAB="${SMD_SOURCE_DIR:?}/tests/fabrics"
w=$(mktemp -d "${TMPDIR:-/tmp}/smd-file-engine.XXXXXX")
trap 'rm -rf "${w}"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# policy FILE ENGINES [LFTS_FILE]
policy() {
  printf 'routing:\n  engines: %s\n' "$2" >"$1"
  if [[ -n "${3:-}" ]]; then printf '  file:\n    lfts_file: %s\n' "$3" >>"$1"; fi
}

for case in "leafspine ftree" "ring updn" "kary4-3 minhop" "twoswitch sssp"; do
  read -r net engine <<<"${case}"
  policy "${w}/${net}.yaml" "[${engine}]"
  timeout 60 "${SMD}" plan --topology "${FAB}/${net}.net" --config "${w}/${net}.yaml" \
    --opensm-lfts "${w}/${net}.dump" >/dev/null || fail "plan ${net} with ${engine}"
  policy "${w}/${net}-file.yaml" "[file]" "${w}/${net}.dump"
  timeout 60 "${SMD}" plan --topology "${FAB}/${net}.net" --config "${w}/${net}-file.yaml" \
    --opensm-lfts "${w}/${net}-again.dump" >"${w}/${net}-file.out" || fail "plan ${net} with the file engine"
  grep -q "engine.*file" "${w}/${net}-file.out" || { cat "${w}/${net}-file.out" >&2; fail "${net}: not routed by file"; }
  cmp "${w}/${net}.dump" "${w}/${net}-again.dump" || fail "${net}: the replayed dump differs from ${engine}'s"
  echo "round trip ${net} (${engine}): $(grep -c '^0x' "${w}/${net}.dump") rows, identical"
done

# A black hole: leafspine's first switch loses its route to LID 0x0001.
grep -q '^0x0001 ' "${w}/leafspine.dump" || fail "leafspine's dump has no row for LID 0x0001"
awk 'BEGIN { first = 1 } /^0x0001 / && first { first = 0; next } { print }' "${w}/leafspine.dump" >"${w}/hole.dump"
policy "${w}/hole.yaml" "[file]" "${w}/hole.dump"
rc=0
"${SMD}" plan --topology "${FAB}/leafspine.net" --config "${w}/hole.yaml" >"${w}/hole.out" 2>&1 || rc=$?
[[ ${rc} -eq 3 ]] || { cat "${w}/hole.out" >&2; fail "black-holed dump: exit ${rc}, expected 3"; }
grep -q "file: verify-failed" "${w}/hole.out" || { cat "${w}/hole.out" >&2; fail "black hole not refused by the verifier"; }
policy "${w}/hole-minhop.yaml" "[file, minhop]" "${w}/hole.dump"
"${SMD}" plan --topology "${FAB}/leafspine.net" --config "${w}/hole-minhop.yaml" >"${w}/fallback.out" 2>&1 ||
  { cat "${w}/fallback.out" >&2; fail "[file, minhop] did not fall back"; }
grep -q "engine.*minhop" "${w}/fallback.out" || { cat "${w}/fallback.out" >&2; fail "fallback not minhop"; }

# A section for a switch the fabric lacks (appended to twoswitch's dump): refused at its GUID, and the
# chain goes on to minhop.
cp "${w}/twoswitch.dump" "${w}/stranger.dump"
echo "Unicast lids [0-6] of switch Lid 9 guid 0x00000000002000ff ('gone'):" >>"${w}/stranger.dump"
line=$(wc -l <"${w}/stranger.dump")
policy "${w}/stranger.yaml" "[file, minhop]" "${w}/stranger.dump"
"${SMD}" plan --topology "${FAB}/twoswitch.net" --config "${w}/stranger.yaml" >"${w}/stranger.out" 2>&1 ||
  { cat "${w}/stranger.out" >&2; fail "foreign dump: [file, minhop] did not fall back"; }
grep -qF "file: invalid-input: ${w}/stranger.dump:${line}:41: switch 0x00000000002000ff is not in the fabric" \
  "${w}/stranger.out" || { cat "${w}/stranger.out" >&2; fail "foreign dump: not refused at ${line}:41"; }
grep -q "engine.*minhop" "${w}/stranger.out" || { cat "${w}/stranger.out" >&2; fail "foreign dump: no fallback"; }

# A port beyond the switch's 4: twoswitch's second row (line 3) sent to port 9, refused at its column 8.
sed '3s/^\(0x[0-9a-f]*\) [0-9]*/\1 009/' "${w}/twoswitch.dump" >"${w}/port.dump"
lid=$(sed -n '3s/^\(0x[0-9a-f]*\) .*/\1/p' "${w}/port.dump")
policy "${w}/port.yaml" "[file]" "${w}/port.dump"
rc=0
"${SMD}" plan --topology "${FAB}/twoswitch.net" --config "${w}/port.yaml" >"${w}/port.out" 2>&1 || rc=$?
[[ ${rc} -eq 3 ]] || { cat "${w}/port.out" >&2; fail "port beyond the switch: exit ${rc}, expected 3"; }
grep -qF "${w}/port.dump:3:8: port 9 for LID ${lid}: " "${w}/port.out" ||
  { cat "${w}/port.out" >&2; fail "port beyond the switch: not refused at 3:8"; }

# Malformed: a row with a port that is not a number, at line 3.
sed '3s/^\(0x[0-9a-f]*\) [0-9]*/\1 x1/' "${w}/leafspine.dump" >"${w}/bad.dump"
policy "${w}/bad.yaml" "[file]" "${w}/bad.dump"
rc=0
"${SMD}" plan --topology "${FAB}/leafspine.net" --config "${w}/bad.yaml" >"${w}/bad.out" 2>&1 || rc=$?
[[ ${rc} -eq 2 ]] || { cat "${w}/bad.out" >&2; fail "malformed dump: exit ${rc}, expected 2"; }
grep -qF "${w}/bad.yaml:4:5: routing.file.lfts_file: ${w}/bad.dump:3:8: port must be a decimal number 0..254" \
  "${w}/bad.out" || { cat "${w}/bad.out" >&2; fail "malformed dump: not reported at both places"; }
echo "PASS"
