#!/usr/bin/env bash
# systemd/smd-instances (what smd-all.service runs) on a made-up sysfs: PORTS=ALL lists the port GUIDs of
# the InfiniBand ports (GID 0's interface ID) and skips RoCE ports and ports without GIDs; a GUID list is
# echoed; NONE lists nothing; a word that is no GUID exits 2 and `start` then starts nothing.
set -euo pipefail
: "${SMD_SOURCE_DIR:?}"
script="${SMD_SOURCE_DIR}/systemd/smd-instances"
work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT

fail() {
  echo "cli.smd_instances: FAIL: $*" >&2
  exit 1
}

# port DIR LINK_LAYER [GID]
port() {
  mkdir -p "${work}/sys/class/infiniband/$1"
  echo "$2" >"${work}/sys/class/infiniband/$1/link_layer"
  if [[ $# -ge 3 ]]; then
    mkdir -p "${work}/sys/class/infiniband/$1/gids"
    echo "$3" >"${work}/sys/class/infiniband/$1/gids/0"
  fi
}
port mlx5_0/ports/1 InfiniBand fe80:0000:0000:0000:0002:c903:00a1:b2c3
port mlx5_0/ports/2 InfiniBand fe80:0000:0000:0000:0002:c903:00a1:b2c4
port mlx5_1/ports/1 Ethernet fe80:0000:0000:0000:0202:c9ff:fe00:0001
port mlx5_2/ports/1 InfiniBand

export SMD_SYSFS="${work}/sys"
[[ "$(PORTS=ALL sh "${script}" list)" == $'0x0002c90300a1b2c3\n0x0002c90300a1b2c4' ]] ||
  fail "PORTS=ALL: $(PORTS=ALL sh "${script}" list)"
[[ "$(env -u PORTS sh "${script}" list)" == $'0x0002c90300a1b2c3\n0x0002c90300a1b2c4' ]] || fail "PORTS unset is not ALL"
[[ -z "$(PORTS=NONE sh "${script}" list)" ]] || fail "PORTS=NONE listed ports"
[[ "$(PORTS='0x1  0x0002C90300A1B2C3' sh "${script}" list)" == $'0x1\n0x0002C90300A1B2C3' ]] || fail "a GUID list is not echoed"
for bad in "../x" "0x" "rail0" "0x10000000000000000"; do
  rc=0
  PORTS="0x1 ${bad}" sh "${script}" start >"${work}/out" 2>&1 || rc=$?
  [[ ${rc} -eq 2 ]] || fail "PORTS word '${bad}': exit ${rc}, expected 2"
  grep -qF "'${bad}' is not a port GUID" "${work}/out" || fail "PORTS word '${bad}': $(cat "${work}/out")"
  if grep -q starting "${work}/out"; then fail "PORTS word '${bad}': something was started"; fi
done
[[ "$(PORTS=NONE sh "${script}" start)" == *"no InfiniBand port"* ]] || fail "PORTS=NONE start"
rc=0
sh "${script}" frobnicate >/dev/null 2>&1 || rc=$?
[[ ${rc} -eq 2 ]] || fail "an unknown command exited ${rc}"
echo "cli.smd_instances: ALL, NONE, GUID lists and bad words as expected"
