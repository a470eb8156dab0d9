/* SPDX-License-Identifier: Apache-2.0 */
/* The crash runner (triage.h, "Crash analysis"): report parsing on fixed
 * texts and on garbage, the crash state, and probes of the planted bugs
 * (tests/triage/bugs/bugs.c) through fork/exec and through the forkserver.
 * Usage: triage_crash BUGS_ASAN BUGS_AFL_ASAN WORKDIR BUGS_LF */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gb_config.h"
#include "triage.h"

/* ---- report parsing --------------------------------------------------------- */

static const char ASAN_HBO[] =
    "=================================================================\n"
    "==14619==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000038 at pc "
    "0x560064102237 bp 0x7fff83c770c0 sp 0x7fff83c770b8\n"
    "READ of size 1 at 0x602000000038 thread T0\n"
    "    #0 0x560064102236  (/tmp/bugs.asan+0xdf236) (BuildId: d50e0ea2f1f949a7e6)\n"
    "    #1 0x5600641020cc  (/tmp/bugs.asan+0xdf0cc) (BuildId: d50e0ea2f1f949a7e6)\n"
    "    #2 0x7fc793c9f249  (/lib/x86_64-linux-gnu/libc.so.6+0x27249)\n"
    "\n"
    "0x602000000038 is located 0 bytes to the right of 8-byte region\n"
    "allocated by thread T0 here:\n"
    "    #0 0x5600640c730e  (/tmp/bugs.asan+0xa430e)\n"
    "    #1 0x56006410216c  (/tmp/bugs.asan+0xdf16c)\n"
    "\n"
    "SUMMARY: AddressSanitizer: heap-buffer-overflow (/tmp/bugs.asan+0xdf236) \n"
    "==14619==ABORTING\n";

static const char ASAN_SYM[] =
    "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x1 bp 0x2 sp 0x3\n"
    "WRITE of size 4 at 0x6020 thread T0\n"
    "    #0 0x4c4a9b in __asan_memcpy /src/compiler-rt/lib/asan/asan_interceptors.cpp:22:3\n"
    "    #1 0x4c4a9c in parse_chunk(int, char*) /src/png/read.c:120:7\n"
    "    #2 0x4c4a9d in read_all /src/png/read.c:300\n"
    "    #3 0x4c4a9e in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) "
    "/src/llvm/compiler-rt/lib/fuzzer/FuzzerLoop.cpp:611:15\n"
    "    #4 0x4c4a9f in LLVMFuzzerTestOneInput /src/png/fuzz.c:9:3\n"
    "    #5 0x4c4aa0 in main+0x1f (/bin/x+0x4aa0)\n"
    "SUMMARY: AddressSanitizer: heap-use-after-free /src/png/read.c:120:7 in parse_chunk\n";

static const char ASAN_SEGV[] =
    "AddressSanitizer:DEADLYSIGNAL\n"
    "==16391==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010 (pc 0x55a2b425a3f7 "
    "bp 0x000000000078 sp 0x7ffff51d8020 T0)\n"
    "==16391==The signal is caused by a WRITE memory access.\n"
    "==16391==Hint: address points to the zero page.\n"
    "    #0 0x55a2b425a3f7  (/tmp/bugs.asan+0xdf3f7)\n"
    "SUMMARY: AddressSanitizer: SEGV (/tmp/bugs.asan+0xdf3f7)\n";

static const char UBSAN_OVF[] =
    "/src/bugs.c:61:11: runtime error: signed integer overflow: 2147483644 + 10 cannot be "
    "represented in type 'int'\n"
    "    #0 0x56287b9da64e  (/tmp/bugs.asan+0xdf64e)\n"
    "    #1 0x56287b9da0d9  (/tmp/bugs.asan+0xdf0d9)\n"
    "\n"
    "SUMMARY: UndefinedBehaviorSanitizer: signed-integer-overflow /src/bugs.c:61:11 in \n";

