#!/usr/bin/env bash
# The main job on a bundled fabric: start ibsim on tests/fabrics/kary4-3.net (a 3-level 4-ary fat tree,
# 64 hosts, 48 switches), run `smd --once` on it under the umad2sim shim, then show what infiniband-diags
# see. Usage: smd/demo.sh [BUILD_DIR] [NETFILE]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${src}/build}" && pwd)
netfile=$(realpath "${2:-${src}/tests/fabrics/kary4-3.net}")

. "${src}/tests/integration/ibsim_env.sh"
ibsim_start "${netfile}"
cat >"${IBSIM_WORKDIR}/smd.yaml" <<YAML
sm:
  state_dir: ${IBSIM_WORKDIR}/state
routing:
  engines: [ftree, updn, minhop]
YAML
echo "== smd --once on $(basename "${netfile}")"
rc=0
sim timeout 120 "${build}/smd/smd" --once --config "${IBSIM_WORKDIR}/smd.yaml" || rc=$?
echo
echo "== what infiniband-diags see (independent of smd)"
sim timeout 60 iblinkinfo >"${IBSIM_WORKDIR}/iblinkinfo" 2>/dev/null || rc=1
# iblinkinfo lists the CAs first: two of them, then the first switch with its cables to hosts and switches.
head -n 4 "${IBSIM_WORKDIR}/iblinkinfo"
echo "   ..."
awk '/^Switch:/ { n++ } n == 1' "${IBSIM_WORKDIR}/iblinkinfo"
echo "   ... ($(grep -c 'Active/  LinkUp' "${IBSIM_WORKDIR}/iblinkinfo") port lines Active/LinkUp in all)"
sim timeout 120 python3 "${src}/tests/integration/check_fabric.py" || rc=1
echo "== guid2lid written by smd (first lines)"
head -n 4 "${IBSIM_WORKDIR}/state/guid2lid" || true
exit ${rc}
