/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: mmap of the whole file after fstat.
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b1
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return 2;
    if (st.st_size < 8)
        return close(fd), 0;
    const unsigned char *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return 2;
    int bad = p[1] == 'M' && p[6] == 'P' && (p[7] ^ p[1]) == 0x21;
    munmap((void *)p, (size_t)st.st_size);
    if (bad)
        abort();
    return 0;
}
