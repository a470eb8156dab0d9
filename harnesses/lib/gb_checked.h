/* SPDX-License-Identifier: Apache-2.0 */
/* -include'd into every library build of harnesses/lib/debsrc.sh:
 * afl-clang-fast defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, and some
 * libraries then skip their magic and checksum tests (lz4's frame header).
 * The harnesses fuzz the checked library. */
#undef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
