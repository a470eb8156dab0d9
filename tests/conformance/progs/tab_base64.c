/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a decoding table read at symbolic indices (issue 37). Eight
 * base64 characters go through a constant 256-entry table (code + 1, 0 for
 * a byte that is not base64); the decoded bytes must start with "GBX".
 * With GLASSBOX_TABLES at its default (auto) a table of small codes is read
 * symbolically; pinned (the old default), the magic can never be asked
 * for. Property: abort() on "R0JY" followed by any four valid characters. */
// seed: 41 41 41 41 41 41 41 41
#include <stdint.h>
#include <stdlib.h>

#define C(ch, v) [ch] = (v) + 1
static const uint8_t b64[256] = {
    C('A', 0),  C('B', 1),  C('C', 2),  C('D', 3),  C('E', 4),  C('F', 5),  C('G', 6),
    C('H', 7),  C('I', 8),  C('J', 9),  C('K', 10), C('L', 11), C('M', 12), C('N', 13),
    C('O', 14), C('P', 15), C('Q', 16), C('R', 17), C('S', 18), C('T', 19), C('U', 20),
    C('V', 21), C('W', 22), C('X', 23), C('Y', 24), C('Z', 25), C('a', 26), C('b', 27),
    C('c', 28), C('d', 29), C('e', 30), C('f', 31), C('g', 32), C('h', 33), C('i', 34),
    C('j', 35), C('k', 36), C('l', 37), C('m', 38), C('n', 39), C('o', 40), C('p', 41),
    C('q', 42), C('r', 43), C('s', 44), C('t', 45), C('u', 46), C('v', 47), C('w', 48),
    C('x', 49), C('y', 50), C('z', 51), C('0', 52), C('1', 53), C('2', 54), C('3', 55),
    C('4', 56), C('5', 57), C('6', 58), C('7', 59), C('8', 60), C('9', 61), C('+', 62),
    C('/', 63)};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    uint8_t out[6];
    if (n < 8)
        return 0;
    for (int q = 0; q < 2; q++) {
        uint32_t w = 0;
        for (int i = 0; i < 4; i++) {
            uint8_t v = b64[d[4 * q + i]];
            if (v == 0)
                return 0; /* not base64 */
            w = w << 6 | (uint32_t)(v - 1);
        }
        out[3 * q] = (uint8_t)(w >> 16);
        out[3 * q + 1] = (uint8_t)(w >> 8);
        out[3 * q + 2] = (uint8_t)w;
    }
    if (out[0] == 'G' && out[1] == 'B' && out[2] == 'X')
        abort();
    return 0;
}
