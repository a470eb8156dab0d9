/* SPDX-License-Identifier: Apache-2.0 */
/* Writes every gate's seeds (valid, non-crashing) and one crashing input, checksums
 * computed here: mkinputs OUT_DIR makes OUT_DIR/seeds/NAME/ and OUT_DIR/crash/NAME. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MK_MAX = 4096 };

typedef struct mk_buf {
    uint8_t b[MK_MAX];
    size_t n;
} mk_buf_t;

static const char *mk_out;

static void mk_die(const char *what, const char *path)
{
    fprintf(stderr, "mkinputs: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void mk_mkdir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        mk_die("cannot create", path);
}

/* Writes OUT/SUB/GATE/FILE, or OUT/SUB/GATE when file is NULL. */
static void mk_write(const char *sub, const char *gate, const char *file, const mk_buf_t *m)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", mk_out, sub);
    mk_mkdir(path);
    snprintf(path, sizeof path, "%s/%s/%s", mk_out, sub, gate);
    if (file) {
        mk_mkdir(path);
        snprintf(path, sizeof path, "%s/%s/%s/%s", mk_out, sub, gate, file);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(m->b, 1, m->n, f) != m->n || fclose(f) != 0)
        mk_die("cannot write", path);
}

static void mk_seed(const char *gate, const char *file, const mk_buf_t *m)
{
    mk_write("seeds", gate, file, m);
}

static void mk_crash(const char *gate, const mk_buf_t *m)
{
    mk_write("crash", gate, NULL, m);
}

static void put(mk_buf_t *m, const void *p, size_t n)
{
    if (m->n + n > MK_MAX) {
        fprintf(stderr, "mkinputs: an input outgrew %d bytes\n", MK_MAX);
        exit(1);
    }
    memcpy(m->b + m->n, p, n);
    m->n += n;
}

static void put8(mk_buf_t *m, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(m, &b, 1);
}

static void put_le(mk_buf_t *m, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        put8(m, (unsigned)(v >> (8 * i)));
}

static void put_be(mk_buf_t *m, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        put8(m, (unsigned)(v >> (8 * i)));
}

static void put_str(mk_buf_t *m, const char *s)
{
    put(m, s, strlen(s));
}

static void put_fill(mk_buf_t *m, unsigned v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put8(m, v);
}

static void set_be32(mk_buf_t *m, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        m->b[at + (size_t)i] = (uint8_t)(v >> (24 - 8 * i));
}

/* zlib's CRC-32, bit by bit: the gates' table and bitwise forms must both agree with it. */
static uint32_t mk_crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return c ^ 0xffffffffu;
}

/* ---- magic64: GBSF sections with 8-byte signatures (little-endian uint64s) ---- */
#define SIG_TEXT 0x6e1d3b27a4c90f58ull
#define SIG_META 0x1f9c6a02e85bd734ull
#define SIG_INDEX 0xd2c4b9a1e7f03865ull

static void sf_section(mk_buf_t *m, uint64_t sig, const char *body)
{
    put_le(m, sig, 8);
    put_le(m, strlen(body), 2);
    put_str(m, body);
}

static void gen_magic64(void)
{
    mk_buf_t m = {0};
    put_str(&m, "GBSF\x01\x02");
    sf_section(&m, SIG_META, "author=glassbox");
    sf_section(&m, SIG_TEXT, "hello, sections");
    mk_seed("magic64", "two_sections", &m);
    m.n = 0;
    put_str(&m, "GBSF\x01\x02");
    sf_section(&m, SIG_TEXT, "hello");
    sf_section(&m, SIG_INDEX,
               "\x40"
               "abcd"); /* 64 entries in a 5-byte section */
    mk_crash("magic64", &m);
}

/* ---- magic_bytes: a PNG for the seed, an ar archive with a "/" member for the crash ---- */
static void png_chunk(mk_buf_t *m, const char *type, const uint8_t *d, size_t n)
{
    put_be(m, n, 4);
    size_t at = m->n;
    put(m, type, 4);
    put(m, d, n);
    put_be(m, mk_crc32(m->b + at, n + 4), 4);
}

