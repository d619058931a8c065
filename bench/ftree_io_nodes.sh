#!/usr/bin/env bash
# ftree with compute-node and I/O-node lists (issue 41) on the 1728-host 12-ary 3-tree, N = 173 I/O nodes
# (10 % of 1728) placed two ways (bench/ftree_io_fabric.py):
#   top:  added, each cabled to a free port of a top-level switch, round-robin over the 144 top switches
#         (io-j on sw-L2-(j mod 144); 29 switches get two): 1728 compute nodes. An I/O node on a top switch
#         has no up*/down* route from the switches outside its subtree: they need one reverse hop;
#   leaf: 173 of the 1728 hosts, spread evenly (host floor((2j + 1) 1728 / 346) becomes io-j), stay where
#         they are: 1555 compute nodes, 10 or 11 per leaf. Without the lists they sit in ftree's CA order.
#
#   bench/ftree_io_nodes.sh [--build DIR] [--ios N] [--placements "top leaf"] [--raw DIR] [--out FILE]
#                           [--no-opensm]
#
# Runs (each smd run is `smd plan` offline; the tables it would program go to an opensm-lfts.dump):
#   lists:    routing.engines [ftree], cn_guids_file (the 1728 hosts), io_guids_file, max_reverse_hops 1
#   no-lists: the default chain [ftree, updn, minhop] with no lists (ftree declines: CAs on two levels)
#   zero:     as lists with max_reverse_hops 0 (top only: ftree must decline, naming a switch that needs a
#             reverse hop)
#   opensm:   `opensm -o -R ftree -a ROOTS -u CN -G IO -H 1 -D 0x07` on ibsim (it needs the root file: it
#             ranks from every CA), its LFTs read back with tests/integration/read_routes.py (ibroute, smpdump)
# Every table set is walked by tests/integration/ftree_io_check.py (no smd code): compute-node shift max
# load over all 1727 shifts of the host order, and every route to or from an I/O node (every switch and CA
# to every I/O node, every I/O node to every host): delivered or not, and the most reverse hops.
# Routing time: smd plan's compute_ms (ftree alone, verification apart); OpenSM's log from "building
# routing with" to "tables configured on all switches".
# Every process started is killed by PID on exit, failure included (tests/integration/ibsim_env.sh trap).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${bench}/.." && pwd)
build="" ios=173 raw="" out="" opensm=1 placements="top leaf"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --ios) ios=$2; shift 2 ;;
    --placements) placements=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    --no-opensm) opensm=0; shift ;;
    *) echo "ftree_io_nodes.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
# shellcheck source=setup.sh
. "${bench}/setup.sh"
build=$(bench_build_dir "${build}")
# shellcheck source=lib.sh
. "${bench}/lib.sh"
raw=$(bench_raw_dir "${raw}" smd-ftree-io)
check="${src}/tests/integration/ftree_io_check.py"
echo "ftree I/O nodes: ${ios} I/O nodes on the 12-ary 3-tree (${placements}); raw outputs in ${raw}"
bench_netfile "${build}" "kary --k 12 --n 3" "${raw}/k12.net" >/dev/null

# plan DIR NET REVERSE|none ENGINES NAME: smd plan with that policy; NAME.json, NAME.dump, NAME.check in DIR.
plan() {
  local dir=$1 net=$2 reverse=$3 engines=$4 name=$5 rc=0
  {
    printf 'routing:\n  engines: [%s]\n' "${engines}"
    [[ ${reverse} == none ]] ||
      printf '  ftree:\n    cn_guids_file: %s\n    io_guids_file: %s\n    max_reverse_hops: %s\n' \
        "${dir}/cn" "${dir}/io" "${reverse}"
  } >"${dir}/${name}.yaml"
  timeout 600 "${build}/smd/smd" plan --topology "${net}" --config "${dir}/${name}.yaml" --format json \
    --max-shifts 1 --seeds 1 --opensm-lfts "${dir}/${name}.dump" >"${dir}/${name}.json" 2>"${dir}/${name}.err" || rc=$?
  echo "  ${dir##*/} ${name}: smd plan exit ${rc}"
  if [[ ${rc} -eq 0 ]]; then
    timeout 900 python3 "${check}" --dump "${dir}/${name}.dump" --netfile "${net}" --cn-prefix host- \
      --io-prefix io- >"${dir}/${name}.check"
  fi
  rm -f "${dir}/${name}.dump"  # 68 MB each
}

