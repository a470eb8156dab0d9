/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: open + read of argv[1] in two reads.
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b0
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        return 2;
    unsigned char a[3], b[5];
    if (read(fd, a, sizeof a) != (ssize_t)sizeof a || read(fd, b, sizeof b) < 2)
        return close(fd), 0;
    close(fd);
    if (a[0] == 'R' && a[2] == 'D' && b[1] == '!') /* b[1] is file offset 4 */
        abort();
    return 0;
}
