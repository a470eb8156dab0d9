/* SPDX-License-Identifier: Apache-2.0 */
/* cJSON harness: the input is JSON text (no terminating NUL needed), parsed
 * by cJSON_ParseWithLengthOpts; a parsed document is printed formatted and
 * unformatted, duplicated and compared with its copy, and its top-level
 * members are looked up by name. The parse (tokens, strings with \u escapes
 * and surrogate pairs, nesting) is the traced part; numbers go through
 * strtod and printing through sprintf, which the tracer runs concretely. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"

static volatile size_t gb_cjson_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints ITEM both ways and returns the printed lengths. */
static size_t gb_cjson_print(const cJSON *item)
{
    size_t n = 0;
    char *a = cJSON_Print(item);
    char *b = cJSON_PrintUnformatted(item);
    if (a)
        n += strlen(a);
    if (b)
        n += strlen(b) << 8;
    cJSON_free(a);
    cJSON_free(b);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts((const char *)data, size, &end, 0);
    if (!doc) {
        gb_cjson_sink = (size_t)(cJSON_GetErrorPtr() != NULL);
        return 0;
    }
    size_t sum = gb_cjson_print(doc) ^ (size_t)(end - (const char *)data);
    cJSON *copy = cJSON_Duplicate(doc, 1);
    sum ^= (size_t)cJSON_Compare(doc, copy, 1) << 1;
    if (cJSON_IsObject(doc)) {
        const cJSON *m;
        cJSON_ArrayForEach(m, doc)
        {
            if (m->string && cJSON_GetObjectItemCaseSensitive(copy, m->string) == NULL)
                abort(); /* a member the copy lacks: Duplicate lost it */
            sum += (size_t)m->type;
        }
    }
    gb_cjson_sink = sum ^ (size_t)cJSON_GetArraySize(doc);
    cJSON_Delete(copy);
    cJSON_Delete(doc);
    return 0;
}
