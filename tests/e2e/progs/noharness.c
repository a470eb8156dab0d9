/* SPDX-License-Identifier: Apache-2.0 */
/* Exits from LLVMFuzzerInitialize: the harness never runs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    exit(0);
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n > 0 && d[0] == 'x'; }
