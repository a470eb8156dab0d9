/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the input-source models (io.c, io_scan.c): which descriptor or
 * stream is the input file (GLASSBOX_INPUT), where it stands, and shadows
 * for bytes read from it. All hidden. */
#ifndef GB_IO_INT_H
#define GB_IO_INT_H

#include <stdio.h>

#include "rt_int.h"

/* 1 if fd is the input file and tracing is on (the first time, this opens
 * the trace when the libFuzzer driver has not). errno is preserved. */
RT_HIDDEN int io_is_input_fd(int fd);

/* The stream's offset in the input file, or -1 if it is not the input. */
RT_HIDDEN int64_t io_stream_pos(FILE *f);

/* The input's bytes as read at start (*len = 0 when there is none). */
RT_HIDDEN const uint8_t *io_input_bytes(size_t *len);

/* INPUT(off) when off is inside the input, else NULL (concrete). */
RT_HIDDEN rt_expr_t *io_byte(int64_t off);

/* n bytes at buf came from file offset off (off < 0: not from the input). */
RT_HIDDEN void io_mark(void *buf, size_t n, int64_t off);

/* Records a condition libc decided on input bytes (a BRANCH entry). */
RT_HIDDEN void io_branch(rt_expr_t *cond, int taken, uint32_t site);

#endif
