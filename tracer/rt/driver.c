/* SPDX-License-Identifier: Apache-2.0 */
/* A main() for libFuzzer-style harnesses: reads the input file (argv[1], or
 * stdin when there is none or it is "-") and calls LLVMFuzzerTestOneInput
 * once. It lives in its own archive member, so the linker only pulls it in
 * when the program has no main of its own. Built twice: with
 * GB_DRIVER_TRACE for trace builds (the buffer becomes symbolic), without
 * for cov builds (driver_cov.c), where AFL++'s runtime has started its
 * forkserver by then and the driver also takes AFL++'s shared-memory
 * input and loops in persistent mode (see run_cov below). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "gb_config.h"

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

/* An exact-size copy of the input, so reads past the end hit the heap's
 * redzone under ASan as they would under libFuzzer; NULL when out of
 * memory. */
static uint8_t *exact_copy(const uint8_t *data, size_t len)
{
    uint8_t *input = malloc(len ? len : 1);
    if (input)
        memcpy(input, data, len);
    return input;
}

/* The input of this run: the file named by argv[1], else stdin. Read
 * afresh each time: in persistent mode the forkserver rewrites the file and
 * rewinds the stdin it shares with us. Returns 2 (the exit code) on error. */
static int read_input(int argc, char **argv, uint8_t **data, size_t *len)
{
    FILE *f = stdin;
    if (argc > 1 && strcmp(argv[1], "-") != 0) {
        f = fopen(argv[1], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open input %s\n", argv[0], argv[1]);
            return 2;
        }
    }
    *data = read_all(f, len);
    if (f != stdin)
        fclose(f);
    else
        clearerr(stdin);
    if (!*data) {
        fprintf(stderr, "%s: out of memory reading input\n", argv[0]);
        return 2;
    }
    return 0;
}

#ifdef GB_DRIVER_TRACE
static int run(int argc, char **argv)
{
    uint8_t *data;
    size_t len = 0;
    int rc = read_input(argc, argv, &data, &len);
    if (rc)
        return rc;
    uint8_t *input = exact_copy(data, len);
    free(data);
    if (!input)
        return 2;
    __gb_input(input, len);
    /* The buffer pointer is concrete; the size is the length variable. */
    __gb_params[0] = NULL;
    __gb_params[1] = __gb_input_len();
    __gb_callee = (void *)LLVMFuzzerTestOneInput;
    LLVMFuzzerTestOneInput(input, len);
    free(input);
    return 0;
}
#else
/* AFL++'s runtime (gb_afl_rt.o, linked into cov builds). Weak: NAME.asan
 * links this driver without it, and then runs the input once from the file
 * or stdin. */
extern uint8_t *__afl_fuzz_ptr __attribute__((weak));
extern uint32_t *__afl_fuzz_len __attribute__((weak));
int __afl_persistent_loop(unsigned int max_cnt) __attribute__((weak));

/* Tells AFL++'s runtime that this program reads __afl_fuzz_ptr, so its
 * forkserver offers shared-memory input; a client that accepts writes each
 * input there and nothing else (fuzz-bridge/README.md). One that declines
 * leaves __afl_fuzz_ptr NULL, and the file or stdin is read as before. */
__attribute__((visibility("default"))) int __afl_sharedmem_fuzzing = 1;

/* What afl-fuzz and fuzz-bridge look for to set __AFL_PERSISTENT=1:
 * without it the runtime's loop returns once per fork. */
__attribute__((used)) static const char persistent_sig[] = "##SIG_AFL_PERSISTENT##";

/* The sanitizers' default options of the ASan replay build live in
 * san_defaults.c, linked into that build only: defined here they would
 * clash with a harness's own (many real harnesses define them). */

/* Under a fuzzer's forkserver (__AFL_SHM_ID set) this process is the
 * forkserver's child, and in persistent mode it stops itself between
 * inputs. When the fuzzer is killed with SIGKILL, its forkserver reads EOF
 * and exits, and nothing would ever continue or reap a stopped child (the
 * forkserver has a session of its own, so the kernel's SIGHUP to orphaned
 * groups does not come): it dies with the forkserver instead. */
static void die_with_parent(void)
{
    if (!getenv("__AFL_SHM_ID"))
        return;
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
        _exit(1); /* it died before the request */
}

static int run(int argc, char **argv)
{
    (void)persistent_sig;
    int looping = __afl_persistent_loop != NULL;
    if (looping)
        die_with_parent();
    while (!looping || __afl_persistent_loop(GB_PERSIST_LOOPS)) {
        uint8_t *input;
        size_t len;
        if (&__afl_fuzz_ptr && __afl_fuzz_ptr) {
            len = *__afl_fuzz_len;
            input = exact_copy(__afl_fuzz_ptr, len);
        } else {
            uint8_t *data;
            int rc = read_input(argc, argv, &data, &len);
            if (rc)
                return rc;
            input = exact_copy(data, len);
            free(data);
        }
        if (!input)
            return 2;
        LLVMFuzzerTestOneInput(input, len);
        free(input);
        if (!looping)
            break;
    }
    return 0;
}
#endif

/* Default visibility: the runtime is built hidden and packed with hidden
 * symbols made local (tracer/rt_pack.cmake), and main must stay global. */
__attribute__((visibility("default"))) int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    return run(argc, argv);
}
