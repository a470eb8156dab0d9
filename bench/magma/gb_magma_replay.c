/* SPDX-License-Identifier: Apache-2.0 */
/* The main of the canary replay build (NAME.plain): runs every file given,
 * or every file of a directory given, through LLVMFuzzerTestOneInput in a
 * child of its own, so a trigger's abort or a hang ends that input only.
 * With GB_MAGMA_LOG=FILE it frames each input's canary lines (written by
 * gb_magma_rt.c in the child) between "file PATH" and "end STATUS", which
 * is how bench/magma/bugs.sh knows which input reached or triggered what. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RP_MAX_INPUT (1u << 20) /* AFL++'s limit; larger files are not queued */
#define RP_TIMEOUT_S 5          /* a hang ends its child, not the replay */

static int rp_log = -1;

static void rp_note(const char *a, const char *b)
{
    char line[4200];
    int n = snprintf(line, sizeof line, "%s %s\n", a, b);
    if (rp_log >= 0 && n > 0 && (size_t)n < sizeof line) {
        ssize_t r = write(rp_log, line, (size_t)n);
        (void)r; /* a lost frame only undercounts */
    }
}

static void rp_child(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(RP_MAX_INPUT);
    if (!f || !buf)
        _exit(3);
    size_t n = fread(buf, 1, RP_MAX_INPUT, f);
    fclose(f);
    uint8_t *copy = malloc(n ? n : 1); /* its own block, as libFuzzer gives */
    if (!copy)
        _exit(3);
    memcpy(copy, buf, n);
    alarm(RP_TIMEOUT_S);
    LLVMFuzzerTestOneInput(copy, n);
    _exit(0);
}

static void rp_one(const char *path)
{
    char st[32];
    int w;
    rp_note("file", path);
    pid_t pid = fork();
    if (pid < 0) {
        perror("gb_magma_replay: fork");
        exit(2);
    }
    if (pid == 0)
        rp_child(path);
    if (waitpid(pid, &w, 0) < 0)
        snprintf(st, sizeof st, "lost");
    else if (WIFSIGNALED(w))
        snprintf(st, sizeof st, "signal %d", WTERMSIG(w));
    else
        snprintf(st, sizeof st, "exit %d", WEXITSTATUS(w));
    rp_note("end", st);
}

static int rp_visible(const struct dirent *e)
{
    return e->d_name[0] != '.'; /* AFL++'s .state, .synced etc. */
}

/* A file, or a directory's files in name order (not recursively). */
static void rp_arg(const char *arg)
{
    struct dirent **names;
    int n = scandir(arg, &names, rp_visible, alphasort);
    if (n < 0) {
        rp_one(arg);
        return;
    }
    char p[4096];
    for (int i = 0; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s", arg, names[i]->d_name);
        if (names[i]->d_type == DT_REG || names[i]->d_type == DT_UNKNOWN)
            rp_one(p);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIR... (GB_MAGMA_LOG=FILE)\n", argv[0]);
        return 2;
    }
    const char *log = getenv("GB_MAGMA_LOG");
    if (log && *log)
        rp_log = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    for (int i = 1; i < argc; i++)
        rp_arg(argv[i]);
    return 0;
}
