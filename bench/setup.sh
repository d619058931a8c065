# shellcheck shell=bash
# Set-up shared by the top-level drivers bench/run.sh, repair.sh, takeover.sh, lossy.sh and soak.sh.
# Sourced, not run: it only defines functions (no traps, no processes, no files). The functions that print
# a value are meant for `x=$(f ...)`; there errexit does not reach inside, so each one checks its own steps
# and returns non-zero, after a message on stderr, when one fails.

_bench_setup_src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# bench_build_dir DIR: print DIR as an absolute path; when DIR is empty, first build smd, smd-fabric, smp_probe and smp_replay in bench/.build.
bench_build_dir() {
  local dir=$1
  if [[ -z "${dir}" ]]; then
    dir="${_bench_setup_src}/bench/.build"
    cmake -S "${_bench_setup_src}" -B "${dir}" -DCMAKE_BUILD_TYPE=Release >/dev/null || return
    cmake --build "${dir}" -j"$(nproc)" --target smd smd-fabric smp_probe smp_replay >/dev/null || return
  fi
  (cd "${dir}" && pwd)
}

# bench_fabric_args NAME ALLOWED: print the smd-fabric arguments of fabric NAME, which must be in the comma-separated ALLOWED.
bench_fabric_args() {
  local name=$1 allowed=$2
  if [[ ",${allowed}," == *",${name},"* ]]; then
    case "${name}" in
      ls512) echo "leafspine --leaves 32 --spines 16 --hosts-per-leaf 16"; return 0 ;;
      k8) echo "kary --k 8 --n 3"; return 0 ;;
      k12) echo "kary --k 12 --n 3"; return 0 ;;
      k16 | k20 | k24 | k28 | k30) echo "kary --k ${name#k} --n 3"; return 0 ;;
      torus) echo "torus --dims 8x8 --hosts-per-switch 2"; return 0 ;;
      random) echo "random --switches 64 --degree 4 --hosts-per-switch 2 --seed 1"; return 0 ;;
    esac
  fi
  echo "${0##*/}: unknown fabric ${name} (${allowed})" >&2
  return 2
}

# bench_osm_engine NAME: print OpenSM's -R engine for fabric NAME: updn (given a root) on torus and random, ftree on the trees.
bench_osm_engine() {
  case "$1" in
    torus | random) echo updn ;;
    *) echo ftree ;;
  esac
}

# bench_raw_dir DIR PREFIX: create DIR (a fresh ${TMPDIR:-/tmp}/PREFIX.XXXXXX when DIR is empty) and print it as an absolute path.
bench_raw_dir() {
  local dir=$1
  if [[ -z "${dir}" ]]; then dir=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX") || return; fi
  mkdir -p "${dir}" && (cd "${dir}" && pwd)
}

# bench_netfile BUILD GENARGS NETFILE: write NETFILE with BUILD's smd-fabric GENARGS and print the ibsim arguments it needs.
bench_netfile() {
  local fabgen="$1/smd/smd-fabric"
  local -a words
  read -r -a words <<<"$2"
  "${fabgen}" "${words[@]}" -o "$3" || return
  "${fabgen}" "${words[@]}" --ibsim-args
}

# bench_small_netfile BUILD NAME NETFILE: write fabric kary4-3 (a copy of tests/fabrics/kary4-3.net) or k8 (smd-fabric) to NETFILE.
bench_small_netfile() {
  local line
  local -a words
  if [[ "$2" == kary4-3 ]]; then
    cp "${_bench_setup_src}/tests/fabrics/kary4-3.net" "$3"
  else
    line=$(bench_fabric_args "$2" kary4-3,k8) || return
    read -r -a words <<<"${line}"
    "$1/smd/smd-fabric" "${words[@]}" -o "$3"
  fi
}
