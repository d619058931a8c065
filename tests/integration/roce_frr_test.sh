#!/usr/bin/env bash
# The RoCE plan deployed on real FRR (Debian 12's frr 8.4), as a network engineer would: for a leaf/spine,
# a 3-level tree and a fabric with awkward switch names (leading punctuation, duplicates, non-ASCII and
# control bytes, bytes that are not UTF-8), the configs of `smd plan --roce-plan --frr-dir` and those the
# daemon leaves in state_dir/frr after `smd --once` on ibsim are loaded unchanged into FRR, one network
# namespace per switch (tests/integration/frr_lab.py). Every BGP session must be Established, the kernel
# FIB of every switch must equal the plan JSON for every prefix, and every host must ping every host
# behind another leaf. Namespaces and daemons are removed by name and PID on any exit (trap).
# Skips (exit 77) only when this machine cannot create a network namespace at all.
. "$(dirname "$0")/once_common.sh"

FRR_LAB="$(dirname "$0")/frr_lab.py"
SMD_FABRIC="${SMD_BUILD_DIR}/smd/smd-fabric"

probe="smd-netns-probe-$$"
if ! ip netns add "${probe}" 2>/dev/null; then
  echo "SKIP: cannot create a network namespace here ('ip netns add' failed: needs root with CAP_SYS_ADMIN)"
  exit 77
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

# Four leaves, two spines named as no operator would: "-leaf", ".leaf" and "leaf" become one hostname
# and two with the node GUID appended; bytes that are not UTF-8 become "switch"; the spines share a
# NodeDescription holding non-ASCII, control bytes, an ANSI escape, '!', '#' and a backslash.
awkward_netfile() {
  local spine=$'spine \xc3\xa9\x01\x1b[31m !#\\' bad=$'\xff\xfe\x7f' host=$'host\x1b]0;title\x07\t'
  local leaves=("-leaf" ".leaf" "leaf" "${bad}") l h
  for l in 0 1 2 3; do
    printf 'Switch 4 "L%d" # "%s"\n[1] "H%d"[1]\n[2] "H%d"[1]\n[3] "S0"[%d]\n[4] "S1"[%d]\n\n' \
      "${l}" "${leaves[l]}" $((2 * l)) $((2 * l + 1)) $((l + 1)) $((l + 1))
  done
  for l in 0 1; do
    printf 'Switch 4 "S%d" # "%s"\n[1] "L0"[%d]\n[2] "L1"[%d]\n[3] "L2"[%d]\n[4] "L3"[%d]\n\n' \
      "${l}" "${spine}" $((l + 3)) $((l + 3)) $((l + 3)) $((l + 3))
  done
  for h in 0 1 2 3 4 5 6 7; do
    printf 'Hca 1 "H%d" # "%s%d"\n[1] "L%d"[%d]\n\n' "${h}" "${host}" "${h}" $((h / 2)) $((h % 2 + 1))
  done
}

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

"${SMD_FABRIC}" leafspine --leaves 4 --spines 2 --hosts-per-leaf 2 -o "${LAB_DIR}/leafspine.net"
"${SMD_FABRIC}" kary --k 2 --n 3 -o "${LAB_DIR}/tree.net"
awkward_netfile >"${LAB_DIR}/awkward.net"
offline_plan "${LAB_DIR}/leafspine.net" leafspine
offline_plan "${LAB_DIR}/tree.net" tree
offline_plan "${LAB_DIR}/awkward.net" awkward
daemon_plan "${LAB_DIR}/leafspine.net" leafspine 6 8
daemon_plan "${LAB_DIR}/tree.net" tree 12 8
daemon_plan "${LAB_DIR}/awkward.net" awkward 6 8

# The awkward names reached the plans as the fabric gave them, and became hostnames FRR accepts.
python3 - "${LAB_DIR}/awkward-offline/plan.json" "${LAB_DIR}/awkward-daemon/roce-plan.json" <<'PY'
import json, re, sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        plan = json.load(f)
    names = [sw["frr_dir"] for sw in plan["switches"]]
    assert len(set(names)) == len(names), f"{path}: frr_dir not unique: {names}"
    for n in names:
        assert re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?", n), f"{path}: hostname {n!r}"
    descriptions = {sw["name"] for sw in plan["switches"]}
    assert {"-leaf", ".leaf", "leaf", "\ufffd\ufffd\x7f", "spine \u00e9\x01\x1b[31m !#\\"} == descriptions, descriptions
    guid_suffixed = [n for n in names if re.search(r"-[0-9a-f]{16}$", n)]
    assert len(guid_suffixed) == 3, f"{path}: duplicates {guid_suffixed}"
    assert "switch" in names, names
    print(f"{path.split('/')[-2]}: switch names {sorted(descriptions)!r} -> hostnames {names}")
PY

labs=()
for name in leafspine tree awkward; do
  reload=""
  [[ ${name} == awkward ]] && reload=":reload"
  labs+=(--lab "f$$${name:0:2}o:${LAB_DIR}/${name}-offline/plan.json:${LAB_DIR}/${name}-offline/frr${reload}")
  labs+=(--lab "f$$${name:0:2}d:${LAB_DIR}/${name}-daemon/roce-plan.json:${LAB_DIR}/${name}-daemon/frr${reload}")
done
timeout 240 python3 "${FRR_LAB}" --record "${LAB_RECORD}" --workdir "${LAB_DIR}/run" --timeout 60 "${labs[@]}"
echo "PASS: the RoCE plans of smd plan and smd --once are what FRR installs"