# osm DIR NET: OpenSM's ftree with the same files on ibsim, read back; opensm.log, opensm.check in DIR.
osm() {
  local dir=$1 net=$2
  bench_ibsim_start "${net}" 1200 -N 4096 -S 600 -P 16384
  mkdir -p "${dir}/osm-cache"
  sim env OSM_CACHE_DIR="${dir}/osm-cache" timeout 600 opensm -o -R ftree -a "${dir}/roots" -u "${dir}/cn" \
    -G "${dir}/io" -H 1 -D 0x07 -f "${dir}/opensm.log" >"${dir}/opensm.out" 2>&1 || true
  if grep -q "ftree tables configured on all switches" "${dir}/opensm.log"; then
    sim timeout 900 python3 "${src}/tests/integration/read_routes.py" >"${dir}/opensm.readback.json"
    timeout 900 python3 "${check}" --readback "${dir}/opensm.readback.json" --cn-prefix host- --io-prefix io- \
      >"${dir}/opensm.check"
  else
    echo "  ${dir##*/} opensm: its ftree did not configure the tables (see ${dir}/opensm.log)"
  fi
  ibsim_stop
}

for placement in ${placements}; do
  dir="${raw}/${placement}"
  mkdir -p "${dir}"
  python3 "${bench}/ftree_io_fabric.py" "${raw}/k12.net" --top-prefix sw-L2- --ios "${ios}" \
    --placement "${placement}" --out "${dir}/k12-io.net" --cn "${dir}/cn" --io "${dir}/io" --roots "${dir}/roots"
  plan "${dir}" "${dir}/k12-io.net" 1 ftree lists
  plan "${dir}" "${dir}/k12-io.net" none "ftree, updn, minhop" no-lists
  [[ ${placement} != top ]] || plan "${dir}" "${dir}/k12-io.net" 0 ftree zero
  [[ ${opensm} -eq 0 ]] || osm "${dir}" "${dir}/k12-io.net"
done

python3 - "${raw}" "${ios}" ${placements} <<'PY' | tee ${out:+"${out}"}
import json, os, re, sys
from datetime import datetime
top, ios = sys.argv[1], int(sys.argv[2])
TITLE = {"top": f"1728 compute nodes + {ios} I/O nodes on the top switches",
         "leaf": f"{1728 - ios} compute nodes + {ios} I/O nodes among them on the leaves"}
def load(raw, name):
    p = os.path.join(raw, name)
    return json.load(open(p)) if os.path.exists(p) and os.path.getsize(p) else None
def osm_ms(raw):
    stamps = {}
    p = os.path.join(raw, "opensm.log")
    if not os.path.exists(p):
        return None
    for line in open(p, errors="replace"):
        m = re.match(r"^(\w{3} \d\d \d\d:\d\d:\d\d) (\d{6})", line)
        if not m:
            continue
        t = datetime.strptime(m.group(1), "%b %d %H:%M:%S").timestamp() + int(m.group(2)) / 1e6
        if "building routing with" in line and "start" not in stamps:
            stamps["start"] = t
        if "tables configured on all switches" in line:
            stamps["end"] = t
    return (stamps["end"] - stamps["start"]) * 1000 if len(stamps) == 2 else None
for placement in sys.argv[3:]:
    raw = os.path.join(top, placement)
    rows = []
    for name, label in (("lists", "smd ftree, cn/io lists, max_reverse_hops 1"),
                        ("no-lists", "smd default chain, no lists"),
                        ("zero", "smd ftree, cn/io lists, max_reverse_hops 0"),
                        ("opensm", "OpenSM 3.3.23 ftree -a roots -u cn -G io -H 1")):
        chk = load(raw, name + ".check")
        if name == "opensm":
            plan, engine, ms, dl = None, "ftree", osm_ms(raw), "-"
            if ms is None and chk is None:
                continue
        else:
            if not os.path.exists(os.path.join(raw, name + ".yaml")):
                continue
            plan = load(raw, name + ".json")
            engine = plan["engine"] if plan else "declined"
            ms = plan["compute_ms"] if plan else None
            dl = (("yes" if plan["deadlock_free"] else "no") + "/" + ("yes" if plan["ca_deadlock_free"] else "no")
                  if plan else "-")
        note = ""
        if plan is None and name != "opensm":
            err = open(os.path.join(raw, name + ".err")).read().strip().splitlines()
            note = err[-1][err[-1].find("[") :] if err else ""
        elif plan and plan.get("declined"):
            note = "; ".join(d["engine"] + ": " + d["reason"] for d in plan["declined"])
        cell = lambda k: "-" if chk is None or chk.get(k) is None else str(chk[k])
        rows.append(f"| {label} | {engine} | {cell('cn_shift_max_load')} | "
                    f"{'-' if chk is None else str(chk['io_delivered']) + '/' + str(chk['io_routes'])} | "
                    f"{cell('io_max_reverse_hops')} | {dl} | {'-' if ms is None else f'{ms:.0f}'} | {note} |")
    print(f"\n12-ary 3-tree, {TITLE[placement]}\n")
    print("| run | engine | CN shift max load | I/O routes delivered | most reverse hops | deadlock-free all/CA-injected "
          "| routing ms | declined |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
PY
