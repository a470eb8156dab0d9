/* SPDX-License-Identifier: Apache-2.0 */
/* The .gbt trace format: constants, record layouts and the block encoder.
 * Shared by the tracer runtime (writer) and symbolic/ (reader); the normative
 * description is docs/trace-format.md. Header-only so that the runtime linked
 * into targets carries private copies (everything here is static). */
#ifndef GB_GBT_H
#define GB_GBT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GBT_MAGIC "GBTRACE\0"      /* 8 bytes at offset 0 */
#define GBT_VERSION 1u             /* a trace with no table reads (also the base version) */
#define GBT_VERSION_TABLES 2u      /* a trace with TABLE records and READ nodes */
#define GBT_VERSION_FP 3u          /* a trace with floating-point nodes (and maybe tables) */
#define GBT_HEADER_SIZE 40u        /* magic, version, hsize, flags, len, hash, csum */
#define GBT_BLOCK_MAGIC 0x4b4c4247u /* "GBLK" little-endian */
#define GBT_BLOCK_HEADER_SIZE 16u  /* magic, payload length, checksum */
#define GBT_BLOCK_MAX (1u << 20)   /* readers reject larger payloads */
#define GBT_MAX_WIDTH 64u          /* widest bit-vector */
#define GBT_TABLE_MAX 4096u        /* largest constant table a READ may index */
/* The input's length is a variable too: INPUT nodes with offsets
 * GBT_LEN_OFFSET + k (k < GBT_LEN_BYTES, k = 0 least significant) are the
 * bytes of the length, so it is below 2^(8 * GBT_LEN_BYTES) by construction.
 * Real input offsets stay below GBT_LEN_OFFSET. */
#define GBT_LEN_OFFSET 0xFFFFFFF0u
#define GBT_LEN_BYTES 3u

static inline int gbt_is_len_offset(uint64_t off)
{
    return off >= GBT_LEN_OFFSET && off < GBT_LEN_OFFSET + GBT_LEN_BYTES;
}

/* Byte `off` of the input `in` of `len` bytes as the trace's variables see
 * it: a length byte, an input byte, or 0 past the end. */
static inline uint8_t gbt_input_byte(const uint8_t *in, uint64_t len, uint64_t off)
{
    if (gbt_is_len_offset(off))
        return (uint8_t)(len >> (8 * (off - GBT_LEN_OFFSET)));
    return in && off < len ? in[off] : 0;
}

/* Record types. Every record is: u8 type, u16 body length, body. */
enum gbt_rec {
    GBT_REC_NODE = 1,  /* expression node; ids are implicit, 1, 2, 3, ... */
    GBT_REC_PC = 2,    /* path-constraint entry */
    GBT_REC_BLOCK = 3, /* first visit of a basic block in this run */
    GBT_REC_END = 4,   /* the run ended; absent when the run died */
    GBT_REC_TABLE = 5, /* version 2: the bytes of a constant table READ nodes index */
};

/* Kinds of path-constraint entries. */
enum gbt_pc_kind {
    GBT_PC_BRANCH = 0, /* a conditional branch on a symbolic condition */
    GBT_PC_PIN = 1,    /* a concretisation (symbolic pointer): never flipped */
    GBT_PC_SWITCH = 2, /* one case of a switch: taken or not */
    GBT_PC_CHECK = 3,  /* a bounds check (index <u size) the search flips to look for a bug */
};

/* How the traced run ended (END record). */
enum gbt_end_kind {
    GBT_END_EXIT = 0,   /* normal exit; code = 0 (atexit cannot see the status) */
    GBT_END_SIGNAL = 1, /* fatal signal; code = signal number */
    GBT_END_LIMIT = 2,  /* the trace hit a size cap and stopped recording */
};

