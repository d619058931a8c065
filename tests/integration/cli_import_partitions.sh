#!/usr/bin/env bash
# `smd import-partitions` end to end, no fabric: an OpenSM partitions.conf converted to YAML (warnings on
# stderr with line:column), the YAML pasted into a policy that `smd check-config` accepts, stdout and -o
# giving the same text, and a file that cannot be converted refused with exit 2, its line:column, and no
# output file. Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"${work}/partitions.conf" <<'EOF'
# from opensm(8)
Default=0x7fff,ipoib:
        mgid=ff12:401b::0707,sl=1 # random IPv4 group
        mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 # random group
        ALL=full;
NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;
ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;
ShareIO = 0x80 : defmember=limited : 0x123456, 0x123457, 0x123458=full;
EOF

"${SMD_BIN}" import-partitions "${work}/partitions.conf" -o "${work}/partitions.yaml" 2>"${work}/err" ||
  fail "import exited $?: $(cat "${work}/err")"
cat "${work}/err"
grep -qF "warning: ${work}/partitions.conf:6:52: membership 'limi'" "${work}/err" || fail "no warning for 'limi'"
grep -qF "warning: ${work}/partitions.conf:6:1: partition 'NewPartition' has no P_Key; assigned 0x0001" \
  "${work}/err" || fail "no warning for the generated P_Key"
grep -qF 'pkey: 0x0080' "${work}/partitions.yaml" || fail "ShareIO missing from the YAML"
grep -qF 'mgid: "ff12:401b:ffff::707"' "${work}/partitions.yaml" || fail "IPoIB group without its P_Key bits"

"${SMD_BIN}" import-partitions "${work}/partitions.conf" >"${work}/stdout.yaml" 2>/dev/null
cmp -s "${work}/stdout.yaml" "${work}/partitions.yaml" || fail "stdout and -o differ"

{ printf 'sm:\n  priority: 3\n'; cat "${work}/partitions.yaml"; } >"${work}/smd.yaml"
chmod 0644 "${work}/smd.yaml"
"${SMD_BIN}" check-config "${work}/smd.yaml" >"${work}/check" 2>&1 || fail "check-config: $(cat "${work}/check")"
cat "${work}/check"
grep -qF "${work}/smd.yaml: OK" "${work}/check" || fail "check-config did not say OK"
grep -qF " partitions=3 enforcement=both " "${work}/check" || fail "check-config does not see the 3 partitions"

printf 'Good=0x10 : ALL ;\nBad=0x11 : ALL_HOSTS ;\n' >"${work}/bad.conf"
rc=0
"${SMD_BIN}" import-partitions "${work}/bad.conf" -o "${work}/bad.yaml" 2>"${work}/bad.err" || rc=$?
[[ ${rc} -eq 2 ]] || fail "bad file: exit ${rc}, expected 2"
grep -qF "${work}/bad.conf:2:12: 'ALL_HOSTS' is neither a port GUID" "${work}/bad.err" || fail "no line:column"
[[ ! -e "${work}/bad.yaml" && ! -e "${work}/bad.yaml.tmp" ]] || fail "a refused file left output behind"
echo "PASS"
