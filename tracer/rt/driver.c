/* SPDX-License-Identifier: Apache-2.0 */
/* A main() for libFuzzer-style harnesses: reads the input file (argv[1], or
 * stdin when there is none or it is "-") and calls LLVMFuzzerTestOneInput
 * once. It lives in its own archive member, so the linker only pulls it in
 * when the program has no main of its own. Built twice: with
 * GB_DRIVER_TRACE for trace builds (the buffer becomes symbolic), without
 * for cov builds (AFL++'s runtime has started its forkserver by then). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

#ifdef GB_DRIVER_TRACE
void __gb_input(const uint8_t *data, size_t len);
void *__gb_input_len(void);
extern __thread void *__gb_callee;
extern __thread void *__gb_params[];
#endif

static uint8_t *read_all(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    *len = n;
    return buf;
}

/* Default visibility: the runtime is built hidden and packed with hidden
 * symbols made local (tracer/rt_pack.cmake), and main must stay global. */
__attribute__((visibility("default"))) int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    FILE *f = stdin;
    if (argc > 1 && strcmp(argv[1], "-") != 0) {
        f = fopen(argv[1], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open input %s\n", argv[0], argv[1]);
            return 2;
        }
    }
    size_t len = 0;
    uint8_t *data = read_all(f, &len);
    if (f != stdin)
        fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory reading input\n", argv[0]);
        return 2;
    }
    /* An exact-size copy, so reads past the end hit the heap's redzone
     * under ASan as they would under libFuzzer. */
    uint8_t *input = malloc(len ? len : 1);
    if (!input)
        return 2;
    memcpy(input, data, len);
    free(data);
#ifdef GB_DRIVER_TRACE
    __gb_input(input, len);
    /* The buffer pointer is concrete; the size is the length variable. */
    __gb_params[0] = NULL;
    __gb_params[1] = __gb_input_len();
    __gb_callee = (void *)LLVMFuzzerTestOneInput;
#endif
    LLVMFuzzerTestOneInput(input, len);
    free(input);
    return 0;
}
