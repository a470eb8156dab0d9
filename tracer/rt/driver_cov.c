/* SPDX-License-Identifier: Apache-2.0 */
/* The driver main for cov builds (see driver.c). */
#include "driver.c"
