#!/usr/bin/env bash
# What a Release tree (the README's main command, the Debian package) is configured to build, read from
# CMake's own output without compiling anything (issue 43 target 6):
#   - the tests are off by default, and `package` (which builds all first) compiles no test source;
#   - every library source compiles in a unity batch, once: the batches' sources and the executables' three
#     mains are exactly the tree's .cpp files outside tests/ and bench/ (found with find, not asked of CMake);
#   - -DSMD_BUILD_TESTS=ON brings the test executables back into such a tree.
# The scratch trees go to a private temp folder removed on exit; cmake and make are the only processes, run
# in the foreground. Usage: tests/check_release_tree.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?usage: check_release_tree.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/smd-release-tree.XXXXXX")
trap 'rm -rf "${work}"' EXIT
fail() {
  echo "release_tree: FAIL: $*" >&2
  exit 1
}

tree=${work}/release
cmake -S "${src}" -B "${tree}" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release >"${work}/configure.log" 2>&1 ||
  { cat "${work}/configure.log" >&2; fail "configuring a Release tree failed"; }
grep -qx 'SMD_BUILD_TESTS:BOOL=OFF' "${tree}/CMakeCache.txt" || fail "a Release tree builds the tests by default"
grep -qx 'SMD_UNITY_BUILD:BOOL=ON' "${tree}/CMakeCache.txt" || fail "a Release tree is not a unity build by default"

# make -n: the commands a build would run, printed, none run (sub-makes recurse with -n too). -k: a dry run
# stops at the first link, whose libraries it never made; the other targets' steps are printed all the same.
compiles() {  # the sources a target's build compiles (a unity batch or a single .cpp), one a line
  make -s -n -k -C "${tree}" "$1" >"${work}/$1.plan" 2>&1 || true
  grep -oE ' -c [^ ]+\.(cpp|cxx)' "${work}/$1.plan" | awk '{print $2}' | sort -u
}
in_batches() {  # the sources the unity batches among stdin's lines include
  local batch
  while IFS= read -r batch; do
    if [[ ${batch} == */unity_*_cxx.cxx ]]; then grep -oE '^#include "[^"]+\.cpp"' "${batch}" | cut -d'"' -f2; fi
  done | sort -u
}
package=$(compiles package)
[[ -n ${package} ]] || fail "make -n package shows no compile step: the plan's format changed?"
if grep "^${src}/tests/" <<<"${package}"; then fail "the package target compiles the test sources above"; fi
# The witness: every .cpp of the tree outside tests/ and bench/ (neither is packaged), from find, each
# compiled once, in a batch or (the three executables' mains) alone.
# Build trees inside the checkout (the README's build/ and build-test/) are not the tree's sources: a folder
# holding a CMakeCache.txt is skipped with all below it. Sources generated into the build tree (the fabric
# view's embedded page, view_assets.cpp) are compiled but are not the checkout's: only paths under it count.
build_dirs=$(find "${src}" -name CMakeCache.txt -not -path "${src}/.git/*" -printf '%h\n' | sort -u)
expected=$(find "${src}" -name '*.cpp' -not -path "${src}/tests/*" -not -path "${src}/bench/*" -not -path "${src}/.git/*" |
  while read -r f; do
    skip=0
    while read -r d; do
      if [[ -n ${d} && ${f} == "${d}/"* ]]; then skip=1; fi
    done <<<"${build_dirs}"
    if [[ ${skip} == 0 ]]; then echo "${f}"; fi
  done | sort)
got=$( (grep -v '/unity_[0-9]*_cxx\.cxx$' <<<"${package}" || true; in_batches <<<"${package}") | grep "^${src}/" | sort)
if [[ ${got} != "${expected}" ]]; then
  diff <(echo "${expected}") <(echo "${got}") >&2 || true
  fail "the package target's compile steps and the tree's sources differ (< only in the tree, > only compiled)"
fi
singles=$(grep -v '/unity_[0-9]*_cxx\.cxx$' <<<"${package}" | sed "s|^${src}/||" | tr '\n' ' ')
[[ ${singles} == "smd/cli/main.cpp smd/fabric_tool/fabric_main.cpp smd/smctl/smctl_main.cpp " ]] ||
  fail "compiled outside a unity batch: ${singles}(only the executables' mains should be)"
n_sources=$(grep -c . <<<"${expected}")
n_batches=$(grep -c '/unity_[0-9]*_cxx\.cxx$' <<<"${package}")
smd_steps=$(compiles smd | grep -c .)
echo "release_tree: package compiles ${n_sources} sources in ${n_batches} unity batches and 3 mains; smd: ${smd_steps} steps"

# Asked for, the tests are there again.
cmake -S "${src}" -B "${tree}" -DSMD_BUILD_TESTS=ON >"${work}/configure-tests.log" 2>&1 ||
  { cat "${work}/configure-tests.log" >&2; fail "reconfiguring with -DSMD_BUILD_TESTS=ON failed"; }
make -s -C "${tree}" help >"${work}/targets" 2>&1 || fail "make help"
grep -q 'smd_unit_tests' "${work}/targets" || fail "-DSMD_BUILD_TESTS=ON does not bring smd_unit_tests back"
echo "release_tree: a Release tree packages without tests, builds smd from unity batches, and takes tests when asked"