static const char UBSAN_NOTYPE[] = "x.c:1:2: runtime error: division by zero\n";

static const char LSAN[] = "==9==ERROR: LeakSanitizer: detected memory leaks\n\n"
                           "Direct leak of 40 byte(s) in 1 object(s) allocated from:\n"
                           "    #0 0x1 in malloc (/bin/x+0x10)\n"
                           "    #1 0x2 in make_node /src/tree.c:5:9\n\n"
                           "SUMMARY: AddressSanitizer: 40 byte(s) leaked in 1 allocation(s).\n";

static const char DOUBLE_FREE[] = "==3==ERROR: AddressSanitizer: attempting double-free on "
                                  "0x602000000010 in thread T0:\n"
                                  "    #0 0x1  (/bin/x+0x10)\n"
                                  "SUMMARY: AddressSanitizer: double-free (/bin/x+0x10)\n";

static const char STACK_OVF[] =
    "==7==ERROR: AddressSanitizer: stack-overflow on address 0x7ffd (pc 0x1 bp 0x2 sp 0x3 T0)\n"
    "==7==The signal is caused by a WRITE memory access.\n"
    "    #0 0x1  (/bin/x+0x10)\n    #1 0x1  (/bin/x+0x10)\n"
    "SUMMARY: AddressSanitizer: stack-overflow (/bin/x+0x10)\n";

static const char UBSAN_DEADLY[] =
    "UndefinedBehaviorSanitizer:DEADLYSIGNAL\n"
    "==5==ERROR: UndefinedBehaviorSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1)\n"
    "==5==The signal is caused by a READ memory access.\n"
    "    #0 0x1  (/bin/x+0x10)\n";

/* The type is the bucket key's (no size, no address); the detail starts
 * with `detail` (the address follows it when the report has one). */
static void check_parse(const char *text, const char *type, const char *detail, size_t nframes)
{
    gb_sanrep_t r;
    gb_err_t e;
    CHECK(gb_sanrep_parse(text, strlen(text), &r, &e) == 0);
    CHECK_MSG(r.found, "no report found in %.40s", text);
    CHECK_MSG(strcmp(r.type, type) == 0, "type '%s', want '%s'", r.type, type);
    CHECK_MSG(strncmp(r.detail, detail, strlen(detail)) == 0, "detail '%s', want '%s...'", r.detail,
              detail);
    CHECK_MSG(r.nframes == nframes, "%zu frames, want %zu (%s)", r.nframes, nframes, type);
    gb_sanrep_clear(&r);
}

