#!/usr/bin/env bash
# `smd import-opensm-conf` against OpenSM itself, no fabric: Debian's opensm writes its full default
# configuration (`opensm -c`), and
#  - every option it writes is in smd's table with the same default (so no OpenSM option goes unhandled),
#    and docs/opensm-options.md is the table smd prints;
#  - the untouched file converts to a policy with nothing to report that `smd check-config` accepts;
#  - a site's file (options changed with sed, a partitions.conf beside it) converts, what smd lacks is
#    listed with its line, and check-config's summary shows the converted values.
# Not named *_test.sh: it needs no ibsim (registered by name in CMakeLists.txt).
set -euo pipefail
SMD_BIN="${SMD_BUILD_DIR:?SMD_BUILD_DIR must point at the build tree}/smd/smd"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v opensm >/dev/null || fail "opensm is not installed (.ci/install-deps.sh installs it)"

# opensm -c writes the file and exits; it needs no port for that.
timeout 30 opensm -c "${work}/opensm.conf" >"${work}/opensm.out" 2>&1 || true
[[ -s "${work}/opensm.conf" ]] || fail "opensm -c wrote nothing: $(cat "${work}/opensm.out")"

"${SMD_BIN}" import-opensm-conf --options-table >"${work}/table.md"
python3 - "${work}/opensm.conf" "${work}/table.md" "${SMD_SOURCE_DIR}/docs/opensm-options.md" <<'PY'
import sys
conf, table, doc = sys.argv[1:4]
opensm = {}
for line in open(conf):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, _, value = line.partition(" ")
    opensm[name] = value.strip()
rows = {}
for line in open(table):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 5 and cells[0].startswith("`"):
        rows[cells[0].strip("`")] = cells[1].strip("`")
missing = sorted(set(opensm) - set(rows))
extra = sorted(set(rows) - set(opensm))
wrong = sorted(n for n in opensm if n in rows and rows[n] != opensm[n])
assert not missing, f"OpenSM options not in smd's table: {missing}"
assert not extra, f"options in smd's table that this OpenSM does not write: {extra}"
assert not wrong, "defaults differ: " + ", ".join(f"{n} opensm={opensm[n]!r} smd={rows[n]!r}" for n in wrong)
doc_rows = [l for l in open(doc) if l.startswith("|")]
table_rows = [l for l in open(table) if l.startswith("|")]
assert doc_rows == table_rows, "docs/opensm-options.md differs from `smd import-opensm-conf --options-table`"
print(f"{len(opensm)} OpenSM options, all in smd's table with OpenSM's defaults; the doc matches")
PY

# The untouched default: nothing carried, nothing lost, and the result loads. (Its partitions file is
# pointed away from /etc/opensm, which may hold a real one on this machine.)
sed "s#^partition_config_file .*#partition_config_file ${work}/absent.conf#" "${work}/opensm.conf" >"${work}/default.conf"
"${SMD_BIN}" import-opensm-conf "${work}/default.conf" -o "${work}/default.yaml" 2>"${work}/default.err" ||
  fail "default file: exit $?: $(cat "${work}/default.err")"
tail -n 1 "${work}/default.err"
grep -q "0 carried over, 0 not carried, 159 at OpenSM's default" "${work}/default.err" || fail "default file: $(cat "${work}/default.err")"
"${SMD_BIN}" check-config "${work}/default.yaml" >/dev/null || fail "check-config refused the converted default"

# A site's file.
cat >"${work}/partitions.conf" <<'PART'
Default=0x7fff,ipoib : ALL=full ;
storage=0x0a01,ipoib : 0x0002c90300001234=full, ALL_SWITCHES=full ;
PART
sed -e 's/^sm_priority .*/sm_priority 9/' -e 's/^routing_engine .*/routing_engine updn,chaos/' \
  -e 's/^perfmgr .*/perfmgr TRUE/' -e 's/^avoid_throttled_links .*/avoid_throttled_links TRUE/' \
  -e "s#^partition_config_file .*#partition_config_file ${work}/partitions.conf#" -e 's/^part_enforce .*/part_enforce out/' \
  -e 's/^sminfo_polling_timeout .*/sminfo_polling_timeout 3000/' -e 's/^perfmgr_max_outstanding_queries .*/perfmgr_max_outstanding_queries 1000/' \
  "${work}/opensm.conf" >"${work}/site.conf"
"${SMD_BIN}" import-opensm-conf "${work}/site.conf" >"${work}/site.yaml" 2>"${work}/site.err" ||
  fail "site file: exit $?: $(cat "${work}/site.err")"
cat "${work}/site.err"
line_of() { grep -n "^$1 " "${work}/site.conf" | cut -d: -f1; }
grep -qF "not carried: ${work}/site.conf:$(line_of avoid_throttled_links): avoid_throttled_links TRUE: missing" "${work}/site.err" ||
  fail "avoid_throttled_links not reported with its line"
grep -qF "not carried: ${work}/site.conf:$(line_of routing_engine): routing_engine updn,chaos: missing: engine chaos" \
  "${work}/site.err" || fail "chaos not reported"
grep -qF "perfmgr_max_outstanding_queries 1000: refused by smd: perfmgr.max_outstanding" "${work}/site.err" ||
  fail "an out-of-range value was not moved out"
chmod 0644 "${work}/site.yaml"
summary=$("${SMD_BIN}" check-config "${work}/site.yaml") || fail "check-config refused the converted site file"
echo "${summary}"
for want in "engines=updn,minhop" "priority=9" "perfmgr=60s" "partitions=2" "enforcement=out"; do
  grep -qF "${want}" <<<"${summary}" || fail "check-config summary lacks ${want}"
done
grep -qF "poll_interval: 3  # ${work}/site.conf:$(line_of sminfo_polling_timeout) sminfo_polling_timeout 3000" \
  "${work}/site.yaml" || fail "poll_interval not converted with its source line"

# The file names go into YAML comments escaped: the site file under a folder whose name holds a newline, a
# '#', quotes and an escape byte converts to a policy PyYAML reads (the same mapping as above: only the
# comments differ), with the newline shown as \x0a.
odd="${work}/odd"$'\n'"name: #1 \"q\" 'x' "$'\x1b'
mkdir "${odd}"
cp "${work}/site.conf" "${odd}/site.conf"
"${SMD_BIN}" import-opensm-conf "${odd}/site.conf" -o "${work}/odd.yaml" 2>"${work}/odd.err" ||
  fail "site file under an odd name: exit $?: $(cat "${work}/odd.err")"
python3 - "${work}/odd.yaml" "${work}/site.yaml" <<'PY' || fail "the odd name broke the YAML: $(head -c 600 "${work}/odd.yaml")"
import sys, yaml
odd, site = (yaml.safe_load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
assert odd == site, (odd, site)
text = open(sys.argv[1], encoding="utf-8").read()
assert "odd\\x0aname: #1 \"q\" 'x' \\x1b/site.conf" in text, text[:300]
print("odd file name: escaped in the comments, the policy reads as the plain one")
PY

# A broken partitions.conf stops the conversion: exit 2, its line, nothing written.
printf 'Default=0x7fff : ALL=full\n' >"${work}/partitions.conf"
if "${SMD_BIN}" import-opensm-conf "${work}/site.conf" -o "${work}/broken.yaml" 2>"${work}/broken.err"; then
  fail "a partitions.conf without ';' was accepted"
fi
grep -qF "${work}/partitions.conf:" "${work}/broken.err" || fail "the partitions error does not name the file"
[[ ! -e "${work}/broken.yaml" ]] || fail "output written after an error"
echo "PASS"
