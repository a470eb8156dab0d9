/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: htons/ntohs/htonl/ntohl (calls at -O0, llvm.bswap at -O2).
 * Property: abort() when the big-endian fields are 0x1234, 0xdeadbeef and
 * the host-order ones convert to 0x5678 and 0x0a0b0c0d. */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00
// pc-bytes: b0 b1
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    uint16_t s, t;
    uint32_t l, m;
    if (n < 12)
        return 0;
    memcpy(&s, d, 2);
    memcpy(&l, d + 2, 4);
    memcpy(&t, d + 6, 2);
    memcpy(&m, d + 8, 4);
    printf("%x %x %x %x\n", ntohs(s), ntohl(l), htons(t), htonl(m));
    if (ntohs(s) == 0x1234 && ntohl(l) == 0xdeadbeef && htons(t) == 0x5678 &&
        htonl(m) == 0x0a0b0c0d)
        abort();
    return 0;
}
