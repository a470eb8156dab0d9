/* SPDX-License-Identifier: Apache-2.0 */
/* gb-conf-rand SEEDFILE K OUT: writes the K-th pseudo-random input derived
 * from SEEDFILE (deterministic: a mutation of the seed, or random bytes),
 * for the equivalence check. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    uint8_t buf[4096];
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(buf, 1, sizeof buf / 2, f) : 0;
    if (f)
        fclose(f);
    rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)strtoull(argv[2], NULL, 10) * 0x100000001b3ull;
    for (int i = 0; i < 4; i++)
        next();
    if (next() % 4 == 0) { /* fresh random bytes */
        n = next() % 64;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)next();
    } else { /* the seed with a few bytes changed, maybe grown or cut */
        unsigned k = 1 + next() % 4;
        for (unsigned i = 0; i < k && n; i++)
            buf[next() % n] = (uint8_t)next();
        if (next() % 4 == 0)
            n = n ? next() % n : 0;
        else if (next() % 4 == 0)
            for (unsigned i = next() % 16; i-- > 0 && n < sizeof buf;)
                buf[n++] = (uint8_t)next();
    }
    FILE *o = fopen(argv[3], "wb");
    if (!o || fwrite(buf, 1, n, o) != n || fclose(o) != 0)
        return 1;
    return 0;
}