static void gen_magic_bytes(void)
{
    static const uint8_t ihdr[13] = {0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0};
    static const uint8_t idat[10] = {0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0, 0, 0};
    mk_buf_t m = {0};
    put_str(&m, "\x89PNG\r\n\x1a\n");
    png_chunk(&m, "IHDR", ihdr, sizeof ihdr);
    png_chunk(&m, "tEXt", (const uint8_t *)"Comment\0gate seed", 17);
    png_chunk(&m, "IDAT", idat, sizeof idat);
    png_chunk(&m, "IEND", NULL, 0);
    mk_seed("magic_bytes", "one_pixel.png", &m);
    m.n = 0;
    put_str(&m, "!<arch>\n");
    put_str(&m, "/               0           0     0     0       4         `\n");
    put_str(&m, "\0\0\0\0");
    mk_crash("magic_bytes", &m);
}

/* ---- crc32_table: GBP chunks, CRC-32 over type and data ---- */
static void ct_header(mk_buf_t *m, unsigned depth)
{
    uint8_t h[10] = {0, 0, 0, 16, 0, 0, 0, 8, (uint8_t)depth, 2};
    png_chunk(m, "HDR ", h, sizeof h);
}

static void gen_crc32_table(void)
{
    mk_buf_t m = {0};
    put_str(&m, "\x89GBP\r\n\x1a\n");
    ct_header(&m, 8);
    png_chunk(&m, "TXT ", (const uint8_t *)"a 16x8 image", 12);
    png_chunk(&m, "END ", NULL, 0);
    mk_seed("crc32_table", "hdr_txt_end", &m);
    m.n = 0;
    put_str(&m, "\x89GBP\r\n\x1a\n");
    ct_header(&m, 8);
    png_chunk(&m, "END ", NULL, 0);
    mk_seed("crc32_table", "hdr_end", &m);
    m.n = 0;
    put_str(&m, "\x89GBP\r\n\x1a\n");
    ct_header(&m, 0x5a);
    png_chunk(&m, "END ", NULL, 0);
    mk_crash("crc32_table", &m);
}

/* ---- crc32_bitwise: 24-byte firmware header, then the image ---- */
static void fw_image(mk_buf_t *m, unsigned comp, const char *img)
{
    size_t at = m->n, len = strlen(img);
    put_be(m, 0x27051956u, 4);
    put_be(m, 0, 4);
    put_be(m, len, 4);
    put_be(m, mk_crc32((const uint8_t *)img, len), 4);
    put8(m, 5);    /* os: Linux */
    put8(m, 2);    /* arch: ARM */
    put8(m, 2);    /* type: kernel */
    put8(m, comp); /* compression */
    put(m, "gbkernel", 8);
    set_be32(m, at + 4, mk_crc32(m->b + at, 24));
    put_str(m, img);
}

static void gen_crc32_bitwise(void)
{
    mk_buf_t m = {0};
    fw_image(&m, 0,
             "\x7f"
             "ELF kernel image bytes");
    mk_seed("crc32_bitwise", "uncompressed", &m);
    m.n = 0;
    fw_image(&m, 1, "\x1f\x8b gzip bytes");
    mk_seed("crc32_bitwise", "gzip", &m);
    m.n = 0;
    fw_image(&m, 0x47,
             "\x7f"
             "ELF kernel image bytes");
    mk_crash("crc32_bitwise", &m);
}

/* ---- adler32: zlib stream of stored blocks around a settings table ---- */
static uint32_t mk_adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

static void zl_block(mk_buf_t *m, unsigned final, const uint8_t *d, size_t n)
{
    put8(m, final); /* BFINAL, BTYPE 00: stored */
    put_le(m, n, 2);
    put_le(m, n ^ 0xffffu, 2);
    put(m, d, n);
}

/* A zlib stream of one stored block, or two when split is inside the data. */
static void zl_stored(mk_buf_t *m, const uint8_t *d, size_t n, size_t split)
{
    size_t first = split < n ? split : 0;
    put8(m, 0x78);
    put8(m, 0x01);
    if (first)
        zl_block(m, 0, d, first);
    zl_block(m, 1, d + first, n - first);
    put_be(m, mk_adler32(d, n), 4);
}

static void ad_settings(uint8_t *d, unsigned count)
{
    d[0] = (uint8_t)count;
    for (unsigned i = 1; i < 40; i++)
        d[i] = (uint8_t)(i * 7 + 3);
}

