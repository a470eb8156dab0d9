/* SPDX-License-Identifier: Apache-2.0 */
/* Block ids are unique within a module (docs/trace-format.md, "Ids"), and
 * a program's trace and cov builds list the same ones; so do two builds of
 * one file compiled from different directories.
 * Usage: test_ids A B [A B ...], each pair two builds that must agree */
#include <stdio.h>
#include <stdlib.h>

#include "cfg_int.h"

static gb_cfg_t *load(const char *bin)
{
    gb_cfg_t *c = NULL;
    gb_err_t e;
    if (gb_cfg_load(bin, &c, &e) != 0 || !c) {
        fprintf(stderr, "FAIL: no CFG in %s: %s\n", bin, c ? "" : e.msg);
        exit(1);
    }
    return c;
}

int main(int argc, char **argv)
{
    int fails = 0;
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: test_ids A B [A B ...]\n");
        return 2;
    }
    for (int a = 1; a + 1 < argc; a += 2) {
        gb_cfg_t *t = load(argv[a]), *c = load(argv[a + 1]);
        gb_cfg_info_t ti, ci;
        gb_cfg_get_info(t, &ti);
        gb_cfg_get_info(c, &ci);
        size_t distinct = 0, differ = 0;
        for (uint32_t id = 0; id < GB_MAP_SIZE; id++) {
            int in_t = gb_cfg_has_block(t, id), in_c = gb_cfg_has_block(c, id);
            distinct += (size_t)in_t;
            differ += (size_t)(in_t != in_c);
        }
        if (distinct != ti.blocks || ti.blocks != ci.blocks || differ) {
            fprintf(
                stderr,
                "FAIL %s: %zu blocks (%s: %zu) under %zu distinct ids, %zu ids in one build only\n",
                argv[a], ti.blocks, argv[a + 1], ci.blocks, distinct, differ);
            fails++;
        } else
            printf("ok %s: %zu blocks, %zu distinct ids, the same in %s\n", argv[a], ti.blocks,
                   distinct, argv[a + 1]);
        gb_cfg_free(t);
        gb_cfg_free(c);
    }
    return fails != 0;
}
