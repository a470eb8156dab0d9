/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of base/: atomic writes leave no partial or temp file, reads
 * respect their limit, errors carry strerror, allocation failure injection
 * works. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "check.h"
#include "gb_base.h"

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        n += de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, ".."));
    if (d)
        closedir(d);
    return n;
}

static void test_atomic(const char *root)
{
    char dst[512], tmp[512], path[600];
    snprintf(dst, sizeof dst, "%s/dst", root);
    snprintf(tmp, sizeof tmp, "%s/tmp", root);
    CHECK(gb_mkdirs(dst, NULL) == 0 && gb_mkdirs(tmp, NULL) == 0);
    CHECK(gb_mkdirs(dst, NULL) == 0); /* exists: fine */
    snprintf(path, sizeof path, "%s/f", dst);
    gb_err_t e;
    CHECK(gb_write_atomic(path, tmp, "hello", 5, &e) == 0);
    CHECK(gb_write_atomic(path, tmp, "bye", 3, &e) == 0); /* replaces */
    uint8_t *data;
    size_t len;
    CHECK(gb_read_file(path, 100, &data, &len, &e) == 0 && len == 3 && !memcmp(data, "bye", 3));
    gb_free(data);
    CHECK(count_entries(tmp) == 0); /* no temp file left */
    CHECK(count_entries(dst) == 1);
    /* a missing temp dir fails with the path and strerror, nothing written */
    char bad[600];
    snprintf(bad, sizeof bad, "%s/none", root);
    CHECK(gb_write_atomic(path, bad, "x", 1, &e) == -1);
    CHECK(strstr(e.msg, bad) && strstr(e.msg, strerror(ENOENT)));
    CHECK(gb_read_file(path, 100, &data, &len, &e) == 0 && len == 3);
    gb_free(data);
    /* limits and kinds */
    CHECK(gb_read_file(path, 2, &data, &len, &e) == -1 && strstr(e.msg, "too large"));
    CHECK(gb_read_file(dst, 100, &data, &len, &e) == -1 && strstr(e.msg, "not a regular file"));
    /* a directory path through a regular file cannot be made */
    char under[700];
    snprintf(under, sizeof under, "%s/sub", path);
    CHECK(gb_mkdirs(under, &e) == -1);
}

static void test_alloc_injection(void)
{
    gb_alloc_fail_after(2);
    void *a = gb_malloc(8), *b = gb_calloc(2, 8), *c = gb_malloc(8);
    CHECK(a && b && !c);
    CHECK(gb_strdup("x") == NULL);
    gb_alloc_fail_after(-1);
    char *d = gb_strdup("xyz");
    CHECK(d && !strcmp(d, "xyz"));
    gb_free(a), gb_free(b), gb_free(d);
}

static void test_hash_and_err(void)
{
    CHECK(gb_hash64("abc", 3, 0) == gb_hash64("abc", 3, 0));
    CHECK(gb_hash64("abc", 3, 0) != gb_hash64("abc", 3, 1));
    gb_err_t e;
    CHECK(gb_err_set(&e, "n=%d", 7) == -1 && !strcmp(e.msg, "n=7"));
    CHECK(gb_err_set(NULL, "ignored") == -1);
    CHECK(gb_mono_ms() > 0 && gb_time_ms() > 1600000000000ull);
}

static void test_sha1(void)
{
    char h[41];
    gb_sha1_hex("", 0, h);
    CHECK(!strcmp(h, "da39a3ee5e6b4b0d3255bfef95601890afd80709"));
    gb_sha1_hex("abc", 3, h);
    CHECK(!strcmp(h, "a9993e364706816aba3e25717850c26c9cd0d89d"));
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes */
    gb_sha1_hex(m, strlen(m), h);
    CHECK(!strcmp(h, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"));
    static char mil[1000000];
    memset(mil, 'a', sizeof mil);
    gb_sha1_hex(mil, sizeof mil, h);
    CHECK(!strcmp(h, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"));
}

/* gb_grow: doubles from `first` until `need` fits, keeps the contents, and
 * leaves the array and its capacity as they were when allocation fails. */
static void test_grow(void)
{
    uint32_t *v = NULL;
    size_t cap = 0;
    CHECK(gb_grow(&v, &cap, 1, sizeof *v, 4) == 0 && v && cap == 4);
    for (uint32_t i = 0; i < 4; i++)
        v[i] = i * 7;
    CHECK(gb_grow(&v, &cap, 4, sizeof *v, 4) == 0 && cap == 4); /* fits: no change */
    CHECK(gb_grow(&v, &cap, 37, sizeof *v, 4) == 0 && cap == 64);
    CHECK(v[3] == 21 && v[0] == 0);
    v[63] = 1; /* the whole capacity is usable (ASan builds would notice) */
    uint32_t *before = v;
    gb_alloc_fail_after(0);
    CHECK(gb_grow(&v, &cap, 65, sizeof *v, 4) == -1);
    gb_alloc_fail_after(-1);
    CHECK(v == before && cap == 64 && v[3] == 21);
    CHECK(gb_grow(&v, &cap, SIZE_MAX / 2, sizeof *v, 4) == -1 && cap == 64); /* overflow */
    gb_free(v);
}

int main(void)
{
    test_grow();
    test_sha1();
    char root[] = "/tmp/gb-base-test.XXXXXX";
    if (!mkdtemp(root))
        return 1;
    test_atomic(root);
    test_alloc_injection();
    test_hash_and_err();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