static void gen_adler32(void)
{
    uint8_t d[40];
    mk_buf_t m = {0};
    ad_settings(d, 3);
    zl_stored(&m, d, sizeof d, 0);
    mk_seed("adler32", "one_block", &m);
    m.n = 0;
    zl_stored(&m, d, sizeof d, 15);
    mk_seed("adler32", "two_blocks", &m);
    m.n = 0;
    ad_settings(d, 19);
    zl_stored(&m, d, sizeof d, 0);
    mk_crash("adler32", &m);
}

/* ---- name_length: entries with a name length and a 32-byte name field ---- */
static void nl_entry(mk_buf_t *m, const char *name, unsigned namelen, const char *body)
{
    char field[32] = {0};
    memcpy(field, name, strlen(name));
    put_le(m, 0x71c7, 2);
    put_le(m, 0100644, 2);
    put8(m, namelen);
    put8(m, 0);
    put_le(m, strlen(body), 4);
    put(m, field, 32);
    put_str(m, body);
    put8(m, 'N');
    put8(m, namelen);
}

static void gen_name_length(void)
{
    mk_buf_t m = {0};
    nl_entry(&m, "readme.txt", 10, "read me\n");
    nl_entry(&m, "src/main.c", 10, "int main(void);\n");
    mk_seed("name_length", "two_entries", &m);
    m.n = 0;
    nl_entry(&m, "docs/a-rather-long-name.txt", 27, "long\n");
    mk_crash("name_length", &m);
}

/* ---- nested_tlv: outer TLVs (sum16) of inner TLVs (sum8) ---- */
static void tl_inner(mk_buf_t *m, unsigned type, const uint8_t *v, size_t n)
{
    unsigned s = type + (unsigned)n;
    put8(m, type);
    put8(m, (unsigned)n);
    for (size_t i = 0; i < n; i++)
        s += v[i];
    put(m, v, n);
    put8(m, (0x100u - (s & 0xffu)) & 0xffu);
}

static void tl_outer(mk_buf_t *m, const mk_buf_t *in)
{
    uint32_t s = 0;
    for (size_t i = 0; i + 1 < in->n; i += 2)
        s += (uint32_t)(in->b[i] << 8 | in->b[i + 1]);
    if (in->n & 1)
        s += (uint32_t)in->b[in->n - 1] << 8;
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    put8(m, 0x30);
    put8(m, (unsigned)in->n);
    put(m, in->b, in->n);
    put_be(m, ~s & 0xffffu, 2);
}

static void tl_file(mk_buf_t *m, unsigned window)
{
    mk_buf_t a = {0}, b = {0};
    uint8_t w = (uint8_t)window;
    tl_inner(&a, 0x01, (const uint8_t *)"gb-node-7", 9);
    tl_inner(&a, 0x02, (const uint8_t *)"\x00\x50", 2);
    tl_outer(m, &a);
    tl_inner(&b, 0x04, (const uint8_t *)"\x01", 1);
    tl_inner(&b, 0x05, &w, 1);
    tl_inner(&b, 0x06, (const uint8_t *)"\x0a\x00\x00\x01", 4);
    tl_outer(m, &b);
}

static void gen_nested_tlv(void)
{
    mk_buf_t m = {0};
    tl_file(&m, 16);
    mk_seed("nested_tlv", "two_records", &m);
    m.n = 0;
    tl_file(&m, 200);
    mk_crash("nested_tlv", &m);
}

/* ---- strcmp_keyword: an HTTP request head ---- */
static void gen_strcmp_keyword(void)
{
    mk_buf_t m = {0};
    put_str(&m, "GET /index.html HTTP/1.1\nHost: gatehost\n"
                "Referer: /start.html\nAccept: */*\n\n");
    mk_seed("strcmp_keyword", "get", &m);
    m.n = 0;
    put_str(&m, "GET /chat HTTP/1.1\nHost: gatehost\nConnection: Upgrade\n"
                "Upgrade: websocket-over-something-long\n\n");
    mk_crash("strcmp_keyword", &m);
}

/* ---- range32: firmware header with a device id ---- */
static void rg_file(mk_buf_t *m, uint32_t id, unsigned bank)
{
    put_str(m, "GBFW");
    put_le(m, id, 4);
    put8(m, bank);
    put8(m, 3); /* revision */
    put_le(m, 8, 2);
    put_str(m, "payload!");
}

