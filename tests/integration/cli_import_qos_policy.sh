#!/usr/bin/env bash
# `smd import-qos-policy` end to end, no fabric: a qos-policy.conf with every section and keyword OpenSM's
# QoS_management_in_OpenSM.txt shows (written here in its format), with the partitions.conf its port groups
# name, converted to YAML; what cannot be carried is warned about at file:line:column; `smd check-config`
# loads the output; stdout and -o give the same text; malformed files are refused with exit 2, their
# line:column and no output file. Not named *_test.sh: it needs no ibsim.
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"${work}/partitions.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full ;
Part1=0x1234 : ALL_CAS=full ;
EOF
cat >"${work}/qos-policy.conf" <<'EOF'
# Every section of a full QoS policy, then the simplified one.
port-groups
    port-group
        name: Storage
        use: SRP targets
        port-guid: 0x10000000000001, 0x10000000000005-0x10000000000007
        port-guid: 0x1000000000FFFF
    end-port-group
    port-group
        name: Virtual Servers
        port-name: vs1 HCA-1/P1, vs2 HCA-1/P1
    end-port-group
    port-group
        name: Partitions
        partition: Part1
        pkey: 0x7fff
    end-port-group
    port-group
        name: CAs and SM
        node-type: CA, SELF
    end-port-group
end-port-groups

qos-setup
    # parsed and ignored by OpenSM
    sl2vl-tables
    end-sl2vl-tables
end-qos-setup

qos-levels
    qos-level
        name: DEFAULT
        use: default QoS Level
        sl: 0
    end-qos-level
    qos-level
        name: WholeSet
        sl: 1
        mtu-limit: 4
        rate-limit: 5
        pkey: 0x1234
        packet-life: 8
        path-bits: 2
    end-qos-level
end-qos-levels

qos-match-rules
    qos-match-rule
        use: by QoS class
        qos-class: 7-9,11
        qos-level-name: WholeSet
    end-qos-match-rule
    qos-match-rule
        use: Storage targets
        destination: Storage
        service-id: 0x10000000000001, 0x10000000000008-0x10000000000FFF
        qos-level-name: WholeSet
    end-qos-match-rule
    qos-match-rule
        source: Storage
        qos-level-name: DEFAULT
    end-qos-match-rule
    qos-match-rule
        source: Virtual Servers
        destination: Storage
        service-id: 0x0000000000010000-0x000000000001FFFF
        pkey: 0x0F00-0x0FFF
        qos-level-name: WholeSet
    end-qos-match-rule
end-qos-match-rules

qos-ulps
    default                    : 0
    sdp, port-num 30000        : 2
    sdp                        : 1
    rds                        : 2
    iser, port-num 900         : 0
    iser                       : 3
    ipoib, pkey 0x0001         : 0
    ipoib                      : 4
    any, service-id 0x6234     : 6
    any, pkey 0x0ABC           : 6
    srp, target-port-guid 0x1234 : 5
    any, source-port-guid 0x5678 : 7
end-qos-ulps
EOF

q="${work}/qos-policy.conf"
"${SMD_BIN}" import-qos-policy "${q}" --partitions "${work}/partitions.conf" -o "${work}/qos.yaml" \
  2>"${work}/err" || fail "import exited $?: $(cat "${work}/err")"
cat "${work}/err"
grep -qF "warning: ${q}:11:20: port-name 'vs1 HCA-1/P1': smd groups every port of node 'vs1 HCA-1'" "${work}/err" ||
  fail "no warning for the port number"
grep -qF "warning: ${q}:24:1: qos-setup: OpenSM parses and ignores" "${work}/err" || fail "no qos-setup warning"
grep -qF "warning: ${q}:43:9: path-bits:" "${work}/err" || fail "no path-bits warning"
grep -qF "warning: ${q}:50:9: qos-class:" "${work}/err" || fail "no qos-class warning"
grep -qF "${q}: 6 port groups, 10 QoS levels, 14 match rules, 5 warnings" "${work}/err" || fail "wrong counts"
cat "${work}/qos.yaml"
y="${work}/qos.yaml"
# The values, as computed from OpenSM's documentation by hand: GUID ranges listed out, MTU code 4 = 2048
# bytes, rate code 5 = 5 Gb/s, P_Key 0x7fff -> partition Default, SDP port 30000 = service ID 0x10000 + 30000.
grep -qF -- '- {name: "Storage", guids: [0x0010000000000001, 0x0010000000000005, 0x0010000000000006, 0x0010000000000007, 0x001000000000ffff]}' "${y}" ||
  fail "Storage group"