/* Expression operators. Widths are in bits; comparisons have width 1. */
enum gbt_op {
    GBT_OP_CONST = 1,   /* imm = value (low `width` bits) */
    GBT_OP_INPUT = 2,   /* width 8, imm = byte offset in the input */
    GBT_OP_ADD = 3,
    GBT_OP_SUB = 4,
    GBT_OP_MUL = 5,
    GBT_OP_UDIV = 6,
    GBT_OP_SDIV = 7,
    GBT_OP_UREM = 8,
    GBT_OP_SREM = 9,
    GBT_OP_SHL = 10,
    GBT_OP_LSHR = 11,
    GBT_OP_ASHR = 12,
    GBT_OP_AND = 13,
    GBT_OP_OR = 14,
    GBT_OP_XOR = 15,
    GBT_OP_NOT = 16,     /* bitwise complement */
    GBT_OP_NEG = 17,     /* two's complement negation */
    GBT_OP_ZEXT = 18,    /* 1 arg; width = new width */
    GBT_OP_SEXT = 19,    /* 1 arg; width = new width */
    GBT_OP_EXTRACT = 20, /* 1 arg; imm = low bit; bits [imm, imm+width) */
    GBT_OP_CONCAT = 21,  /* 2 args: arg0 is the high part */
    GBT_OP_EQ = 22,
    GBT_OP_NE = 23,
    GBT_OP_ULT = 24,
    GBT_OP_ULE = 25,
    GBT_OP_UGT = 26,
    GBT_OP_UGE = 27,
    GBT_OP_SLT = 28,
    GBT_OP_SLE = 29,
    GBT_OP_SGT = 30,
    GBT_OP_SGE = 31,
    GBT_OP_ITE = 32, /* 3 args: arg0 width 1, arg1 and arg2 the result width */
    GBT_OP_READ = 33, /* version 2. 1 arg: byte offset into table `imm`; width/8 bytes, LE */
    /* Version 3: floating point. A float is the bit-vector of its IEEE-754
     * bits (width 32 binary32, 64 binary64); docs/trace-format.md. The
     * compares are LLVM's fcmp predicates in LLVM's order (FCMP_FIRST +
     * predicate - 1), on two args of one FP width, result width 1. */
    GBT_OP_FOEQ = 34,
    GBT_OP_FOGT = 35,
    GBT_OP_FOGE = 36,
    GBT_OP_FOLT = 37,
    GBT_OP_FOLE = 38,
    GBT_OP_FONE = 39,
    GBT_OP_FORD = 40,
    GBT_OP_FUNO = 41,
    GBT_OP_FUEQ = 42,
    GBT_OP_FUGT = 43,
    GBT_OP_FUGE = 44,
    GBT_OP_FULT = 45,
    GBT_OP_FULE = 46,
    GBT_OP_FUNE = 47,
    GBT_OP_FADD = 48, /* 2 args, rounding to nearest even; all three widths equal */
    GBT_OP_FSUB = 49,
    GBT_OP_FMUL = 50,
    GBT_OP_FDIV = 51,
    GBT_OP_SITOFP = 52,  /* 1 arg: signed integer (any width) to FP, nearest even */
    GBT_OP_UITOFP = 53,  /* 1 arg: unsigned integer to FP */
    GBT_OP_FPTOSI = 54,  /* 1 arg: FP to signed integer, toward zero; 0 out of range */
    GBT_OP_FPTOUI = 55,  /* 1 arg: FP to unsigned integer, toward zero; 0 out of range */
    GBT_OP_FPEXT = 56,   /* 1 arg: binary32 to binary64 */
    GBT_OP_FPTRUNC = 57, /* 1 arg: binary64 to binary32, nearest even */
    GBT_OP_LAST = 57
};
#define GBT_OP_FCMP_FIRST GBT_OP_FOEQ
#define GBT_OP_FCMP_LAST GBT_OP_FUNE
/* The IEEE bits every FP operator gives for a NaN result (docs/trace-format.md,
 * "Floating point"): hardware NaNs differ in sign and payload, Z3 has one NaN. */