static void test_parse(void)
{
    check_parse(ASAN_HBO, "heap-buffer-overflow READ",
                "heap-buffer-overflow READ 1 at 0x602000000038", 3);
    check_parse(ASAN_SYM, "heap-use-after-free WRITE", "heap-use-after-free WRITE 4", 6);
    check_parse(ASAN_SEGV, "SEGV on unknown address WRITE",
                "SEGV on unknown address (null deref) WRITE at 0x10", 1);
    check_parse(UBSAN_OVF, "UBSan signed-integer-overflow", "UBSan signed-integer-overflow", 2);
    check_parse(UBSAN_NOTYPE, "UBSan integer-divide-by-zero", "UBSan integer-divide-by-zero", 0);
    check_parse(LSAN, "memory-leak", "memory-leak", 2);
    check_parse(DOUBLE_FREE, "double-free", "double-free", 1);
    check_parse(STACK_OVF, "stack-overflow", "stack-overflow", 2);
    check_parse(UBSAN_DEADLY, "SEGV on unknown address READ",
                "SEGV on unknown address (null deref) READ at 0x0", 1);

    gb_sanrep_t r;
    gb_err_t e;
    CHECK(gb_sanrep_parse(ASAN_HBO, strlen(ASAN_HBO), &r, &e) == 0);
    CHECK(r.nframes == 3 && strcmp(r.frames[0].module, "/tmp/bugs.asan") == 0 &&
          r.frames[0].offset == 0xdf236 && r.frames[0].func[0] == '\0');
    CHECK(r.has_address && r.address == 0x602000000038ull && !r.symbolized);
    gb_sanrep_clear(&r);

    CHECK(gb_sanrep_parse(ASAN_SYM, strlen(ASAN_SYM), &r, &e) == 0);
    CHECK(r.symbolized && r.nframes == 6);
    if (r.nframes == 6) {
        CHECK_MSG(strcmp(r.frames[1].func, "parse_chunk(int, char*)") == 0, "'%s'",
                  r.frames[1].func);
        CHECK(strcmp(r.frames[1].file, "/src/png/read.c") == 0 && r.frames[1].line == 120);
        CHECK(strcmp(r.frames[2].func, "read_all") == 0 && r.frames[2].line == 300);
        CHECK_MSG(strcmp(r.frames[5].func, "main") == 0 &&
                      strcmp(r.frames[5].module, "/bin/x") == 0 && r.frames[5].offset == 0x4aa0,
                  "'%s' '%s'", r.frames[5].func, r.frames[5].module);
        char state[600];
        gb_crash_state(r.frames, r.nframes, 0, state, sizeof state);
        /* __asan_memcpy and the libFuzzer frame are dropped; main from an
         * unknown file is the user's. */
        CHECK_MSG(strcmp(state, "parse_chunk(int, char*)\nread_all\nLLVMFuzzerTestOneInput") == 0,
                  "state '%s'", state);
    }
    gb_sanrep_clear(&r);

    /* A driver below the harness (libFuzzer's main without debug info)
     * is never part of the state. */
    gb_frame_t fr[3];
    memset(fr, 0, sizeof fr);
    snprintf(fr[0].func, sizeof fr[0].func, "decode");
    snprintf(fr[1].func, sizeof fr[1].func, "LLVMFuzzerTestOneInput");
    snprintf(fr[2].func, sizeof fr[2].func, "main");
    char st[600];
    gb_crash_state(fr, 3, 0, st, sizeof st);
    CHECK_MSG(strcmp(st, "decode\nLLVMFuzzerTestOneInput") == 0, "state '%s'", st);

    /* Not reports. */
    const char *nots[] = {"", "hello\nworld\n", "#0 0x1 (/x+0x1)\n", "ERROR: AddressSanitizerX"};
    for (size_t i = 0; i < sizeof nots / sizeof nots[0]; i++) {
        CHECK(gb_sanrep_parse(nots[i], strlen(nots[i]), &r, &e) == 0);
        CHECK_MSG(!r.found, "'%s' read as a report", nots[i]);
        gb_sanrep_clear(&r);
    }
    /* The length bounds the read: a report cut before its header is none. */
    CHECK(gb_sanrep_parse(ASAN_HBO, 60, &r, &e) == 0 && !r.found);
    gb_sanrep_clear(&r);
}

/* Garbage and mangled reports: the parser must neither crash nor read
 * past the length (a copy without NUL in a malloc'd buffer of exactly
 * that size lets ASan builds of this test catch it). */
