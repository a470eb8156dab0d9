/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: lseek (SEEK_SET, SEEK_CUR) between reads.
 * Property: abort() reached. */
// seed: 00 00 00 00 00 00 00 00
// pc-bytes: b3
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0)
        return 2;
    unsigned char a = 0, b = 0;
    if (lseek(fd, 3, SEEK_SET) != 3 || read(fd, &a, 1) != 1 || lseek(fd, 2, SEEK_CUR) != 6 ||
        read(fd, &b, 1) != 1)
        return close(fd), 0;
    close(fd);
    if (a == 'L' && b == (unsigned char)(a + 1)) /* offsets 3 and 6 */
        abort();
    return 0;
}
