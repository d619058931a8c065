#!/usr/bin/env bash
# smctl's usage errors, no daemon needed: a misspelt command is named with the list of commands (CLI11
# alone says "A subcommand is required"), exit 2; no command at all is CLI11's own message, exit 2; undrain
# with neither parts nor --all, or both, exit 2.
set -euo pipefail
SMCTL="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smctl"
fail() { echo "FAIL: $*" >&2; exit 1; }
set +e
out=$("${SMCTL}" metrics 2>&1); rc=$?
set -e
[[ ${rc} == 2 ]] || fail "smctl metrics exited ${rc}"
grep -q "^smctl: unknown command 'metrics' (commands: status, .*, what-if)$" <<<"${out}" || fail "smctl metrics said: ${out}"
set +e
out=$("${SMCTL}" --json sttus --timeout 1 2>&1); rc=$?
set -e
[[ ${rc} == 2 ]] && grep -q "unknown command 'sttus'" <<<"${out}" || fail "smctl --json sttus: ${rc} ${out}"
set +e
out=$("${SMCTL}" 2>&1); rc=$?
set -e
[[ ${rc} == 2 ]] && grep -q "A subcommand is required" <<<"${out}" || fail "smctl alone: ${rc} ${out}"
# undrain takes parts or --all, exactly one of the two; neither or both is a usage error, before any socket.
for args in "undrain" "undrain spine-0 --all"; do
  set +e
  out=$("${SMCTL}" --socket /nonexistent/smd.sock ${args} 2>&1); rc=$?
  set -e
  [[ ${rc} == 2 ]] && grep -q "PART" <<<"${out}" || fail "smctl ${args}: ${rc} ${out}"
done
echo PASS