#define GBT_FP_NAN32 0x7fc00000u
#define GBT_FP_NAN64 0x7ff8000000000000ull

/* Node body: u8 op, u8 width, u8 nargs, u8 reserved(0), u32 args[nargs], u64 imm. */
#define GBT_NODE_BODY(nargs) (4u + 4u * (unsigned)(nargs) + 8u)
/* PC body: u8 kind, u8 taken, u16 reserved(0), u32 site, u32 node. */
#define GBT_PC_BODY 12u
/* BLOCK body: u32 block id. */
#define GBT_BLOCK_BODY 4u
/* END body: u8 kind, u8 reserved[3], i32 code, u64 nodes, u64 pcs, u64 dropped. */
#define GBT_END_BODY 32u
/* TABLE body: u32 table id (nonzero), then the table's bytes (1..4096). */
#define GBT_TABLE_BODY(len) (4u + (unsigned)(len))

/* Little-endian stores and loads. On a little-endian host they are single
 * unaligned moves (the byte loops were not merged by clang inside the
 * runtime's node writer: a tenth of a traced inflate's instructions). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GBT_LE_HOST 1
#else
#define GBT_LE_HOST 0
#endif

static inline void gbt_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void gbt_put32(uint8_t *p, uint32_t v)
{
    if (GBT_LE_HOST) {
        __builtin_memcpy(p, &v, 4);
        return;
    }
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void gbt_put64(uint8_t *p, uint64_t v)
{
    if (GBT_LE_HOST) {
        __builtin_memcpy(p, &v, 8);
        return;
    }
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t gbt_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t gbt_get32(const uint8_t *p)
{
    if (GBT_LE_HOST) {
        uint32_t v;
        __builtin_memcpy(&v, p, 4);
        return v;
    }
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint64_t gbt_get64(const uint8_t *p)
{
    if (GBT_LE_HOST) {
        uint64_t v;
        __builtin_memcpy(&v, p, 8);
        return v;
    }
    return (uint64_t)gbt_get32(p) | ((uint64_t)gbt_get32(p + 4) << 32);
}

/* Arity of each operator; -1 for invalid codes. */
static inline int gbt_op_arity(unsigned op)
{
    if (op == GBT_OP_CONST || op == GBT_OP_INPUT)
        return 0;
    if (op == GBT_OP_NOT || op == GBT_OP_NEG || op == GBT_OP_ZEXT || op == GBT_OP_SEXT ||
        op == GBT_OP_EXTRACT || op == GBT_OP_READ || (op >= GBT_OP_SITOFP && op <= GBT_OP_LAST))
        return 1;
    if (op == GBT_OP_ITE)
        return 3;
    if (op >= GBT_OP_ADD && op <= GBT_OP_LAST)
        return 2;
    return -1;
}

/* Bit-vector comparisons (FP compares are not: see gbt_op_is_fcmp). */
static inline int gbt_op_is_cmp(unsigned op)
{
    return op >= GBT_OP_EQ && op <= GBT_OP_SGE;
}

static inline int gbt_op_is_fcmp(unsigned op)
{
    return op >= GBT_OP_FCMP_FIRST && op <= GBT_OP_FCMP_LAST;
}

/* The floating-point operators (version 3). */
static inline int gbt_op_is_fp(unsigned op)
{
    return op >= GBT_OP_FCMP_FIRST && op <= GBT_OP_FPTRUNC;
}

static inline int gbt_fp_width(unsigned w)
{
    return w == 32 || w == 64;
}

/* Encoders write one record into `p` and return its total size
 * (3 bytes of record header + body). The caller ensures room. */