static void gen_range32(void)
{
    mk_buf_t m = {0};
    rg_file(&m, 0x7e3c9142u, 6);
    mk_seed("range32", "family_a", &m);
    m.n = 0;
    rg_file(&m, 0x12345678u, 6);
    mk_crash("range32", &m);
}

/* ---- tag_switch: FourCC-tagged records ---- */
static void ts_rec(mk_buf_t *m, const char *tag, const void *v, size_t n)
{
    put(m, tag, 4);
    put_le(m, n, 2);
    put(m, v, n);
}

static void ts_file(mk_buf_t *m, const char *big_tag)
{
    static const uint8_t w[4] = {16, 0, 0, 0}, h[4] = {16, 0, 0, 0}, bps[4] = {8, 0, 0, 0};
    uint8_t big[64];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 3);
    put_str(m, "GBTG");
    ts_rec(m, "WDTH", w, 4);
    ts_rec(m, "HGHT", h, 4);
    ts_rec(m, "BPS ", bps, 4);
    ts_rec(m, "SOFT", "glassbox", 8);
    ts_rec(m, big_tag, big, sizeof big);
}

static void gen_tag_switch(void)
{
    mk_buf_t m = {0};
    ts_file(&m, "DESC");
    mk_seed("tag_switch", "with_desc", &m);
    m.n = 0;
    ts_file(&m, "CMAP");
    mk_crash("tag_switch", &m);
}

/* ---- strtol_size: PGM header, then the pixels ---- */
static void gen_strtol_size(void)
{
    mk_buf_t m = {0};
    put_str(&m, "P5\n000004 000004\n255\n");
    put_fill(&m, 0x80, 16);
    mk_seed("strtol_size", "padded", &m);
    m.n = 0;
    put_str(&m, "P5 4 2 255\n");
    put_fill(&m, 0x40, 8);
    mk_seed("strtol_size", "plain", &m);
    m.n = 0;
    put_str(&m, "P5\n065536 065536\n255\n");
    put_fill(&m, 0x80, 16);
    mk_crash("strtol_size", &m);
}

/* ---- sscanf_hex: a flash programmer's script ---- */
static void gen_sscanf_hex(void)
{
    static const char *data32 = "00500020c1010008c5010008c7010008c9010008cb010008cd010008cf010008";
    mk_buf_t m = {0};
    put_str(&m, "GBFLASH 1\nerase 08000000\nwrite 08000000 ");
    put_str(&m, data32);
    put_str(&m, "\nwrite 08000020 ");
    put_str(&m, data32);
    put_str(&m, "\n");
    mk_seed("sscanf_hex", "two_writes", &m);
    m.n = 0;
    put_str(&m, "GBFLASH 1\nerase 08000000\nwrite 1fffc008 ");
    put_str(&m, data32);
    put_str(&m, "\n");
    mk_crash("sscanf_hex", &m);
}

/* ---- be64_key: KLV records with big-endian 64-bit keys ---- */
#define KEY_ESSENCE 0x060e2b3401020101ull
#define KEY_PARTITION 0x060e2b3402050101ull
#define KEY_INDEX 0x9f4a17c3d85e62b0ull

static void kl_rec(mk_buf_t *m, uint64_t key, const void *v, size_t n)
{
    put_be(m, key, 8);
    put_be(m, n, 2);
    put(m, v, n);
}

static void gen_be64_key(void)
{
    mk_buf_t m = {0};
    put_str(&m, "GBKL");
    kl_rec(&m, KEY_PARTITION, "\x01\x03\x00\x00", 4);
    kl_rec(&m, KEY_ESSENCE, "essence bytes, frame 1", 22);
    mk_seed("be64_key", "partition_essence", &m);
    m.n = 0;
    put_str(&m, "GBKL");
    kl_rec(&m, KEY_PARTITION, "\x01\x03\x00\x00", 4);
    kl_rec(&m, KEY_INDEX,
           "\x30"
           "0123456789",
           11); /* 48 slots claimed */
    mk_crash("be64_key", &m);
}

/* ---- repeat_record: HDRS, CONT..., BODY, END ---- */
static void rr_rec(mk_buf_t *m, const char *type, const char *body)
{
    put(m, type, 4);
    put8(m, (unsigned)strlen(body));
    put_str(m, body);
}

