/* SPDX-License-Identifier: Apache-2.0 */
/* A scripted forkserver for protocol unit tests: speaks the newer magic
 * handshake, the 4.04c options hello, or sends error hellos, then serves
 * runs whose children write the shm map and exit with the input length.
 * The *shm modes take shared-memory input and read the input from there.
 * Usage: fake_fsrv MODE INPUT_FILE. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define CTL 198
#define ST 199

static void put(uint32_t v)
{
    if (write(ST, &v, 4) != 4)
        _exit(10);
}

static uint32_t get(void)
{
    uint32_t v;
    if (read(CTL, &v, 4) != 4)
        _exit(11);
    return v;
}

/* Problems the driver should have avoided, as bits of the child's exit code
 * in "check" mode. */
static int hygiene(const char *input)
{
    int bad = 0;
    for (int fd = 3; fd < 1024; fd++)
        if (fd != CTL && fd != ST && fcntl(fd, F_GETFD) != -1)
            bad |= 1;
    const char *asan = getenv("ASAN_OPTIONS");
    if (!asan || !strstr(asan, "abort_on_error=1"))
        bad |= 2;
    if (!getenv("__AFL_SHM_FUZZ_ID")) /* exported as afl-fuzz does, even unused */
        bad |= 4;
    char a[64] = {0}, b[64] = {0};
    FILE *f = fopen(input, "rb");
    size_t na = f ? fread(a, 1, sizeof a, f) : 0;
    if (f)
        fclose(f);
    size_t nb = (size_t)read(0, b, sizeof b);
    if (na != nb || memcmp(a, b, na) != 0)
        bad |= 8;
    return bad;
}

/* The shared-memory input, when the mode took it: u32 length, bytes. */
static unsigned char *shm_input;

static unsigned char *attach_shm_input(void)
{
    const char *id = getenv("__AFL_SHM_FUZZ_ID");
    unsigned char *p = id ? shmat(atoi(id), NULL, 0) : NULL;
    if (!p || p == (void *)-1)
        _exit(6);
    return p;
}

static void child(const char *mode, const char *input, unsigned char *map)
{
    close(CTL);
    close(ST);
    char buf[64] = {0};
    size_t n = 0;
    if (shm_input) {
        uint32_t len;
        memcpy(&len, shm_input, sizeof len);
        n = len < sizeof buf ? len : sizeof buf;
        memcpy(buf, shm_input + sizeof len, n);
        n = len;
    } else {
        FILE *f = fopen(input, "rb");
        n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
    }
    if (strcmp(mode, "check") == 0)
        _exit(hygiene(input));
    if (map && n > 0)
        map[5] = (unsigned char)buf[0];
    if (strncmp(buf, "crash", 5) == 0)
        abort();
    if (strncmp(buf, "loop", 4) == 0)
        for (;;)
            pause();
    _exit((int)n);
}

static void serve(const char *mode, const char *input, unsigned char *map, int runs)
{
    for (int i = 0; runs < 0 || i < runs; i++) {
        get(); /* was_killed: nothing to do without persistent mode */
        pid_t pid = fork();
        if (pid < 0)
            _exit(12);
        if (pid == 0)
            child(mode, input, map);
        put((uint32_t)pid);
        int status;
        if (waitpid(pid, &status, 0) < 0)
            _exit(13);
        put((uint32_t)status);
    }
    _exit(0);
}

static void handshake_magic(int shm)
{
    const uint32_t magic = 0x41464c01u;
    if (shm) /* the >= 4.20 runtime attaches before it offers */
        shm_input = attach_shm_input();
    put(magic);
    if (get() != (magic ^ 0xffffffffu))
        _exit(3);
    put(0x1u | 0x800u | (shm ? 0x2u : 0u)); /* map size, dictionary, shm input */
    put(1234);
    static const char dict[] = "\x04" "GBX1" "\x03" "abc";
    put(sizeof dict - 1);
    if (write(ST, dict, sizeof dict - 1) != (ssize_t)(sizeof dict - 1))
        _exit(10);
    put(magic);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *mode = argv[1], *input = argv[2];
    const char *id = getenv("__AFL_SHM_ID");
    unsigned char *map = NULL;
    if (id) {
        map = shmat(atoi(id), NULL, 0);
        if (map == (void *)-1)
            return 5;
    }
    int runs = -1;
    if (strcmp(mode, "magic") == 0 || strcmp(mode, "magicshm") == 0) {
        handshake_magic(strcmp(mode, "magicshm") == 0);
    } else if (strcmp(mode, "badver") == 0) {
        put(0x41464c07u);
        get();
        return 0;
    } else if (strcmp(mode, "newerr") == 0) {
        put(0xdeadbe08u); /* FS_NEW_ERROR | shmat failed */
        return 1;
    } else if (strcmp(mode, "olderr") == 0) {
        put(0xf800008fu | (1u << 8)); /* map size error */
        return 1;
    } else if (strcmp(mode, "oldopts") == 0) {
        put(0x80000001u | 0x40000000u | ((4096u - 1) << 1) | 0x10000000u);
        if (get() != 0x80000001u) /* the dictionary must be declined */
            return 4;
    } else if (strcmp(mode, "oldshm") == 0) {
        put(0x80000001u | 0x40000000u | ((4096u - 1) << 1) | 0x01000000u);
        if (get() != 0x81000001u) /* shm input must be accepted */
            return 4;
        shm_input = attach_shm_input();
    } else if (strncmp(mode, "die:", 4) == 0) {
        put(0);
        runs = atoi(mode + 4);
    } else {
        put(0); /* "check": a plain hello */
    }
    serve(mode, input, map, runs);
    return 0;
}
