/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.stats: the fuzzer_stats reader (corpus/stats.c,
 * gb_campaign_parse_stats) that --resume takes earlier counters from, on
 * any bytes. Keys it does not find keep their values, and what it found,
 * written back as the writer writes it, reads back the same. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "corpus.h"
#include "fz.h"

#define FZ_UNSET 0x5eedull

/* The keys generational/report.c restores, AFL++'s neighbours of them,
 * and a prefix of one (a key must match whole). */
static const char *const keys[] = {"execs_done", "traces_done",   "inputs_expanded", "run_time",
                                   "start_time", "execs_per_sec", "corpus_count",    "execs"};
#define FZ_NKEYS (sizeof keys / sizeof keys[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t v[FZ_NKEYS];
    for (size_t i = 0; i < FZ_NKEYS; i++)
        v[i] = FZ_UNSET;
    int found = gb_campaign_parse_stats(data, size, keys, v, FZ_NKEYS);
    FZ_CHECK(found >= 0 && (size_t)found <= FZ_NKEYS);
    /* Written as gb_campaign_write_stats writes them, in one file. */
    char text[FZ_NKEYS * 64];
    size_t len = 0;
    for (size_t i = 0; i < FZ_NKEYS; i++)
        if (v[i] != FZ_UNSET)
            len += (size_t)snprintf(text + len, sizeof text - len, "%-18s: %llu\n", keys[i],
                                    (unsigned long long)v[i]);
    uint64_t w[FZ_NKEYS];
    for (size_t i = 0; i < FZ_NKEYS; i++)
        w[i] = FZ_UNSET;
    int again = gb_campaign_parse_stats((const uint8_t *)text, len, keys, w, FZ_NKEYS);
    int set = 0;
    for (size_t i = 0; i < FZ_NKEYS; i++) {
        set += v[i] != FZ_UNSET;
        FZ_CHECK(w[i] == v[i]);
    }
    FZ_CHECK(again == set);
    return 0;
}
