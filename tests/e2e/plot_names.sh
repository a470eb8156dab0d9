#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 34: `glassbox plot` on a directory whose name is gnuplot and HTML
# code. No byte of the name may become script (gnuplot's system() would
# run it), index.html holds the name escaped, and nothing is written
# through a symlink planted in the plots directory.
. "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null || fail "gnuplot is missing (scripts/build installs gnuplot-nox)"
cd "$WORK"
d="i'; system('touch PWNED'); x='<script>alert(1)<"
mkdir "$d"
{
  echo '# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, edges_found'
  echo '0,0,0,1,1,0,1.0%,0,0,1,10.0,10,5'
  echo '5,0,0,2,1,0,1.0%,0,0,1,10.0,60,7'
} >"$d/plot_data"
"$BIN/glassbox" plot "$d" >out.txt 2>err.txt || fail "plot failed: $(cat err.txt)"
[ ! -e PWNED ] && [ ! -e "$d/PWNED" ] && [ ! -e "$d/plots/PWNED" ] || fail "gnuplot ran code from the directory name"
[ -s "$d/plots/index.html" ] || fail "no index.html"
grep -q '<script' "$d/plots/index.html" && fail "the name reached index.html as markup"
grep -q '&lt;script&gt;' "$d/plots/index.html" || fail "the name is not in index.html, escaped"
head -c 8 "$d/plots/coverage.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "coverage.png is not a PNG"

# A link planted where a plot goes: refused, its target untouched.
echo keep >victim
rm "$d/plots/coverage.png"
ln -s "$WORK/victim" "$d/plots/coverage.png"
"$BIN/glassbox" plot "$d" >out.txt 2>err.txt && fail "plot wrote through a symlink"
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'symbolic link' err.txt || fail "no one-line error: $(cat err.txt)"
expect_eq "the link's target" "$(cat victim)" keep
rm "$d/plots/coverage.png" "$d/plots/index.html"
ln -s "$WORK/victim" "$d/plots/index.html"
"$BIN/glassbox" plot "$d" >out.txt 2>err.txt && fail "plot wrote index.html through a symlink"
expect_eq "the link's target" "$(cat victim)" keep
# The plots directory itself a link to elsewhere: not followed.
rm -rf "$d/plots"
mkdir elsewhere
ln -s "$WORK/elsewhere" "$d/plots"
"$BIN/glassbox" plot "$d" >out.txt 2>err.txt && fail "plot followed a symlinked plots dir"
[ -z "$(ls elsewhere)" ] || fail "files written through the plots link: $(ls elsewhere)"
# plot_data a FIFO: refused at once, no hang.
rm "$d/plots"
mkdir fifo_inst
mkfifo fifo_inst/plot_data
rc=0
timeout 10 "$BIN/glassbox" plot fifo_inst >out.txt 2>err.txt || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "plot on a FIFO plot_data: status $rc"
# The path printed at the end holds no raw control byte.
mkdir "$(printf 'ctl\033[31m')"
cp "$d/plot_data" "$(printf 'ctl\033[31m')/"
"$BIN/glassbox" plot "$(printf 'ctl\033[31m')" >out.txt 2>err.txt || fail "plot failed: $(cat err.txt)"
grep -q "$(printf '\033')" out.txt && fail "a control byte of the name reached the terminal"
grep -qF 'ctl\x1b[31m' out.txt || fail "the name is not shown escaped: $(cat out.txt)"
pass "plot: names are data, links are not followed"