static void test_garbage(void)
{
    const char *seeds[] = {ASAN_HBO, ASAN_SYM,    ASAN_SEGV, UBSAN_OVF,
                           LSAN,     DOUBLE_FREE, STACK_OVF, UBSAN_DEADLY};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    static const char alphabet[] = "#0x()+: \n\tinERROR:AddressSanitizer()READ of size9";
    for (int round = 0; round < 3000; round++) {
        const char *s = seeds[round % 8];
        size_t n = strlen(s);
        char *buf = malloc(n);
        memcpy(buf, s, n);
        int muts = 1 + (int)(check_xorshift(&rng) % 20);
        for (int m = 0; m < muts; m++) {
            size_t at = check_xorshift(&rng) % n;
            uint64_t v = check_xorshift(&rng);
            buf[at] = (v & 1) ? (char)(v >> 8) : alphabet[(v >> 8) % (sizeof alphabet - 1)];
        }
        size_t len = check_xorshift(&rng) % (n + 1);
        gb_sanrep_t r;
        gb_err_t e;
        CHECK(gb_sanrep_parse(buf, len, &r, &e) == 0);
        CHECK(strlen(r.type) < sizeof r.type && r.nframes <= GB_CRASH_MAX_FRAMES);
        gb_sanrep_clear(&r);
        free(buf);
    }
    /* A line longer than any buffer, and very many frames. */
    size_t big = 200000;
    char *buf = malloc(big);
    memset(buf, 'A', big);
    memcpy(buf, "==1==ERROR: AddressSanitizer: ", 30);
    gb_sanrep_t r;
    gb_err_t e;
    CHECK(gb_sanrep_parse(buf, big, &r, &e) == 0 && r.found);
    gb_sanrep_clear(&r);
    size_t at = (size_t)snprintf(buf, big, "==1==ERROR: AddressSanitizer: SEGV on x\n");
    while (at + 40 < big)
        at += (size_t)snprintf(buf + at, big - at, "    #1 0x1  (/x+0x%zx)\n", at);
    CHECK(gb_sanrep_parse(buf, at, &r, &e) == 0 && r.nframes == GB_CRASH_MAX_FRAMES);
    gb_sanrep_clear(&r);
    free(buf);
}

/* ---- probes ------------------------------------------------------------------ */

static int probe(gb_crash_runner_t *r, const char *in, gb_crash_t *c)
{
    gb_err_t e;
    int rc = gb_crash_probe(r, (const uint8_t *)in, strlen(in), c, &e);
    CHECK_MSG(rc == 0, "probe '%s': %s", in, e.msg);
    return rc;
}

static void expect(gb_crash_runner_t *r, const char *in, const char *type, const char *state)
{
    gb_crash_t c;
    if (probe(r, in, &c) != 0)
        return;
    CHECK_MSG(c.crashed, "'%s' did not crash", in);
    CHECK_MSG(strcmp(c.type, type) == 0, "'%s': type '%s', want '%s'", in, c.type, type);
    CHECK_MSG(strcmp(c.state, state) == 0, "'%s': state '%s', want '%s'", in, c.state, state);
    gb_crash_clear(&c);
}

