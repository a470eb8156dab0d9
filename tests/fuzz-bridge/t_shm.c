/* SPDX-License-Identifier: Apache-2.0 */
/* Test target linked with AFL++'s runtime that takes its input through
 * shared memory, as __AFL_FUZZ_TESTCASE_BUF/LEN builds do: defining
 * __afl_sharedmem_fuzzing = 1 makes the runtime offer it in the hello. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern unsigned char *__afl_area_ptr;
extern unsigned char *__afl_fuzz_ptr; /* set only when the driver accepted */
extern uint32_t *__afl_fuzz_len;
int __afl_sharedmem_fuzzing = 1;

int main(void)
{
    if (!__afl_fuzz_ptr)
        return 90; /* no shared-memory input: the driver declined */
    uint32_t n = *__afl_fuzz_len;
    const unsigned char *buf = __afl_fuzz_ptr;
    /* The input must not also be on stdin (the driver's input file). */
    unsigned char in[16];
    ssize_t got = read(0, in, sizeof in);
    if (got > 0 && n > 0 && in[0] == buf[0])
        return 91;
    __afl_area_ptr[1]++;
    if (n >= 5 && memcmp(buf, "crash", 5) == 0)
        abort();
    if (n >= 1 && buf[0] == 'A')
        __afl_area_ptr[100]++;
    if (n >= 3 && memcmp(buf, "len", 3) == 0)
        return (int)(n & 0x7f);
    if (n >= 4 && memcmp(buf, "big:", 4) == 0) /* exits 0 when n is 1 MiB */
        return n == (1u << 20) ? 0 : 92;
    return 0;
}