static void gen_repeat_record(void)
{
    mk_buf_t m = {0};
    rr_rec(&m, "HDRS", ":method GET");
    rr_rec(&m, "CONT", ":path /");
    for (int i = 0; i < 5; i++)
        rr_rec(&m, "BODY", "chunk of body");
    rr_rec(&m, "END ", "");
    mk_seed("repeat_record", "one_cont", &m);
    m.n = 0;
    rr_rec(&m, "HDRS", ":method GET");
    for (int i = 0; i < 5; i++)
        rr_rec(&m, "CONT", "x-pad: 1");
    rr_rec(&m, "END ", "");
    mk_crash("repeat_record", &m);
}

/* ---- count_match: "GBCT", counts and directory size, then the records ---- */
static void cm_file(mk_buf_t *m, unsigned count, unsigned plen)
{
    put_str(m, "GBCT");
    put_le(m, count, 2);
    put_le(m, count, 2);
    put_le(m, count * (2 + plen), 2);
    for (unsigned i = 0; i < count; i++) {
        put8(m, plen);
        put8(m, i + 1);
        put(m, "record", plen);
    }
}

static void gen_count_match(void)
{
    mk_buf_t m = {0};
    cm_file(&m, 4, 6);
    mk_seed("count_match", "four", &m);
    m.n = 0;
    cm_file(&m, 9, 1);
    mk_crash("count_match", &m);
}

/* ---- insert_chunk: HEAD, PALT, [TEXT], [TRNS], DATA, END ---- */
static void ic_chunk(mk_buf_t *m, const char *type, const void *d, size_t n)
{
    put(m, type, 4);
    put_le(m, n, 2);
    put(m, d, n);
}

static void ic_file(mk_buf_t *m, int text, int trns)
{
    static const uint8_t pal[12] = {0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255};
    static const uint8_t alpha[8] = {0, 64, 128, 255, 255, 255, 255, 255};
    static const uint8_t px[16] = {0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0};
    put_str(m, "GBCK");
    ic_chunk(m, "HEAD", "\x04\x04", 2);
    ic_chunk(m, "PALT", pal, sizeof pal);
    if (text)
        ic_chunk(m, "TEXT", "made by mkinputs", 16);
    if (trns)
        ic_chunk(m, "TRNS", alpha, sizeof alpha);
    ic_chunk(m, "DATA", px, sizeof px);
    ic_chunk(m, "END ", NULL, 0);
}

static void gen_insert_chunk(void)
{
    mk_buf_t m = {0};
    ic_file(&m, 1, 0);
    mk_seed("insert_chunk", "with_text", &m);
    m.n = 0;
    ic_file(&m, 0, 0);
    mk_seed("insert_chunk", "plain", &m);
    m.n = 0;
    ic_file(&m, 0, 1);
    mk_crash("insert_chunk", &m);
}

/* ---- issue 37's families ---- */

/* chunk_crc_insert: HDR, TXT, [CMAP], DAT, DAT, END, PNG's chunk layout. */
static void ci_file(mk_buf_t *m, int cmap)
{
    static const uint8_t hdr[8] = {0, 0, 0, 16, 0, 0, 0, 8};
    uint8_t map[51], px[16];
    for (size_t i = 0; i < sizeof map; i++)
        map[i] = (uint8_t)(i * 5);
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i & 3);
    put_str(m, "\x89GBI\r\n\x1a\n");
    png_chunk(m, "HDR ", hdr, sizeof hdr);
    png_chunk(m, "TXT ", (const uint8_t *)"made by mkinputs", 16);
    if (cmap)
        png_chunk(m, "CMAP", map, sizeof map); /* 17 entries: the map holds 16 */
    png_chunk(m, "DAT ", px, sizeof px);
    png_chunk(m, "DAT ", px, sizeof px);
    png_chunk(m, "END ", NULL, 0);
}

static void gen_chunk_crc_insert(void)
{
    mk_buf_t m = {0};
    ci_file(&m, 0);
    mk_seed("chunk_crc_insert", "five_chunks", &m);
    m.n = 0;
    ci_file(&m, 1);
    mk_crash("chunk_crc_insert", &m);
}

