/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input length: fstat's st_size and lseek(SEEK_END) follow the
 * length, so the search can ask for a shorter file. Property: abort()
 * reached (needs 3 bytes; the seed has 8). */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: len0 len1 len2
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return 2;
    unsigned char c = 0;
    if (st.st_size == 3 && lseek(fd, -1, SEEK_END) == 2 && read(fd, &c, 1) == 1 && c == 'S')
        abort();
    close(fd);
    return 0;
}
