# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced by bugs.sh, crashrule.sh and triage.sh, after their die(): which
# harness of a build dir to replay. A build dir of build.sh may hold
# several (libtiff's: Magma's tiff_read_rgba_fuzzer and tiff_read_rgba_mem),
# and an input that triggers a canary in one need not in the other, so the
# replay must run the harness the campaign ran: --name NAME, or the only
# one the build dir holds.
#   NAME=$(magma_harness BUILD_DIR NAME_OR_EMPTY)
magma_harness() {
  local b=$1 n=$2 f all=()
  if [ -n "$n" ]; then
    [[ $n =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] || die "--name needs a harness name ([A-Za-z0-9._-])"
    [ -x "$b/$n.plain" ] || die "no $n.plain in ${b@Q} (bench/magma/build.sh makes it)"
    printf '%s\n' "$n"
    return
  fi
  for f in "$b"/*.plain; do
    [ -x "$f" ] && all+=("$(basename "$f" .plain)")
  done
  [ ${#all[@]} -gt 0 ] || die "no NAME.plain in ${b@Q} (bench/magma/build.sh makes it)"
  [ ${#all[@]} -eq 1 ] ||
    die "${b@Q} holds ${#all[@]} harnesses (${all[*]@Q}): give --name, the one the campaign ran"
  printf '%s\n' "${all[0]}"
}
