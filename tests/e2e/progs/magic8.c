/* SPDX-License-Identifier: Apache-2.0 */
/* An 8-byte magic compared with memcmp, then a crash: random mutation
 * practically never gets through, AFL++'s cmplog does at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 8 && memcmp(data, "gl4ssB0x", 8) == 0)
        abort();
    return 0;
}
