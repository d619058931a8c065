#!/usr/bin/env bash
# The RoCE plan on real FRR for a fabric whose switch names no operator would choose: leading punctuation,
# duplicates, non-ASCII, control bytes, an ANSI escape and bytes that are not UTF-8 (roce_frr_common.sh).
# Besides what every roce_frr test checks: the plan JSON keeps the names as the fabric gave them, every
# hostname is one FRR accepts, and frr-reload.py --test accepts every frr.conf.
. "$(dirname "$0")/roce_frr_common.sh"

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

awkward_netfile >"${LAB_DIR}/awkward.net"
roce_frr_plans "${LAB_DIR}/awkward.net" awkward 6 8

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
roce_frr_deploy awkward reload
