/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: pread at an offset the file itself gives.
 * Property: abort() reached. */
// seed: 04 00 00 00 00 00 00 00
// pc-bytes: b0 b4
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0)
        return 2;
    unsigned char off, v[2];
    if (pread(fd, &off, 1, 0) != 1 || off < 1 || off > 6)
        return close(fd), 0;
    ssize_t n = pread(fd, v, sizeof v, off);
    close(fd);
    if (n == 2 && v[0] == 0x7f && v[1] == 'E' && off == 5)
        abort();
    return 0;
}