static void test_runner(const char *bin, const char *work, int want_fsrv)
{
    gb_crash_target_t t = {.bin = bin, .work_dir = work, .timeout_ms = 2000};
    gb_crash_runner_t *r;
    gb_err_t e;
    if (gb_crash_runner_new(&t, &r, &e) != 0) {
        CHECK_MSG(0, "runner for %s: %s", bin, e.msg);
        return;
    }
    gb_crash_runner_info_t info;
    gb_crash_runner_info(r, &info);
    CHECK_MSG(info.forkserver == want_fsrv, "%s: forkserver %d", bin, info.forkserver);
    CHECK(info.asan && info.ubsan && info.symbolizer);
    CHECK(strstr(info.sanitizer_env[0], "ASAN_OPTIONS=") == info.sanitizer_env[0]);
    CHECK(!strstr(info.sanitizer_env[0], "log_path"));

    expect(r, "Hx", "heap-buffer-overflow READ", "heap_read\nLLVMFuzzerTestOneInput");
    expect(r, "H\x03zzzzzzzz", "heap-buffer-overflow READ", "heap_read\nLLVMFuzzerTestOneInput");
    expect(r, "U", "heap-use-after-free READ", "use_after_free\nLLVMFuzzerTestOneInput");
    /* An inlined function is a frame of its own (the symbolizer's inline
     * info), innermost first. */
    expect(r, "I\x01", "heap-buffer-overflow READ",
           "inlined_read\nheap_inl\nLLVMFuzzerTestOneInput");
    expect(r, "N1", "SEGV on unknown address WRITE", "null_write\nLLVMFuzzerTestOneInput");
    expect(r, "O", "UBSan signed-integer-overflow", "add_overflow\nLLVMFuzzerTestOneInput");
    expect(r, "A", "heap-buffer-overflow WRITE", "store\npath_a\nLLVMFuzzerTestOneInput");
    expect(r, "B", "heap-buffer-overflow WRITE", "store\npath_b\nLLVMFuzzerTestOneInput");

    gb_crash_t a, b;
    if (probe(r, "fine", &a) == 0) {
        CHECK_MSG(!a.crashed && a.run.status == GB_RUN_OK, "'fine' crashed: %s", a.type);
        gb_crash_clear(&a);
    }
    /* Same bug, other bytes: same; other path: not. */
    if (probe(r, "A\x01", &a) == 0 && probe(r, "A\x02more", &b) == 0) {
        CHECK(gb_crash_same(&a, &b));
        gb_crash_clear(&b);
        if (probe(r, "B", &b) == 0)
            CHECK(!gb_crash_same(&a, &b));
        /* The frames keep file:line; the top one is in bugs.c. */
        CHECK_MSG(a.nframes > 2 && strstr(a.frames[0].file, "bugs.c") && a.frames[0].line > 0,
                  "frame 0: %s:%u", a.nframes ? a.frames[0].file : "-",
                  a.nframes ? a.frames[0].line : 0);
        CHECK(a.report && strstr(a.report, "AddressSanitizer"));
        gb_crash_clear(&b);
    }
    gb_crash_clear(&a);
    /* A hang is a timeout, not an error. */
    gb_crash_runner_free(r);
    t.timeout_ms = 300;
    if (gb_crash_runner_new(&t, &r, &e) == 0) {
        expect(r, "T", "timeout", "");
        expect(r, "Hx", "heap-buffer-overflow READ", "heap_read\nLLVMFuzzerTestOneInput");
        gb_crash_runner_free(r);
    }
}

/* Without a symbolizer the state is module+offset, still one per bug. */
static void test_no_symbolizer(const char *bin, const char *work)
{
    gb_crash_target_t t = {.bin = bin, .work_dir = work, .no_symbolizer = 1};
    gb_crash_runner_t *r;
    gb_err_t e;
    if (gb_crash_runner_new(&t, &r, &e) != 0) {
        CHECK_MSG(0, "%s", e.msg);
        return;
    }
    gb_crash_runner_info_t info;
    gb_crash_runner_info(r, &info);
    CHECK(!info.symbolizer);
    gb_crash_t a, b;
    if (probe(r, "A\x01", &a) == 0 && probe(r, "A\x03", &b) == 0) {
        CHECK(gb_crash_same(&a, &b));
        CHECK_MSG(strstr(a.state, "+0x") && a.frames[0].func[0] == '\0', "state '%s'", a.state);
        gb_crash_clear(&b);
        if (probe(r, "B", &b) == 0)
            CHECK(!gb_crash_same(&a, &b));
        gb_crash_clear(&b);
    }
    gb_crash_clear(&a);
    gb_crash_runner_free(r);
    /* A symbolizer that does not exist is no failure either. */
    t.no_symbolizer = 0;
    t.symbolizer = "/nonexistent/llvm-symbolizer";
    CHECK(gb_crash_runner_new(&t, &r, &e) == 0);
    gb_crash_runner_info(r, &info);
    CHECK(!info.symbolizer);
    gb_crash_runner_free(r);
}

static void test_build_id(const char *bin)
{
    char id[81];
    gb_err_t e;
    CHECK(gb_elf_build_id(bin, id, &e) == 1);
    CHECK_MSG(strlen(id) == 40 && strspn(id, "0123456789abcdef") == 40, "build id '%s'", id);
    CHECK(gb_elf_build_id("/nonexistent", id, &e) == -1);
    CHECK(gb_elf_build_id("/proc/self/status", id, &e) == 0 && id[0] == '\0');
}

