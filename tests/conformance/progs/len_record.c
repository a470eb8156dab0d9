/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a length field checked against the bytes that are there.
 * Property: a record whose declared length (byte 0) fits the input and
 * whose payload ends in "!!" — from a seed of one empty record, the search
 * must both raise the field and extend the input to match it. */
// seed: 00
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    size_t len = d[0];
    if (len + 1 > n)
        return 0; /* truncated record */
    if (len >= 8 && d[len - 1] == '!' && d[len] == '!')
        abort();
    return 0;
}
