/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a struct filled from the input, copied by value, read back.
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
struct hdr {
    uint16_t kind;
    uint8_t flags;
    uint8_t pad;
    uint32_t len;
};
static struct hdr parse(const uint8_t *d)
{
    struct hdr h;
    memcpy(&h, d, sizeof h);
    return h;
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < sizeof(struct hdr))
        return 0;
    struct hdr h = parse(d), g;
    g = h;
    if (g.kind == 0x4b50 && (g.flags & 0x81) == 0x81 && g.len == 777)
        abort();
    return 0;
}
