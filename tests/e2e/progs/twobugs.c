/* SPDX-License-Identifier: Apache-2.0 */
/* Two distinct bugs for live triage: an abort() in one function and a
 * null write in another, each behind two byte tests. Every crashing input
 * falls in one of exactly two buckets. */
#include <stdint.h>
#include <stdlib.h>

__attribute__((noinline)) static void check_bang(const uint8_t *d)
{
    if (d[1] == '!')
        abort();
}

__attribute__((noinline)) static void check_query(const uint8_t *d)
{
    volatile int *p = NULL;
    if (d[1] == '?')
        *p = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    if (data[0] == 'A')
        check_bang(data);
    else if (data[0] == 'B')
        check_query(data);
    return 0;
}
