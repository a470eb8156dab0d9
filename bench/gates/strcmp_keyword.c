/* SPDX-License-Identifier: Apache-2.0 */
/* Gate: a header name matched with strcmp, as HTTP and mail parsers do. Only the Upgrade
 * header's handler has the bug; the seed's request does not send it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SK_LINE_MAX = 128, SK_PROTO_MAX = 16 };

static volatile uint32_t sk_sink;

/* Upgrade: the protocol name goes to a fixed buffer. The bug: its length is not checked
 * (abort stands for the overflow). */
static void sk_upgrade(const char *value)
{
    char proto[SK_PROTO_MAX];
    size_t n = strlen(value);
    if (n >= SK_PROTO_MAX)
        abort();
    memcpy(proto, value, n + 1);
    sk_sink += (uint8_t)proto[0];
}

static void sk_header(char *name, char *value)
{
    if (strcmp(name, "Host") == 0 || strcmp(name, "Referer") == 0)
        sk_sink += (uint8_t)value[0];
    else if (strcmp(name, "Accept") == 0 || strcmp(name, "Connection") == 0)
        sk_sink += 1;
    else if (strcmp(name, "Upgrade") == 0)
        sk_upgrade(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[SK_LINE_MAX + 1];
    size_t off = 0;
    int first = 1;
    while (off < size) {
        size_t n = 0;
        while (off + n < size && data[off + n] != '\n')
            n++;
        if (n > SK_LINE_MAX || off + n == size)
            return 0; /* over-long or unterminated line */
        memcpy(line, data + off, n);
        line[n] = '\0';
        off += n + 1;
        if (n == 0)
            break; /* end of the headers */
        if (first) {
            if (strncmp(line, "GET ", 4) != 0)
                return 0;
            first = 0;
            continue;
        }
        char *colon = strchr(line, ':');
        if (!colon)
            return 0;
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ')
            value++;
        sk_header(line, value);
    }
    return 0;
}
