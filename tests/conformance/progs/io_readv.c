/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: readv into two buffers (3 + 5 bytes); the
 * second buffer's bytes carry the file offsets after the first's, and the
 * count follows the input length. Property: abort() when the file is 8
 * bytes long (the seed has 6) with 'R' first and 'V' fourth. */
// seed: 00 00 00 00 00 00
// pc-bytes: b0 b3 len0
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
    unsigned char head[3] = {0}, tail[5] = {0};
    struct iovec iov[2] = {{head, sizeof head}, {tail, sizeof tail}};
    ssize_t r = readv(fd, iov, 2);
    close(fd);
    printf("%d\n", (int)r);
    if ((head[0] == 'R') & (tail[0] == 'V') & (r == 8))
        abort();
    return 0;
}
