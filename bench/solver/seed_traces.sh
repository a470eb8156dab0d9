# SPDX-License-Identifier: Apache-2.0
# Shared by parsers.sh and checktimes.sh (sourced): the seven parsers'
# checked harnesses and their seed traces.
#   harness_of LIB            the harness a parser's rows are measured on
#   seed_traces BUILD LIB OUT traces every seed of LIB's harness (built in
#                             BUILD/harnesses-deb/LIB) into OUT/NNN.gbt, with
#                             the input beside each as NNN.gbt.input

harness_of() {
  case $1 in
  zlib) echo zlib_inflate ;; lz4) echo lz4_frame ;; cjson) echo cjson_parse ;;
  expat) echo expat_parse ;; libpng) echo png_read ;; giflib) echo gif_slurp ;;
  libspng) echo spng_decode ;; *) return 1 ;;
  esac
}

seed_traces() {
  local build=$1 lib=$2 dir=$3 h k=0 s t
  h=$(harness_of "$lib") || return 1
  mkdir -p "$dir"
  for s in "$build/harnesses-deb/$lib/seeds/$h"/*; do
    t=$dir/$(printf %03d $k).gbt
    cp "$s" "$t.input"
    "$build/bin/glassbox" trace "$s" -o "$t" -- "$build/harnesses-deb/$lib/$h.trace" >/dev/null 2>&1 || true
    [ -s "$t" ] || rm -f "$t" "$t.input"
    k=$((k + 1))
  done
}
