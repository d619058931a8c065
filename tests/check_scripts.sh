#!/usr/bin/env bash
# Every shell script of the tree parses (bash -n; the package's maintainer scripts with sh -n too). A quote
# character that closes a single-quoted block early leaves the rest of the block to run as the outer script:
# .ci/debian13.sh once mounted its chroot outside the namespace meant for it that way, and only a parse of
# the whole file shows it.
# Usage: tests/check_scripts.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: check_scripts.sh SOURCE_DIR}
rc=0 n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  bash -n "${f}" || { echo "FAIL: ${f#"${src}"/} does not parse (bash -n)" >&2; rc=1; }
done < <(find "${src}/.ci" "${src}/smd" "${src}/bench" "${src}/tests" -type f \( -name '*.sh' -o -path "${src}/.ci/run" \) -print0)
for f in "${src}"/systemd/debian/{postinst,prerm,postrm}; do
  [[ -f ${f} ]] || continue
  n=$((n + 1))
  sh -n "${f}" || { echo "FAIL: ${f#"${src}"/} does not parse (sh -n)" >&2; rc=1; }
done
[[ ${n} -ge 50 ]] || { echo "FAIL: only ${n} scripts found under ${src}: wrong folder?" >&2; exit 1; }
echo "scripts.syntax: ${n} scripts parse"
exit "${rc}"
