# Shared body of the roce_frr_*_test.sh tests: the RoCE plan deployed on real FRR (Debian 12's frr 8.4),
# as a network engineer would. The configs of `smd plan --roce-plan --frr-dir` and those the daemon leaves
# in state_dir/frr after `smd --once` on ibsim are loaded unchanged into FRR, one network namespace per
# switch (tests/integration/frr_lab.py). Every BGP session must be Established, the kernel FIB of every
# switch must equal the plan JSON for every prefix, and every host must ping a host behind every other
# leaf. Namespaces and daemons (zebra, bgpd, ibsim) are removed by PID on any exit (trap).
#   roce_frr_plans NETFILE NAME SWITCHES CAS   # LAB_DIR/NAME-offline (smd plan), LAB_DIR/NAME-daemon (smd --once)
#   roce_frr_deploy NAME [reload]              # both on FRR, checked (reload: frr-reload.py --test too)
# Needs root (network namespaces) and frr, frr-pythontools, iputils-ping (.ci/install-deps.sh): without
# them the test FAILS, it never skips (CI runs as root).
. "$(dirname "${BASH_SOURCE[0]}")/once_common.sh"

FRR_LAB="$(dirname "${BASH_SOURCE[0]}")/frr_lab.py"
SMD_FABRIC="${SMD_BUILD_DIR}/smd/smd-fabric"

probe="smd-netns-probe-$$"
if ! ip netns add "${probe}" 2>/dev/null; then
  echo "FAIL: cannot create a network namespace ('ip netns add' failed): this test needs root with CAP_SYS_ADMIN" >&2
  exit 1
fi
ip netns del "${probe}"
for tool in /usr/lib/frr/zebra /usr/lib/frr/bgpd /usr/lib/frr/frr-reload.py /usr/bin/vtysh /usr/bin/ping; do
  if [[ ! -x ${tool} ]]; then
    echo "FAIL: ${tool} is missing: install frr, frr-pythontools and iputils-ping (.ci/install-deps.sh)" >&2
    exit 1
  fi
done

# The daemons drop to user frr: their run directories must be reachable by it.
LAB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/smd-frr.XXXXXX")
chmod 0755 "${LAB_DIR}"
LAB_RECORD="${LAB_DIR}/record"

# Every daemon named in the record (if /proc still shows it under that name) and every namespace.
_frr_cleanup() {
  local kind value comm _ alive
  if [[ -f ${LAB_RECORD} ]]; then
    while read -r kind value comm; do
      if [[ ${kind} == pid && "$(cat "/proc/${value}/comm" 2>/dev/null)" == "${comm}" ]]; then
        kill -TERM "${value}" 2>/dev/null || true
      fi
    done <"${LAB_RECORD}"
    for _ in $(seq 1 50); do
      alive=0
      while read -r kind value comm; do
        [[ ${kind} == pid && -e /proc/${value} ]] && alive=1
      done <"${LAB_RECORD}"
      ((alive)) || break
      sleep 0.1
    done
    while read -r kind value comm; do
      if [[ ${kind} == pid && "$(cat "/proc/${value}/comm" 2>/dev/null)" == "${comm}" ]]; then
        kill -KILL "${value}" 2>/dev/null || true
      elif [[ ${kind} == netns ]]; then
        ip netns del "${value}" 2>/dev/null || true
      fi
    done <"${LAB_RECORD}"
  fi
  rm -rf "${LAB_DIR}"
}
trap 'rc=$?; _frr_cleanup; (exit ${rc}); _ibsim_cleanup' EXIT

# offline_plan NETFILE NAME: `smd plan` writes LAB_DIR/NAME-offline/{plan.json,frr/}.
offline_plan() {
  local out="${LAB_DIR}/$2-offline"
  mkdir -p "${out}"
  timeout 60 "${SMD_BIN}" plan --topology "$1" --roce-plan "${out}/plan.json" --frr-dir "${out}/frr" >/dev/null
}

# daemon_plan NETFILE NAME SWITCHES CAS: smd --once on ibsim leaves LAB_DIR/NAME-daemon/{roce-plan.json,frr/}.
daemon_plan() {
  local netfile=$1 name=$2 state="${LAB_DIR}/$2-daemon"
  ibsim_start "${netfile}"
  write_policy "${IBSIM_WORKDIR}/${name}.yaml" "${state}"
  if ! sim timeout 120 "${SMD_BIN}" --once --config "${IBSIM_WORKDIR}/${name}.yaml" >"${IBSIM_WORKDIR}/${name}.out" \
    2>"${IBSIM_WORKDIR}/${name}.err"; then
    tail -n 30 "${IBSIM_WORKDIR}/${name}.out" "${IBSIM_WORKDIR}/${name}.err" >&2
    echo "FAIL: smd --once did not bring ${name} up" >&2
    return 1
  fi
  grep -q "fabric:   $3 switches, $4 CAs" "${IBSIM_WORKDIR}/${name}.out" || {
    echo "FAIL: smd --once on ${name} did not report $3 switches, $4 CAs" >&2
    return 1
  }
  ibsim_stop
}

# roce_frr_plans NETFILE NAME SWITCHES CAS: both plans of NETFILE, offline and from smd --once.
roce_frr_plans() {
  offline_plan "$1" "$2"
  daemon_plan "$@"
}

# roce_frr_deploy NAME [reload]: both plans of NAME deployed at once on FRR (namespace prefixes f<pid>o and
# f<pid>d), checked, torn down by the trap.
roce_frr_deploy() {
  local name=$1 reload=""
  [[ ${2:-} == reload ]] && reload=":reload"
  timeout 240 python3 "${FRR_LAB}" --record "${LAB_RECORD}" --workdir "${LAB_DIR}/run" --timeout 180 \
    --lab "f$$o:${LAB_DIR}/${name}-offline/plan.json:${LAB_DIR}/${name}-offline/frr${reload}" \
    --lab "f$$d:${LAB_DIR}/${name}-daemon/roce-plan.json:${LAB_DIR}/${name}-daemon/frr${reload}"
  echo "PASS: the RoCE plans of smd plan and smd --once on ${name} are what FRR installs"
}
