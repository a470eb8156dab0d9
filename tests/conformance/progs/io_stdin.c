/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance, input sources: the input on stdin (read(0, ...)), as
 * "prog -" with no path: glassbox fuzz gives every run the input as stdin.
 * Property: abort() reached. */
// seed: 00 00 00 00
// pc-bytes: b0
// args: -
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "-") != 0)
        return 2;
    unsigned char b[4];
    ssize_t n = read(0, b, sizeof b);
    if (n == 4 && b[0] == 'I' && b[1] == 'N' && b[3] == b[0])
        abort();
    return 0;
}
