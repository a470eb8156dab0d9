/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input length: read() comes up short at the end of the file;
 * its count is min(length, 16), so the search can ask for a longer file.
 * Property: abort() reached (needs 12 bytes; the seed has 8). */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: len0 len1 len2
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0)
        return 2;
    unsigned char b[16] = {0};
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    if (n != 12) /* a branch of its own, not folded into the select below */
        return printf("%d bytes\n", (int)n), 0;
    if (b[11] == 'Z')
        abort();
    return 0;
}