static void gen_token_repeat(void)
{
    mk_buf_t m = {0};
    put_str(&m, "hello world\nthese are plain words\n");
    mk_seed("token_repeat", "words", &m);
    m.n = 0;
    put_str(&m, "BEGIN ITEM ITEM ITEM ITEM ITEM END\n");
    mk_crash("token_repeat", &m);
}

/* base64 of whole 3-byte groups (n a multiple of 3), a newline after every 60. */
static void put_b64(mk_buf_t *m, const uint8_t *p, size_t n)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        for (int k = 3; k >= 0; k--)
            put8(m, (unsigned char)a[(v >> (6 * k)) & 63]);
        if ((i / 3 + 1) % 15 == 0)
            put8(m, '\n');
    }
}

static void gen_base64_magic(void)
{
    mk_buf_t m = {0};
    put_b64(&m, (const uint8_t *)"PLAIN RECORD, NOT A GBX ONE.", 27);
    mk_seed("base64_magic", "text", &m);
    m.n = 0;
    put_b64(&m,
            (const uint8_t *)"GBX1\x0c"
                             "abcdefghij",
            15); /* 12 entries, 8 slots */
    mk_crash("base64_magic", &m);
}

static void put_hex(mk_buf_t *m, const uint8_t *p, size_t n)
{
    static const char h[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        put8(m, (unsigned char)h[p[i] >> 4]);
        put8(m, (unsigned char)h[p[i] & 15]);
    }
}

static void gen_hex_table(void)
{
    uint8_t rec[43] = {0x00, 0x10, 0x04, 1, 2, 3, 4};
    mk_buf_t m = {0};
    put8(&m, ':');
    put_hex(&m, rec, 7);
    put8(&m, '\n');
    mk_seed("hex_table", "data_record", &m);
    rec[0] = 0x5a;
    rec[1] = 0x17;
    rec[2] = 40; /* the buffer holds 32 */
    for (size_t i = 3; i < sizeof rec; i++)
        rec[i] = (uint8_t)i;
    m.n = 0;
    put8(&m, ':');
    put_hex(&m, rec, sizeof rec);
    put8(&m, '\n');
    mk_crash("hex_table", &m);
}

static void gen_strtod_window(void)
{
    mk_buf_t m = {0};
    put_str(&m, "scale=abcdefghijklmnopqrstuvwxyz;\n");
    mk_seed("strtod_window", "letters", &m);
    m.n = 0;
    put_str(&m, "scale=2.6;\n");
    mk_crash("strtod_window", &m);
}

static void gen_mul128_high(void)
{
    mk_buf_t m = {0};
    put_str(&m, "RECS");
    put_le(&m, 16, 8);
    put_le(&m, 16, 8);
    mk_seed("mul128_high", "small", &m);
    m.n = 0;
    put_str(&m, "RECS");
    put_le(&m, 0x8000000000000001ull, 8); /* times 2: 2^64 + 2 */
    put_le(&m, 2, 8);
    mk_crash("mul128_high", &m);
}

static void gen_mul_overflow(void)
{
    mk_buf_t m = {0};
    put_str(&m, "TBL");
    put8(&m, 1);
    put_be(&m, 16, 4);
    put_be(&m, 256, 2); /* 4096: page-aligned */
    mk_seed("mul_overflow", "aligned", &m);
    m.n = 0;
    put_str(&m, "TBL");
    put8(&m, 1);
    put_be(&m, 3, 4);
    put_be(&m, 48, 2); /* 144 */
    mk_crash("mul_overflow", &m);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mkinputs OUT_DIR\n");
        return 2;
    }
    mk_out = argv[1];
    mk_mkdir(mk_out);
    gen_magic64();
    gen_magic_bytes();
    gen_crc32_table();
    gen_crc32_bitwise();
    gen_adler32();
    gen_name_length();
    gen_nested_tlv();
    gen_strcmp_keyword();
    gen_range32();
    gen_tag_switch();
    gen_strtol_size();
    gen_sscanf_hex();
    gen_be64_key();
    gen_repeat_record();
    gen_count_match();
    gen_insert_chunk();
    gen_chunk_crc_insert();
    gen_token_repeat();
    gen_base64_magic();
    gen_hex_table();
    gen_strtod_window();
    gen_mul128_high();
    gen_mul_overflow();
    return 0;
}
