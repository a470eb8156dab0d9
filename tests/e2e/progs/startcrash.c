/* SPDX-License-Identifier: Apache-2.0 */
/* Crashes in a constructor, before main and before any forkserver. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
__attribute__((constructor(200))) static void boom(void) { raise(SIGSEGV); }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n > 0 && d[0] == 'x'; }