/* Many probes through the forkserver stay fast and stable (tmin's use). */
static void test_many(const char *bin, const char *work)
{
    gb_crash_target_t t = {.bin = bin, .work_dir = work};
    gb_crash_runner_t *r;
    gb_err_t e;
    if (gb_crash_runner_new(&t, &r, &e) != 0) {
        CHECK_MSG(0, "%s", e.msg);
        return;
    }
    gb_crash_t first;
    if (probe(r, "A", &first) != 0) {
        gb_crash_runner_free(r);
        return;
    }
    uint64_t t0 = gb_mono_ms();
    int same = 0;
    for (int i = 0; i < 100; i++) {
        char in[8];
        snprintf(in, sizeof in, "%c%c", i % 2 ? 'A' : 'x', (char)('0' + i % 4));
        gb_crash_t c;
        if (probe(r, in, &c) != 0)
            break;
        same += gb_crash_same(&first, &c);
        CHECK(c.crashed == (i % 2));
        gb_crash_clear(&c);
    }
    CHECK_MSG(same == 50, "%d of 50 crashes matched", same);
    printf("100 forkserver probes in %llu ms\n", (unsigned long long)(gb_mono_ms() - t0));
    gb_crash_clear(&first);
    gb_crash_runner_free(r);
}

/* A libFuzzer build (its own main and driver frames) gives the states of
 * the file-reading build. */
static void test_libfuzzer(const char *bin, const char *work)
{
    gb_crash_target_t t = {.bin = bin, .work_dir = work, .timeout_ms = 5000};
    gb_crash_runner_t *r;
    gb_err_t e;
    if (gb_crash_runner_new(&t, &r, &e) != 0) {
        CHECK_MSG(0, "%s", e.msg);
        return;
    }
    expect(r, "Hx", "heap-buffer-overflow READ", "heap_read\nLLVMFuzzerTestOneInput");
    expect(r, "B", "heap-buffer-overflow WRITE", "store\npath_b\nLLVMFuzzerTestOneInput");
    gb_crash_runner_free(r);
}

/* A bucket for the cluster test: type, state, and the top frame's
 * file:line (file "" = no line). */
static void mk_bucket(gb_bucket_t *b, gb_frame_t *f, const char *type, const char *state,
                      const char *file, unsigned line)
{
    memset(b, 0, sizeof *b);
    memset(f, 0, sizeof *f);
    snprintf(b->type, sizeof b->type, "%s", type);
    snprintf(b->state, sizeof b->state, "%s", state);
    size_t top = strcspn(state, "\n");
    snprintf(f->func, sizeof f->func, "%.*s", (int)top, state);
    snprintf(f->file, sizeof f->file, "%s", file);
    f->line = line;
    b->frames = f;
    b->nframes = 1;
    b->state_frames = 3;
}

/* Likely bugs: same type and top frame, or the same fault line, link
 * buckets; groups are numbered in bucket order. */
