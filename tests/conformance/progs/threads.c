/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a threaded program behaves exactly as without the tracer.
 * Two worker threads checksum copies of the input (reading and writing
 * memory the main thread made symbolic) while the main thread parses it;
 * symbolic tracking follows the main thread only (docs/tracer.md,
 * "Threads"). Property: the main thread's gate on "TH" + d[2] == 3 is
 * found, and the workers' results match the plain build. */
// seed: 00 00 00 00 00 00 00 00
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
    uint8_t buf[64];
    size_t n;
    uint32_t sum;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    uint32_t s = 0;
    for (int round = 0; round < 200; round++)
        for (size_t i = 0; i < j->n; i++) {
            s = s * 31 + j->buf[i];
            j->buf[i] = (uint8_t)(j->buf[i] + 1); /* writes over symbolic copies */
        }
    j->sum = s;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    struct job jobs[2];
    pthread_t t[2];
    for (int k = 0; k < 2; k++) {
        jobs[k].n = n < sizeof jobs[k].buf ? n : sizeof jobs[k].buf;
        memcpy(jobs[k].buf, d, jobs[k].n);
        if (pthread_create(&t[k], NULL, worker, &jobs[k]) != 0)
            return 0;
    }
    int gate = d[0] == 'T' && d[1] == 'H' && d[2] == 3;
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    printf("%08x %08x\n", (unsigned)jobs[0].sum, (unsigned)jobs[1].sum);
    if (gate)
        abort();
    return 0;
}
