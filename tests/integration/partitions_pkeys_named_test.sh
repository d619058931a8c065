#!/usr/bin/env bash
# partitions_pkeys_test.sh (smd --once on twoswitch.net, every P_Key table read back with smpquery) with the
# named partitions of samples/partitions-named.yaml (GUID, ALL, ALL_CAS, node-description members, limited
# and full, index0; described in partitions_named_test.sh) and the matching checker spec.
here="$(cd "$(dirname "$0")" && pwd)"
PKEY_POLICY_YAML="${here}/samples/partitions-named.yaml" PKEY_SPEC_JSON="${here}/samples/partitions-named.json" \
  exec bash "${here}/partitions_pkeys_test.sh"