static void test_clusters(void)
{
    gb_bucket_t b[6];
    gb_frame_t f[6];
    mk_bucket(&b[0], &f[0], "heap-buffer-overflow WRITE", "fill\nrows\nread", "d.c", 10);
    mk_bucket(&b[1], &f[1], "heap-buffer-overflow READ", "parse\nmain_loop", "p.c", 5);
    mk_bucket(&b[2], &f[2], "heap-buffer-overflow WRITE", "fill\nalpha\nread", "d.c", 10);
    /* Another type at d.c:10 (a large index is a SEGV): the fault line. */
    mk_bucket(&b[3], &f[3], "SEGV on unknown address WRITE", "fill\nother", "d.c", 10);
    /* Same top frame, another type and no line: not linked. */
    mk_bucket(&b[4], &f[4], "heap-buffer-overflow READ", "fill\nx", "", 0);
    /* parse again at another line, same type: linked to b[1]. */
    mk_bucket(&b[5], &f[5], "heap-buffer-overflow READ", "parse\nelse", "p.c", 99);
    CHECK(gb_triage_link(&b[0], &b[2]) &&
          strcmp(gb_triage_link(&b[0], &b[2]), "same type and top frame") == 0);
    CHECK(gb_triage_link(&b[0], &b[3]) &&
          strcmp(gb_triage_link(&b[0], &b[3]), "same fault line") == 0);
    CHECK(!gb_triage_link(&b[0], &b[4]) && !gb_triage_link(&b[3], &b[4]));
    CHECK(!gb_triage_link(&b[0], &b[1]));
    size_t c[6];
    size_t n = gb_triage_clusters(b, 6, c);
    CHECK_MSG(n == 3, "%zu groups", n);
    CHECK_MSG(c[0] == 1 && c[1] == 2 && c[2] == 1 && c[3] == 1 && c[4] == 3 && c[5] == 2,
              "groups %zu %zu %zu %zu %zu %zu", c[0], c[1], c[2], c[3], c[4], c[5]);
    /* Linked only through a later bucket: b[0] and b[2] share nothing
     * but b[1] links to both. Transitive, and numbered by b[0]. */
    mk_bucket(&b[0], &f[0], "SEGV on unknown address READ", "a\nq", "a.c", 1);
    mk_bucket(&b[1], &f[1], "SEGV on unknown address READ", "a\nr", "b.c", 2);
    mk_bucket(&b[2], &f[2], "UBSan shift", "s", "b.c", 2);
    mk_bucket(&b[3], &f[3], "timeout", "", "", 0);
    mk_bucket(&b[4], &f[4], "timeout", "", "", 0);
    n = gb_triage_clusters(b, 5, c);
    CHECK_MSG(n == 3 && c[0] == 1 && c[1] == 1 && c[2] == 1 && c[3] == 2 && c[4] == 3,
              "%zu groups: %zu %zu %zu %zu %zu", n, c[0], c[1], c[2], c[3], c[4]);
    CHECK(gb_triage_clusters(b, 0, c) == 0);
    /* Deliberate stops: a shared abort helper (Magma's canary) and its
     * abort line link nothing; the same caller below it does. */
    mk_bucket(&b[0], &f[0], "abort", "canary\nparse_decl\nparse_xml", "rt.c", 9);
    mk_bucket(&b[1], &f[1], "abort", "canary\nparse_subset\nparse_doc", "rt.c", 9);
    mk_bucket(&b[2], &f[2], "abort", "canary\nparse_decl\nparse_doc", "rt.c", 9);
    mk_bucket(&b[3], &f[3], "abort", "canary", "rt.c", 9);
    CHECK(!gb_triage_link(&b[0], &b[1]));
    CHECK(!gb_triage_link(&b[0], &b[3]) && !gb_triage_link(&b[1], &b[3]));
    CHECK(gb_triage_link(&b[0], &b[2]) &&
          strcmp(gb_triage_link(&b[0], &b[2]), "same type and top two frames") == 0);
    n = gb_triage_clusters(b, 4, c);
    CHECK_MSG(n == 3 && c[0] == 1 && c[1] == 2 && c[2] == 1 && c[3] == 3,
              "%zu groups: %zu %zu %zu %zu", n, c[0], c[1], c[2], c[3]);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: triage_crash BUGS_ASAN BUGS_AFL_ASAN WORKDIR BUGS_LF\n");
        return 2;
    }
    char w1[4096], w2[4096], w3[4096];
    snprintf(w1, sizeof w1, "%s/exec", argv[3]);
    snprintf(w2, sizeof w2, "%s/fsrv", argv[3]);
    snprintf(w3, sizeof w3, "%s/nosym", argv[3]);
    test_parse();
    test_clusters();
    test_garbage();
    test_build_id(argv[1]);
    test_runner(argv[1], w1, 0);
    test_runner(argv[2], w2, 1);
    test_no_symbolizer(argv[1], w3);
    test_many(argv[2], w2);
    snprintf(w1, sizeof w1, "%s/lf", argv[3]);
    test_libfuzzer(argv[4], w1);
    return check_exit("triage_crash");
}
