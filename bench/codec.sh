#!/bin/bash
# codec.sh [CHECKOUT] [OUT_DIR]: build bench/codec_bench.cpp against a checkout's codec sources with the
# Release flags (-O2) and print ns per PortInfo/NodeInfo decode, PathRecord encode, SA header and
# MCMemberRecord decode. Run it on two
# checkouts to compare codec changes (e.g. bench/codec.sh /work/main; bench/codec.sh .).
set -euo pipefail
SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
OUT=${2:-$(mktemp -d)}
BENCH=$(cd "$(dirname "$0")" && pwd)/codec_bench.cpp
g++ -std=c++20 -O2 -DNDEBUG -I"$SRC" -o "$OUT/codec_bench" "$BENCH" "$SRC/mad/codec/port_info.cpp" \
  "$SRC/mad/codec/node_info.cpp" "$SRC/mad/sa/path_record.cpp" "$SRC/mad/sa/record_layout.cpp" \
  "$SRC/mad/sa/sa_mad.cpp" "$SRC/mad/sa/mcmember_record.cpp"
nice -n 0 "$OUT/codec_bench"
