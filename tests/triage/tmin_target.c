/* SPDX-License-Identifier: Apache-2.0 */
/* tmin's test target: a header ("TMN1", u16 offset of the record), a record
 * ("KEY", a length byte, the payload, a sum byte over the payload) and junk
 * around them that only a letter count reads. A valid record longer than
 * 16 bytes overflows a 16-byte heap buffer: the one planted crash.
 * TMIN_TARGET_SLOW in the environment makes each run take 20 ms longer
 * (the test of an interrupted tmin needs it to be slow). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned sink;

/* Reads the first 64 bytes' letters: junk that matters to coverage (hit
 * counts) but not to the crash. */
static void count_letters(const uint8_t *d, size_t n)
{
    unsigned letters = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if ((d[i] | 0x20) >= 'a' && (d[i] | 0x20) <= 'z')
            letters++;
    sink += letters;
}

static void take_record(const uint8_t *r, size_t n)
{
    if (n < 5 || memcmp(r, "KEY", 3) != 0)
        return;
    size_t len = r[3];
    if (n < 5 + len)
        return;
    uint8_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + r[4 + i]);
    if (sum != r[4 + len])
        return;
    if (len > 16) {
        char *buf = malloc(16);
        memcpy(buf, r + 4, len); /* the planted overflow */
        sink += (unsigned char)buf[0];
        free(buf);
    }
}

static void parse(const uint8_t *d, size_t n)
{
    if (n < 6 || memcmp(d, "TMN1", 4) != 0)
        return;
    count_letters(d + 6, n - 6);
    size_t off = (size_t)d[4] | (size_t)d[5] << 8;
    if (off >= 6 && off < n)
        take_record(d + off, n - off);
}

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 16];
    if (getenv("TMIN_TARGET_SLOW"))
        usleep(20000);
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf, f);
    if (f != stdin)
        fclose(f);
    parse(buf, n);
    return 0;
}
