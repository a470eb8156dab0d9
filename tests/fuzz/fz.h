/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the harnesses of tests/fuzz: a check that stops the run the
 * way libFuzzer counts as a crash (abort), with a line saying what broke. */
#ifndef GB_FZ_H
#define GB_FZ_H

#include <stdio.h>
#include <stdlib.h>

#define FZ_CHECK(cond)                                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond);            \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
