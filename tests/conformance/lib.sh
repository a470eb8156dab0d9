# SPDX-License-Identifier: Apache-2.0
# Shared by run.sh and equiv.sh: $1 = build dir, $2 = this suite's build dir.
set -euo pipefail
BIN=$1/bin
C=$2
SRCDIR=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-conf.XXXXXX")
trap 'rm -rf "$W"' EXIT
JOBS=${GB_CONF_JOBS:-$(nproc 2>/dev/null || echo 2)}

# Program names, from progs/*.c and progs/*.cc.
progs() { (cd "$SRCDIR/progs" && ls *.c *.cc 2>/dev/null || true) | sed "s/\.[a-z]*$//" | sort; }

src_of() { ls "$SRCDIR/progs/$1".c "$SRCDIR/progs/$1".cc 2>/dev/null | head -1; }

# write_seed NAME FILE: the program's "// seed:" hex line as bytes.
write_seed() {
  local hex b out=""
  hex=$(sed -n 's|^// seed: *||p' "$(src_of "$1")" | head -1)
  for b in $hex; do out+="\\x$b"; done
  printf "$out" >"$2"
}

# The program's arguments: "// args: @@" means the input path (default).
args_of() { sed -n 's|^// args: *||p' "$(src_of "$1")" | head -1; }

# run_args NAME PATH: the words to run the program with on the input file
# PATH: its "// args:" with "@@" replaced, or PATH alone (as glassbox fuzz).
run_args() {
  local a
  a=$(args_of "$1")
  if [ -z "$a" ]; then echo "$2"; else echo "${a//@@/$2}"; fi
}
