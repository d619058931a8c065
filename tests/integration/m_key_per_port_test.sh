#!/usr/bin/env bash
# security.m_key_per_port on ibsim: every endport's PortInfo:M_Key, read back with smpquery (ibsim stores the
# field though it never checks it), is the key derived from the secret and the port's GUID, computed here with
# Python's hmac (HMAC-SHA-256, first 8 bytes), not by smd; MKeyProtectBits and M_KeyLeasePeriod are the
# policy's; state_dir/guid2mkey lists the same keys. A second smd --once (a new process, reading guid2mkey and
# neighbors) rewrites no port and leaves every key as it was.
. "$(dirname "$0")/once_common.sh"
SECRET=0x0123456789abcdef
once_bringup "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net" 6 16 "security:" "  m_key: ${SECRET}" \
  "  m_key_protect: 2" "  m_key_lease_period: 90" "  m_key_per_port: true"

# check_keys TAG: every LID's node and key port read with smpquery; the keys compared with the derivation.
check_keys() {
  sim timeout 120 python3 - "${SECRET}" "${ONCE_STATE}/guid2mkey" "$1" <<'PY'
import hashlib, hmac, re, subprocess, sys
secret, guid2mkey_path, tag = int(sys.argv[1], 16), sys.argv[2], sys.argv[3]

def fields(*args):
    out = subprocess.run(["smpquery", *args], capture_output=True, text=True, timeout=10, check=True).stdout
    return {m.group(1): m.group(2) for m in re.finditer(r"^(\w+):\.*(\S*)\s*$", out, re.M)}

def derive(guid):
    digest = hmac.new(secret.to_bytes(8, "big"), guid.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") or 1

seen, bad = {}, []
for lid in range(1, 64):
    try:
        ni = fields("nodeinfo", str(lid))
    except subprocess.CalledProcessError:
        continue
    port = "0" if ni["NodeType"].startswith("Switch") else ni["LocalPort"]
    pi = fields("portinfo", str(lid), port)
    guid = int(ni["PortGuid"], 16)
    key, want = int(pi["Mkey"], 16), derive(guid)
    seen[guid] = key
    if key != want or pi["MkeyProtectBits"] != "2" or pi["MkeyLeasePeriod"] != "90":
        bad.append(f"LID {lid} port GUID {guid:#x}: M_Key {key:#018x} (want {want:#018x}), "
                   f"protect {pi['MkeyProtectBits']}, lease {pi['MkeyLeasePeriod']}")
file_keys = {}
for line in open(guid2mkey_path):
    g, k = line.split()
    file_keys[int(g, 16)] = int(k, 16)
print(f"{tag}: {len(seen)} endports read back, {len(set(seen.values()))} distinct keys, {len(bad)} wrong")
for b in bad:
    print("  " + b)
if len(seen) != 22 or len(set(seen.values())) != 22 or bad or file_keys != seen:
    print(f"FAIL: {tag}: 22 endports with their own derived keys expected; guid2mkey "
          f"{'matches' if file_keys == seen else 'differs'}", file=sys.stderr)
    sys.exit(1)
PY
}
check_keys first
grep -Eq '^sm 0x[0-9a-f]{16} 1 0x[0-9a-f]{16} ca$' "${ONCE_STATE}/neighbors"
[[ $(grep -c . "${ONCE_STATE}/neighbors") -eq 49 ]]  # the SM's line and both ends of 24 cables

sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/smd.yaml" >"${IBSIM_WORKDIR}/smd2.out" \
  2>"${IBSIM_WORKDIR}/smd2.err"
cat "${IBSIM_WORKDIR}/smd2.out"
grep -q "SUBNET UP" "${IBSIM_WORKDIR}/smd2.out"
grep -q " 0 PortInfo Sets" "${IBSIM_WORKDIR}/smd2.out" || { echo "FAIL: the second run rewrote ports" >&2; exit 1; }
check_keys restarted
check_with_diags --expect-switches 6 --expect-cas 16
