#!/usr/bin/env bash
# More partitions than a port's P_Key table holds (80 with every port a full member; ibsim's CA
# PartitionCap is 64): each sweep programs what fits and reports the rest as capacity problems, so the
# subnet is not "up". The SA must still serve (PathRecords, joins) from the tables as programmed, and
# infiniband-diags must find the index-0 key and 63 others on a host's port: the fit, not nothing.
. "$(dirname "$0")/daemon_common.sh"
lines=("partitions:" "  list:" "    - {pkey: 0x7fff, default_membership: full, members: [ALL]}")
for i in $(seq 1 80); do lines+=("    - {pkey: $(printf '0x%x' $((0x100 + i))), default_membership: full, members: [ALL]}"); done
ibsim_start "${SMD_SOURCE_DIR}/tests/fabrics/leafspine.net"
write_policy "${IBSIM_WORKDIR}/a.yaml" "${IBSIM_WORKDIR}/state-a" "${lines[@]}"
start_daemon a "${IBSIM_WORKDIR}/a.yaml"
wait_log a "P_Keys exceed PartitionCap 64" 60
wait_log a "SA: serving" 30
out=$(sim timeout 10 saquery -p --src-to-dst 1:3 2>&1) || { echo "${out}" >&2; echo "FAIL: no PathRecord" >&2; exit 1; }
echo "${out}" | grep -qE "^\s*dlid\.+3$" || { echo "${out}" >&2; echo "FAIL: PathRecord without DLID 3" >&2; exit 1; }
# host-0's port (LID 1) holds 64 keys: the default partition's and the first 63 in partition order.
keys=$(sim timeout 10 smpquery -D pkeys 0 2>/dev/null | grep -oE '0x[0-9a-f]{4}' | grep -vc '^0x0000$' || true)
[[ "${keys}" -eq 64 ]] || { sim timeout 10 smpquery -D pkeys 0 >&2 || true; echo "FAIL: ${keys} P_Keys on host-0, expected 64" >&2; exit 1; }
echo "PASS: SA serves with the P_Key tables cut to PartitionCap; host-0 holds ${keys} keys"
