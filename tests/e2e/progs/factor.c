/* SPDX-License-Identifier: Apache-2.0 */
/* Keeps Z3 busy: 24 gates, each a 64-bit product of two input words that
 * must equal a semiprime of two random-looking 32-bit primes. Flipping a
 * gate is factoring; no solver does that within a query's time limit, so
 * every such query runs until the limit (see tests/e2e/sigint.sh). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

/* A distinct branch per gate, so the per-site adaptive limit never
 * shortens one gate's query for another's timeout. */
#define G(k, semiprime)                                                                        \
    do {                                                                                       \
        uint32_t x, y;                                                                         \
        memcpy(&x, d + 8 * (k), 4);                                                            \
        memcpy(&y, d + 8 * (k) + 4, 4);                                                        \
        if ((uint64_t)x * y == (semiprime))                                                    \
            abort();                                                                           \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8 * 24)
        return 0;
    G(0, 0x9012e17580fc2903ull);
    G(1, 0x9a6d8e01b9e1384dull);
    G(2, 0x789a20201b079cb3ull);
    G(3, 0x90b61dcdb2831b9bull);
    G(4, 0xbffa7a2e3703ab13ull);
    G(5, 0x6504d61b56834a37ull);
    G(6, 0x4c3516381de66637ull);
    G(7, 0xc96b540aab49124full);
    G(8, 0x888392060fd767e3ull);
    G(9, 0xdf15bb4009bdd877ull);
    G(10, 0x901cdef20157f2a1ull);
    G(11, 0x9aa383f87b8c9533ull);
    G(12, 0xccc009ce8fa32643ull);
    G(13, 0xa8f9c7d8706bbf2full);
    G(14, 0x880b3ae1e18b00b9ull);
    G(15, 0x686810e697dc571full);
    G(16, 0xa91111f4253864cfull);
    G(17, 0x756bf8b84b0e7561ull);
    G(18, 0xafc3b5ecfa7db8b7ull);
    G(19, 0x59d59a664d46d783ull);
    G(20, 0x700f03d55bf70fe9ull);
    G(21, 0x8b8ca0bb642c13f5ull);
    G(22, 0xefbe16689f5d86e9ull);
    G(23, 0x62f1e46ef20524ddull);
    return 0;
}
