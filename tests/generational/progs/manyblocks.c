/* SPDX-License-Identifier: Apache-2.0 */
/* 800 functions of a few blocks each in one module, about 4,000 blocks:
 * hashed into 65,536 slots, dozens of them would share an id (the chance
 * of none is e^-120). generational.ids checks that none do. */
#include <stdio.h>

#define F(n)                                                                               \
    int f##n(int x)                                                                        \
    {                                                                                      \
        if (x == 0x##n)                                                                    \
            return 3 * x;                                                                  \
        if (x > 0x##n + 7)                                                                 \
            return x - 0x##n;                                                              \
        return 0;                                                                          \
    }
#define D(a) F(a##0) F(a##1) F(a##2) F(a##3) F(a##4) F(a##5) F(a##6) F(a##7) F(a##8) F(a##9)
#define C(a) D(a##0) D(a##1) D(a##2) D(a##3) D(a##4) D(a##5) D(a##6) D(a##7) D(a##8) D(a##9)
C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8)

int main(int argc, char **argv)
{
    int c = argc > 1 ? argv[1][0] : 0;
    printf("%d\n", f100(c) + f899(c));
    return 0;
}
