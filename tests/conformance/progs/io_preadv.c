/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: preadv into two buffers at an offset the
 * file itself gives (the offset is pinned, as pread's). Property: abort()
 * when the first buffer starts with 'P' and the second ends with 'V'. */
// seed: 02 00 00 00 00 00 00 00
// pc-bytes: b2 b5
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0)
        return 2;
    unsigned char off, a[2] = {0}, b[2] = {0};
    if (pread(fd, &off, 1, 0) != 1 || off < 1 || off > 4)
        return close(fd), 0;
    struct iovec iov[2] = {{a, sizeof a}, {b, sizeof b}};
    ssize_t r = preadv(fd, iov, 2, off);
    close(fd);
    printf("%d\n", (int)r);
    if (r == 4 && ((a[0] == 'P') & (b[1] == 'V')))
        abort();
    return 0;
}