grep -qF -- '- {name: "Partitions", partitions: ["Part1", "Default"]}' "${y}" || fail "partition group"
grep -qF -- '- {name: "CAs and SM", node_types: [ca], self: true}' "${y}" || fail "node-type group"
grep -qF -- '- {name: "WholeSet", sl: 1, mtu_limit: 2048, rate_limit: 5, packet_life: 8, pkeys: [0x1234]}' "${y}" ||
  fail "WholeSet level"
grep -qF -- '- {level: "ulp_sl2", service_ids: ["0x0000000000017530"]}' "${y}" || fail "sdp port-num rule"
grep -qF -- '- {level: "ulp_sl2", service_ids: ["0x00000000010648ca"]}' "${y}" || fail "rds rule"
grep -qF -- '- {level: "ulp_sl0", service_ids: ["0x0000000001060384"]}' "${y}" || fail "iser port-num rule"
grep -qF -- '- {level: "ulp_sl4", pkeys: ["0x7fff"]}' "${y}" || fail "ipoib default rule"
grep -qF -- '- {level: "ulp_sl5", destination: ["ulp_line83_target"]}' "${y}" || fail "srp rule"
# The file's rules come first, the qos-class rule is left out, then the ULP lines in order.
grep -o 'level: "[A-Za-z_0-9]*"' "${y}" | tr '\n' ' ' >"${work}/order"
[[ "$(cat "${work}/order")" == 'level: "WholeSet" level: "DEFAULT" level: "WholeSet" level: "ulp_sl2" level: "ulp_sl1" level: "ulp_sl2" level: "ulp_sl0" level: "ulp_sl3" level: "ulp_sl0" level: "ulp_sl4" level: "ulp_sl6" level: "ulp_sl6" level: "ulp_sl5" level: "ulp_sl7" ' ]] ||
  fail "rule order: $(cat "${work}/order")"

"${SMD_BIN}" import-qos-policy "${q}" --partitions "${work}/partitions.conf" >"${work}/stdout.yaml" 2>/dev/null
cmp -s "${work}/stdout.yaml" "${y}" || fail "stdout and -o differ"
chmod 0644 "${y}"
"${SMD_BIN}" check-config "${y}" >"${work}/check" 2>&1 || fail "check-config: $(cat "${work}/check")"
cat "${work}/check"
grep -qF "${y}: OK" "${work}/check" || fail "check-config did not say OK"

# Without the partitions file, Part1 is unknown: warned about and left out, and the output still loads.
"${SMD_BIN}" import-qos-policy "${q}" -o "${work}/alone.yaml" 2>"${work}/alone.err" || fail "alone: $(cat "${work}/alone.err")"
grep -qF "warning: ${q}:15:20: partition 'Part1' is not in smd's partitions: not carried" "${work}/alone.err" ||
  fail "no warning for the unknown partition"
chmod 0644 "${work}/alone.yaml"
"${SMD_BIN}" check-config "${work}/alone.yaml" >/dev/null 2>&1 || fail "the output without partitions does not load"

# Malformed files: exit 2, the place, nothing written.
check_bad() {  # name, expected message fragment, file text
  printf '%b' "$3" >"${work}/$1.conf"
  local rc=0
  "${SMD_BIN}" import-qos-policy "${work}/$1.conf" -o "${work}/$1.yaml" 2>"${work}/$1.err" || rc=$?
  [[ ${rc} -eq 2 ]] || fail "$1: exit ${rc}, expected 2"
  grep -qF "${work}/$1.conf:$2" "${work}/$1.err" || fail "$1: $(cat "${work}/$1.err")"
  [[ ! -e "${work}/$1.yaml" && ! -e "${work}/$1.yaml.tmp" ]] || fail "$1: a refused file left output behind"
}
check_bad unclosed "1:1: 'qos-levels' is never closed by 'end-qos-levels'" \
  'qos-levels\n  qos-level\n    name: DEFAULT\n  end-qos-level\n'
check_bad sl "3:10: sl: 16 is above 15" 'qos-levels\n qos-level\n     sl: 16\n end-qos-level\nend-qos-levels\n'
check_bad level "8:19: unknown qos-level 'Fast'" \
  'qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\nqos-match-rules\n qos-match-rule\n  qos-level-name: Fast\n end-qos-match-rule\nend-qos-match-rules\n'
check_bad ulp "2:3: unknown ULP 'nfs'" 'qos-ulps\n  nfs : 1\nend-qos-ulps\n'
check_bad keyword "3:5: unknown port-group keyword 'port-lid'" \
  'port-groups\n  port-group\n    port-lid: 5\n  end-port-group\nend-port-groups\n'
echo "PASS"
