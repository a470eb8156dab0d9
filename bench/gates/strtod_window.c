/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, text to number): "scale=VALUE;" where VALUE, copied into a 16-byte
 * field buffer (cut there), is read with strtod; the bug needs 2.5 < value < 2.75, a
 * window between two non-integers. The seed's value is letters, longer than the buffer:
 * no digit exists to start from. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SW_FIELD = 16 };

static volatile double sw_sink;

/* The bug: a scale in (2.5, 2.75) picks the third of two filter tables (abort stands
 * for the read past them). */
static void sw_scale(double v)
{
    if (v > 2.5 && v < 2.75)
        abort();
    sw_sink += v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 7 || memcmp(data, "scale=", 6) != 0)
        return 0;
    const uint8_t *v = data + 6, *end = memchr(v, ';', size - 6);
    if (!end)
        return 0;
    char field[SW_FIELD + 1];
    size_t n = (size_t)(end - v) < SW_FIELD ? (size_t)(end - v) : SW_FIELD;
    memcpy(field, v, n);
    field[n] = '\0';
    char *stop;
    double x = strtod(field, &stop);
    if (stop == field)
        return 0; /* no number: the setting is ignored */
    sw_scale(x);
    return 0;
}
