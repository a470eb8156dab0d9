/* SPDX-License-Identifier: Apache-2.0 */
/* The version every program and report states: the release, the commit it
 * was built from (gb_commit.h, written at build time), and the LLVM it
 * instruments with (from llvm-config when configured). */
#ifndef GB_VERSION_H
#define GB_VERSION_H

#include "gb_commit.h"

#define GB_VERSION "0.1.0"
/* "0.1.0 (commit 1a2b3c4)": fuzzer_stats' glassbox_version and --version. */
#define GB_VERSION_FULL GB_VERSION " (commit " GB_COMMIT ")"

#endif