static inline size_t gbt_enc_node(uint8_t *p, unsigned op, unsigned width, unsigned nargs,
                                  const uint32_t *args, uint64_t imm)
{
    size_t body = GBT_NODE_BODY(nargs);
    p[0] = GBT_REC_NODE;
    gbt_put16(p + 1, (uint16_t)body);
    p[3] = (uint8_t)op;
    p[4] = (uint8_t)width;
    p[5] = (uint8_t)nargs;
    p[6] = 0;
    for (unsigned i = 0; i < nargs; i++)
        gbt_put32(p + 7 + 4 * i, args[i]);
    gbt_put64(p + 7 + 4 * nargs, imm);
    return 3 + body;
}

static inline size_t gbt_enc_pc(uint8_t *p, unsigned kind, unsigned taken, uint32_t site,
                                uint32_t node)
{
    p[0] = GBT_REC_PC;
    gbt_put16(p + 1, GBT_PC_BODY);
    p[3] = (uint8_t)kind;
    p[4] = (uint8_t)(taken != 0);
    gbt_put16(p + 5, 0);
    gbt_put32(p + 7, site);
    gbt_put32(p + 11, node);
    return 3 + GBT_PC_BODY;
}

static inline size_t gbt_enc_block(uint8_t *p, uint32_t block)
{
    p[0] = GBT_REC_BLOCK;
    gbt_put16(p + 1, GBT_BLOCK_BODY);
    gbt_put32(p + 3, block);
    return 3 + GBT_BLOCK_BODY;
}

static inline size_t gbt_enc_end(uint8_t *p, unsigned kind, int32_t code, uint64_t nodes,
                                 uint64_t pcs, uint64_t dropped)
{
    p[0] = GBT_REC_END;
    gbt_put16(p + 1, GBT_END_BODY);
    memset(p + 3, 0, GBT_END_BODY);
    p[3] = (uint8_t)kind;
    gbt_put32(p + 7, (uint32_t)code);
    gbt_put64(p + 11, nodes);
    gbt_put64(p + 19, pcs);
    gbt_put64(p + 27, dropped);
    return 3 + GBT_END_BODY;
}

static inline size_t gbt_enc_table(uint8_t *p, uint32_t id, const uint8_t *bytes, size_t len)
{
    p[0] = GBT_REC_TABLE;
    gbt_put16(p + 1, (uint16_t)GBT_TABLE_BODY(len));
    gbt_put32(p + 3, id);
    memcpy(p + 7, bytes, len);
    return 3 + GBT_TABLE_BODY(len);
}

/* Header: `hash` is a 64-bit checksum function (XXH3_64bits_withSeed) passed
 * in so that this header does not pick the xxHash linkage for its users. */
typedef uint64_t (*gbt_hash_fn)(const void *data, size_t len, uint64_t seed);

static inline void gbt_enc_header_v(uint8_t *p, unsigned version, uint64_t input_len,
                                    uint64_t input_hash, gbt_hash_fn hash)
{
    memcpy(p, GBT_MAGIC, 8);
    gbt_put16(p + 8, (uint16_t)version);
    gbt_put16(p + 10, (uint16_t)GBT_HEADER_SIZE);
    gbt_put32(p + 12, 0);
    gbt_put64(p + 16, input_len);
    gbt_put64(p + 24, input_hash);
    gbt_put64(p + 32, hash(p, 32, 0));
}

static inline void gbt_enc_header(uint8_t *p, uint64_t input_len, uint64_t input_hash,
                                  gbt_hash_fn hash)
{
    gbt_enc_header_v(p, GBT_VERSION, input_len, input_hash, hash);
}

/* Block header for `len` payload bytes; the checksum is seeded with the
 * block's index so that reordered or duplicated blocks are detected. */
static inline void gbt_enc_block_header(uint8_t *p, const uint8_t *payload, uint32_t len,
                                        uint64_t index, gbt_hash_fn hash)
{
    gbt_put32(p, GBT_BLOCK_MAGIC);
    gbt_put32(p + 4, len);
    gbt_put64(p + 8, hash(payload, len, index));
}

#endif
