/*
 * linecomp_test: checks the C library against the Go codecs.
 *
 *     linecomp_test EXPECT DATA
 *
 * EXPECT is written by the Go test (capi_test.go, writeExpect) from the Go
 * codecs on DATA; this program recomputes everything through linecomp.h
 * and compares:
 *
 *   - the registry: every codec's name, algorithm, paper, variant, line
 *     sizes, tag bits, latency, trainability and encodings;
 *   - for every codec at every line size (and SC² trained on the first
 *     lines): on every line of DATA, the size, the batch size, the stream
 *     bytes and bit count (as one FNV-1a digest), the encoding, and the
 *     round trip;
 *   - garbage: random streams and one-bit mutations of real streams, whose
 *     decode status and output must match Go's (only OK or CORRUPT);
 *   - bad arguments: NULL pointers, huge and wrong lengths, small buffers
 *     (nothing written past them), bad handles, unknown names;
 *   - threads: one handle shared by several threads gives the same bits,
 *     and each thread keeps its own last-error message;
 *   - guarded buffers: inputs and outputs that end just before, or start
 *     just after, a page the process may not touch (real lines, their
 *     streams cut at every length, all-ones streams, batches), with the
 *     same results as in ordinary memory. A read or write past a buffer
 *     faults, and the fault handler names the call before the process
 *     dies.
 *
 * It prints one line per failure and exits 1 if there was any.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "linecomp.h"

static int failures;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            failures++;                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
        }                                                                     \
    } while (0)

/* EXPECT_STATUS checks that call returns want, and that a failure left a
 * message naming the function. */
#define EXPECT_STATUS(call, want, fn)                                         \
    do {                                                                      \
        linecomp_status got_ = (call);                                        \
        CHECK(got_ == (want), "%s: got %s, want %s (%s)", #call,              \
              linecomp_status_name(got_), linecomp_status_name(want),         \
              linecomp_last_error());                                         \
        if (got_ != LINECOMP_OK && got_ == (want))                            \
            CHECK(strncmp(linecomp_last_error(), fn ":",                      \
                          strlen(fn ":")) == 0,                               \
                  "%s: message does not name %s: %s", #call, fn,              \
                  linecomp_last_error());                                     \
    } while (0)

/* ---- FNV-1a 64 and splitmix64, the same as the Go side ---------------- */

typedef uint64_t digest;
#define DIGEST_INIT UINT64_C(14695981039346656037)

static digest fnv(digest h, const uint8_t *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

static digest fnv_u32(digest h, uint32_t v) {
    uint8_t b[4];
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
    return fnv(h, b, 4);
}

static digest fnv_str(const char *s) {
    return fnv(DIGEST_INIT, (const uint8_t *)s, strlen(s));
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void fill_random(uint64_t *state, uint8_t *p, size_t n) {
    size_t j;
    uint64_t w = 0;
    for (j = 0; j < n; j++) {
        if (j % 8 == 0)
            w = splitmix(state);
        p[j] = (uint8_t)(w >> (8 * (j % 8)));
    }
}

/* ---- input ------------------------------------------------------------- */

static uint8_t *data;
static size_t data_len;

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void read_data(const char *path) {
    FILE *f = fopen(path, "rb");
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    data_len = (size_t)n;
    data = xmalloc(data_len);
    if (fread(data, 1, data_len, f) != data_len) {
        fprintf(stderr, "short read of %s\n", path);
        exit(2);
    }
    fclose(f);
}

static FILE *expect;

static void want_word(const char *word) {
    char buf[64];
    if (fscanf(expect, "%63s", buf) != 1 || strcmp(buf, word) != 0) {
        fprintf(stderr, "expect file: want %s\n", word);
        exit(2);
    }
}

static unsigned long long read_u64(void) {
    unsigned long long v;
    if (fscanf(expect, "%llu", &v) != 1) {
        fprintf(stderr, "expect file: want a number\n");
        exit(2);
    }
    return v;
}

static long read_i64(void) {
    long v;
    if (fscanf(expect, "%ld", &v) != 1) {
        fprintf(stderr, "expect file: want a number\n");
        exit(2);
    }
    return v;
}

static void read_word(char *buf, size_t cap) {
    char fmt[16];
    sprintf(fmt, "%%%us", (unsigned)(cap - 1));
    if (fscanf(expect, fmt, buf) != 1) {
        fprintf(stderr, "expect file: want a word\n");
        exit(2);
    }
}

/* ---- the registry ------------------------------------------------------ */

static void check_latency(const char *what, linecomp_latency got, long cc,
                          long dc, long ck, long dk) {
    CHECK(got.compress_cycles == cc && got.decompress_cycles == dc &&
              got.compress_known == ck && got.decompress_known == dk,
          "%s: latency %d/%d known %d/%d, want %ld/%ld known %ld/%ld", what,
          got.compress_cycles, got.decompress_cycles, got.compress_known,
          got.decompress_known, cc, dc, ck, dk);
    CHECK(got.compress_known || got.compress_cycles == LINECOMP_LATENCY_UNKNOWN,
          "%s: unknown compress latency is %d", what, got.compress_cycles);
    CHECK(got.decompress_known ||
              got.decompress_cycles == LINECOMP_LATENCY_UNKNOWN,
          "%s: unknown decompress latency is %d", what, got.decompress_cycles);
}

/* check_info reads one "info" record and compares it with the codec's
 * description from both linecomp_codec_info and linecomp_lookup. */
static void check_info(size_t index) {
    char name[256], algorithm[256], word[256];
    unsigned long long paper, variant, n, i;
    long cc, dc, ck, dk;
    linecomp_info a, b;

    want_word("info");
    read_word(name, sizeof name);
    read_word(algorithm, sizeof algorithm);
    paper = read_u64();
    variant = read_u64();

    EXPECT_STATUS(linecomp_codec_info(index, &a), LINECOMP_OK,
                  "linecomp_codec_info");
    EXPECT_STATUS(linecomp_lookup(name, &b), LINECOMP_OK, "linecomp_lookup");
    CHECK(memcmp(&a, &b, sizeof a) == 0,
          "%s: codec_info(%zu) and lookup differ", name, index);
    CHECK(strcmp(a.name, name) == 0, "codec %zu is %s, want %s", index,
          a.name, name);
    CHECK(strcmp(a.algorithm, algorithm) == 0, "%s: algorithm %s, want %s",
          name, a.algorithm, algorithm);
    CHECK(fnv_str(a.paper) == paper, "%s: paper differs: %s", name, a.paper);
    CHECK(fnv_str(a.variant) == variant, "%s: variant differs: %s", name,
          a.variant);

    n = read_u64();
    CHECK(a.line_size_count == n, "%s: %zu line sizes, want %llu", name,
          a.line_size_count, n);
    for (i = 0; i < n; i++) {
        unsigned long long s = read_u64();
        CHECK(i < a.line_size_count && a.line_sizes[i] == s,
              "%s: line size %llu differs (want %llu)", name, i, s);
    }
    for (i = 0; i < n; i++) {
        long t = read_i64();
        CHECK(i < a.line_size_count && a.tag_bits[i] == t,
              "%s: tag bits %llu differ (want %ld)", name, i, t);
    }
    cc = read_i64();
    dc = read_i64();
    ck = read_i64();
    dk = read_i64();
    check_latency(name, a.latency, cc, dc, ck, dk);
    CHECK(a.trainable == read_i64(), "%s: trainable %d differs", name,
          a.trainable);
    n = read_u64();
    CHECK(a.encoding_count == n, "%s: %zu encodings, want %llu", name,
          a.encoding_count, n);
    for (i = 0; i < n; i++) {
        read_word(word, sizeof word);
        CHECK(i < a.encoding_count && strcmp(a.encodings[i], word) == 0,
              "%s: encoding %llu differs (want %s)", name, i, word);
    }
}

/* ---- one configuration ------------------------------------------------- */

/* decode_digest folds the outcome of decompressing and classifying the
 * stream enc into h: a status byte (0 OK, 1 CORRUPT) and, on success, the
 * line or the encoding number. Any other status is a failure. */
static digest decode_digest(digest h, linecomp_codec c, const char *what,
                            const uint8_t *enc, size_t enc_len,
                            size_t line_size, int has_encodings) {
    uint8_t *out = xmalloc(line_size + 1);
    size_t out_len = 12345, index = 12345;
    uint8_t status;
    linecomp_status st;

    out[line_size] = 0xA5; /* canary: nothing may be written past the line */
    st = linecomp_decompress(c, enc, enc_len, out, line_size, &out_len);
    CHECK(st == LINECOMP_OK || st == LINECOMP_ERR_CORRUPT,
          "%s: decompress of garbage gave %s (%s)", what,
          linecomp_status_name(st), linecomp_last_error());
    CHECK(out[line_size] == 0xA5, "%s: decompress wrote past the line", what);
    status = st == LINECOMP_OK ? 0 : 1;
    h = fnv(h, &status, 1);
    if (st == LINECOMP_OK) {
        CHECK(out_len == line_size, "%s: out_len %zu", what, out_len);
        h = fnv(h, out, line_size);
    } else {
        CHECK(out_len == 12345, "%s: out_len changed on error", what);
    }
    if (has_encodings) {
        st = linecomp_encoding_of(c, enc, enc_len, &index);
        CHECK(st == LINECOMP_OK || st == LINECOMP_ERR_CORRUPT,
              "%s: encoding_of of garbage gave %s (%s)", what,
              linecomp_status_name(st), linecomp_last_error());
        status = st == LINECOMP_OK ? 0 : 1;
        h = fnv(h, &status, 1);
        if (st == LINECOMP_OK)
            h = fnv_u32(h, (uint32_t)index);
    }
    free(out);
    return h;
}

/* compress_all compresses every line of data with c and returns the digest
 * of bit counts and streams (used by the thread test too). */
static digest compress_all(linecomp_codec c, size_t ls, int *ok) {
    size_t i, n = data_len / ls, enc_len;
    uint8_t *enc = xmalloc(LINECOMP_MAX_COMPRESSED_BYTES(ls));
    digest h = DIGEST_INIT;
    int bits;
    *ok = 1;
    for (i = 0; i < n; i++) {
        if (linecomp_compress(c, data + i * ls, ls, enc,
                              LINECOMP_MAX_COMPRESSED_BYTES(ls), &enc_len,
                              &bits) != LINECOMP_OK) {
            *ok = 0;
            break;
        }
        h = fnv_u32(h, (uint32_t)bits);
        h = fnv(h, enc, enc_len);
    }
    free(enc);
    return h;
}

struct shared_job {
    linecomp_codec codec;
    size_t line_size;
    digest got;
    int ok;
};

static void *shared_worker(void *arg) {
    struct shared_job *job = arg;
    job->got = compress_all(job->codec, job->line_size, &job->ok);
    return NULL;
}

/* ---- guarded buffers ---------------------------------------------------- */

/* A guarded region is usable pages between two pages mapped without
 * access, so that the byte after guard_tail(r, n)'s n bytes, and the byte
 * before guard_head(r, n), fault when touched. guard_op names the call
 * under test for the fault handler. */
struct guarded {
    uint8_t *start; /* the first usable byte */
    size_t size;    /* usable bytes, whole pages */
};

static char guard_op[400];

/* guard_set names the call about to run for the fault handler: the
 * configuration and the call, or nothing when op is empty. */
static void guard_set(const char *what, const char *op) {
    if (*op)
        snprintf(guard_op, sizeof guard_op, "%s: %s", what, op);
    else
        guard_op[0] = 0;
}

static void on_fault(int sig) {
    static const char msg[] = "FAIL guarded buffers: memory fault in ";
    /* only async-signal-safe calls: write, signal, raise */
    if (write(2, msg, sizeof msg - 1) < 0 ||
        write(2, guard_op, strlen(guard_op)) < 0 || write(2, "\n", 1) < 0) {
        /* nothing more can be reported */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* guard_new maps a guarded region of at least size usable bytes. */
static struct guarded guard_new(size_t size) {
    struct guarded r;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (size + page - 1) / page;
    int fd = open("/dev/zero", O_RDWR);
    uint8_t *p;
    if (fd < 0) {
        fprintf(stderr, "cannot open /dev/zero\n");
        exit(2);
    }
    p = mmap(NULL, (pages + 2) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE,
             fd, 0);
    close(fd);
    if (p == MAP_FAILED || mprotect(p, page, PROT_NONE) != 0 ||
        mprotect(p + (pages + 1) * page, page, PROT_NONE) != 0) {
        fprintf(stderr, "cannot map guarded pages\n");
        exit(2);
    }
    r.start = p + page;
    r.size = pages * page;
    return r;
}

static void guard_free(struct guarded r) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    munmap(r.start - page, r.size + 2 * page);
}

/* guard_fit stops the program if r has no room for n bytes. */
static void guard_fit(struct guarded r, size_t n) {
    if (n > r.size) {
        fprintf(stderr, "guarded region too small for %zu bytes\n", n);
        exit(2);
    }
}

/* guard_tail returns room for n bytes that ends at r's last usable byte. */
static uint8_t *guard_tail(struct guarded r, size_t n) {
    guard_fit(r, n);
    return r.start + r.size - n;
}

/* guard_head returns room for n bytes that starts at r's first usable
 * byte. */
static uint8_t *guard_head(struct guarded r, size_t n) {
    guard_fit(r, n);
    return r.start;
}

static struct guarded guard_in, guard_out;

/* guarded_decode decodes the len bytes of enc, copied to the end (tail)
 * or the start of the input region, into a line at the end of the output
 * region, and checks status, output and encoding against the same calls
 * on ordinary memory. */
static void guarded_decode(linecomp_codec c, const char *what, size_t ls,
                           const uint8_t *enc, size_t len, int tail,
                           int has_encodings) {
    uint8_t *heap_out = xmalloc(ls), *heap_enc = xmalloc(len);
    uint8_t *in = tail ? guard_tail(guard_in, len) : guard_head(guard_in, len);
    uint8_t *out = guard_tail(guard_out, ls);
    size_t heap_len = 0, got_len = 0, heap_index = 0, got_index = 0;
    linecomp_status heap_st, got_st;

    memcpy(heap_enc, enc, len);
    memcpy(in, enc, len);
    heap_st = linecomp_decompress(c, heap_enc, len, heap_out, ls, &heap_len);
    guard_set(what, "linecomp_decompress");
    got_st = linecomp_decompress(c, in, len, out, ls, &got_len);
    CHECK(got_st == heap_st &&
              (got_st != LINECOMP_OK ||
               (got_len == heap_len && memcmp(out, heap_out, ls) == 0)),
          "%s: guarded decompress of %zu bytes (%s) gave %s, in ordinary "
          "memory %s",
          what, len, tail ? "at a page's end" : "at a page's start",
          linecomp_status_name(got_st), linecomp_status_name(heap_st));
    guard_set(what, "linecomp_decompress into a short buffer");
    if (ls > 0) {
        out = guard_tail(guard_out, ls - 1);
        got_st = linecomp_decompress(c, in, len, out, ls - 1, &got_len);
        CHECK(got_st == LINECOMP_ERR_BUFFER_TOO_SMALL && got_len == ls,
              "%s: guarded decompress into %zu bytes gave %s", what, ls - 1,
              linecomp_status_name(got_st));
    }
    if (has_encodings) {
        heap_st = linecomp_encoding_of(c, heap_enc, len, &heap_index);
        guard_set(what, "linecomp_encoding_of");
        got_st = linecomp_encoding_of(c, in, len, &got_index);
        CHECK(got_st == heap_st &&
                  (got_st != LINECOMP_OK || got_index == heap_index),
              "%s: guarded encoding_of of %zu bytes gave %s, in ordinary "
              "memory %s",
              what, len, linecomp_status_name(got_st),
              linecomp_status_name(heap_st));
    }
    guard_set(what, "");
    free(heap_out);
    free(heap_enc);
}

/* check_guarded runs the codec's calls on buffers against guard pages:
 * the first lines of data, their streams whole and cut at every length,
 * all-ones streams of 1 to 2·ls + 2 bytes, and one batch of lines. */
static void check_guarded(linecomp_codec c, const char *what, size_t ls,
                          size_t n, const int *batch, int has_encodings) {
    size_t max = LINECOMP_MAX_COMPRESSED_BYTES(ls);
    size_t i, cut, lines = n < 32 ? n : 32, enc_len, got_len, got_n;
    /* the largest of a batch, an all-ones stream and a stream */
    size_t room = lines * ls > 2 * ls + 2 ? lines * ls : 2 * ls + 2;
    uint8_t *enc = xmalloc(max), *ones = xmalloc(2 * ls + 2);
    uint8_t *line, *out;
    int bits, got_bits, *got_batch;
    linecomp_status st;

    if (max > room)
        room = max;
    guard_in = guard_new(room);
    guard_out = guard_new(room);

    for (i = 0; i < lines; i++) {
        if (linecomp_compress(c, data + i * ls, ls, enc, max, &enc_len,
                              &bits) != LINECOMP_OK) {
            CHECK(0, "%s line %zu: compress: %s", what, i,
                  linecomp_last_error());
            break;
        }
        /* the line at a page's end, then at a page's start */
        for (int tail = 1; tail >= 0; tail--) {
            line = tail ? guard_tail(guard_in, ls) : guard_head(guard_in, ls);
            memcpy(line, data + i * ls, ls);
            guard_set(what, "linecomp_size");
            st = linecomp_size(c, line, ls, &got_bits);
            CHECK(st == LINECOMP_OK && got_bits == bits,
                  "%s line %zu: guarded size %s, %d bits (want %d)", what, i,
                  linecomp_status_name(st), got_bits, bits);
            /* into exactly enough room at a page's end and at its start,
             * then into one byte too few */
            guard_set(what, "linecomp_compress");
            out = guard_tail(guard_out, enc_len);
            st = linecomp_compress(c, line, ls, out, enc_len, &got_len,
                                   &got_bits);
            CHECK(st == LINECOMP_OK && got_len == enc_len &&
                      got_bits == bits && memcmp(out, enc, enc_len) == 0,
                  "%s line %zu: guarded compress (room at a page's end) "
                  "gave %s",
                  what, i, linecomp_status_name(st));
            out = guard_head(guard_out, enc_len);
            st = linecomp_compress(c, line, ls, out, enc_len, &got_len,
                                   &got_bits);
            CHECK(st == LINECOMP_OK && got_len == enc_len &&
                      memcmp(out, enc, enc_len) == 0,
                  "%s line %zu: guarded compress (room at a page's start) "
                  "gave %s",
                  what, i, linecomp_status_name(st));
            if (enc_len > 0) {
                out = guard_tail(guard_out, enc_len - 1);
                st = linecomp_compress(c, line, ls, out, enc_len - 1,
                                       &got_len, &got_bits);
                CHECK(st == LINECOMP_ERR_BUFFER_TOO_SMALL &&
                          got_len == enc_len,
                      "%s line %zu: guarded compress into %zu bytes gave "
                      "%s, needing %zu",
                      what, i, enc_len - 1, linecomp_status_name(st),
                      got_len);
            }
            guard_set(what, "");
        }
        /* the stream whole and cut at every length, at both ends */
        for (cut = 0; cut <= enc_len; cut++) {
            guarded_decode(c, what, ls, enc, cut, 1, has_encodings);
            guarded_decode(c, what, ls, enc, cut, 0, has_encodings);
        }
    }
    /* all-ones streams, which some decoders walk to their end */
    memset(ones, 0xFF, 2 * ls + 2);
    for (cut = 1; cut <= 2 * ls + 2; cut++)
        guarded_decode(c, what, ls, ones, cut, 1, has_encodings);

    /* a batch of lines ending at a page's end, into bits that do too */
    if (lines > 0) {
        line = guard_tail(guard_in, lines * ls);
        memcpy(line, data, lines * ls);
        got_batch = (int *)(void *)guard_tail(guard_out, lines * sizeof *batch);
        guard_set(what, "linecomp_sizes");
        st = linecomp_sizes(c, line, lines * ls, got_batch, lines, &got_n);
        CHECK(st == LINECOMP_OK && got_n == lines &&
                  memcmp(got_batch, batch, lines * sizeof *batch) == 0,
              "%s: guarded sizes of %zu lines gave %s", what, lines,
              linecomp_status_name(st));
        guard_set(what, "");
    }
    guard_free(guard_in);
    guard_free(guard_out);
    free(enc);
    free(ones);
}

/* check_config reads one "config" record and checks that codec on data. */
static void check_config(void) {
    char name[256], what[300], word[256];
    unsigned long long ls, train, nlines, want_total, want_streams;
    unsigned long long want_encs, seed, ngarbage, want_garbage, nmut, want_mut;
    long want_tag, want_gives, cc, dc, ck, dk;
    linecomp_codec c, trained;
    linecomp_latency lat;
    linecomp_encoding e;
    const char *got_name;
    size_t got_ls, i, n, enc_len, nenc = 0, out_len, batch_n;
    int tag_bits, bits, sbits, gives, has_encodings;
    unsigned long long total = 0, k;
    digest streams = DIGEST_INIT, encs = DIGEST_INIT, garbage = DIGEST_INIT;
    digest mut = DIGEST_INIT;
    uint8_t *enc, *out, *buf;
    int *batch;
    uint64_t rng;

    read_word(name, sizeof name);
    ls = read_u64();
    train = read_u64();
    sprintf(what, "%s/%llu%s", name, ls, train ? "/trained" : "");

    if (linecomp_new(name, (size_t)ls, &c) != LINECOMP_OK) {
        CHECK(0, "%s: linecomp_new: %s", what, linecomp_last_error());
        exit(1); /* the rest of the record cannot be checked */
    }
    if (train) {
        for (k = 0; k < train; k++)
            EXPECT_STATUS(linecomp_observe(c, data + k * ls, (size_t)ls),
                          LINECOMP_OK, "linecomp_observe");
        EXPECT_STATUS(linecomp_rebuild(c, &trained), LINECOMP_OK,
                      "linecomp_rebuild");
        CHECK(trained != c && trained != LINECOMP_NO_CODEC,
              "%s: rebuild returned handle %llu", what,
              (unsigned long long)trained);
        EXPECT_STATUS(linecomp_free(c), LINECOMP_OK, "linecomp_free");
        c = trained;
    }

    EXPECT_STATUS(linecomp_name(c, &got_name), LINECOMP_OK, "linecomp_name");
    CHECK(strcmp(got_name, name) == 0, "%s: name %s", what, got_name);
    EXPECT_STATUS(linecomp_line_size(c, &got_ls), LINECOMP_OK,
                  "linecomp_line_size");
    CHECK(got_ls == ls, "%s: line size %zu", what, got_ls);
    want_tag = read_i64();
    EXPECT_STATUS(linecomp_tag_bits(c, &tag_bits), LINECOMP_OK,
                  "linecomp_tag_bits");
    CHECK(tag_bits == want_tag, "%s: tag bits %d, want %ld", what, tag_bits,
          want_tag);
    cc = read_i64();
    dc = read_i64();
    ck = read_i64();
    dk = read_i64();
    EXPECT_STATUS(linecomp_codec_latency(c, &lat), LINECOMP_OK,
                  "linecomp_codec_latency");
    check_latency(what, lat, cc, dc, ck, dk);
    want_gives = read_i64();
    EXPECT_STATUS(linecomp_tag_gives_size(c, &gives), LINECOMP_OK,
                  "linecomp_tag_gives_size");
    CHECK(gives == want_gives, "%s: tag_gives_size %d", what, gives);

    /* encodings: count, then name:bits for each */
    has_encodings = (int)read_i64();
    if (has_encodings) {
        unsigned long long want_n = read_u64();
        EXPECT_STATUS(linecomp_encoding_count(c, &nenc), LINECOMP_OK,
                      "linecomp_encoding_count");
        CHECK(nenc == want_n, "%s: %zu encodings, want %llu", what, nenc,
              want_n);
        for (k = 0; k < want_n; k++) {
            long want_bits;
            read_word(word, sizeof word);
            want_bits = read_i64();
            if (linecomp_encoding_info(c, (size_t)k, &e) == LINECOMP_OK)
                CHECK(strcmp(e.name, word) == 0 && e.bits == want_bits,
                      "%s: encoding %llu is %s/%d, want %s/%ld", what, k,
                      e.name, e.bits, word, want_bits);
            else
                CHECK(0, "%s: encoding_info %llu: %s", what, k,
                      linecomp_last_error());
        }
        EXPECT_STATUS(linecomp_encoding_info(c, nenc, &e),
                      LINECOMP_ERR_ARGUMENT, "linecomp_encoding_info");
    } else {
        EXPECT_STATUS(linecomp_encoding_count(c, &nenc),
                      LINECOMP_ERR_NOT_SUPPORTED, "linecomp_encoding_count");
    }

    nlines = read_u64();
    want_total = read_u64();
    want_streams = read_u64();
    want_encs = read_u64();
    n = data_len / ls;
    CHECK(n == nlines, "%s: %zu lines, want %llu", what, n, nlines);

    /* the batch call over all whole lines */
    batch = xmalloc(n * sizeof *batch);
    EXPECT_STATUS(linecomp_sizes(c, data, n * ls, batch, n, &batch_n),
                  LINECOMP_OK, "linecomp_sizes");
    CHECK(batch_n == n, "%s: sizes gave %zu lines", what, batch_n);

    enc = xmalloc(LINECOMP_MAX_COMPRESSED_BYTES(ls) + 1);
    out = xmalloc(ls + 1);
    for (i = 0; i < n; i++) {
        const uint8_t *line = data + i * ls;
        size_t index;
        enc[LINECOMP_MAX_COMPRESSED_BYTES(ls)] = 0x5A;
        if (linecomp_compress(c, line, ls, enc,
                              LINECOMP_MAX_COMPRESSED_BYTES(ls), &enc_len,
                              &bits) != LINECOMP_OK) {
            CHECK(0, "%s line %zu: compress: %s", what, i,
                  linecomp_last_error());
            break;
        }
        CHECK(enc[LINECOMP_MAX_COMPRESSED_BYTES(ls)] == 0x5A,
              "%s: compress wrote past out_cap", what);
        CHECK(enc_len == (size_t)(bits + 7) / 8,
              "%s line %zu: %zu bytes for %d bits", what, i, enc_len, bits);
        CHECK(bits >= tag_bits, "%s line %zu: %d bits < tag bits", what, i,
              bits);
        EXPECT_STATUS(linecomp_size(c, line, ls, &sbits), LINECOMP_OK,
                      "linecomp_size");
        CHECK(sbits == bits, "%s line %zu: size %d, compress %d", what, i,
              sbits, bits);
        CHECK(batch[i] == bits, "%s line %zu: batch size %d, compress %d",
              what, i, batch[i], bits);
        total += (unsigned long long)bits;
        streams = fnv_u32(streams, (uint32_t)bits);
        streams = fnv(streams, enc, enc_len);
        if (has_encodings) {
            if (linecomp_encoding_of(c, enc, enc_len, &index) == LINECOMP_OK) {
                CHECK(index < nenc, "%s: encoding %zu", what, index);
                encs = fnv_u32(encs, (uint32_t)index);
            } else {
                CHECK(0, "%s line %zu: encoding_of: %s", what, i,
                      linecomp_last_error());
            }
        }
        out[ls] = 0xC3;
        if (linecomp_decompress(c, enc, enc_len, out, ls, &out_len) !=
            LINECOMP_OK) {
            CHECK(0, "%s line %zu: decompress: %s", what, i,
                  linecomp_last_error());
            continue;
        }
        CHECK(out_len == ls && memcmp(out, line, ls) == 0 && out[ls] == 0xC3,
              "%s line %zu: round trip differs", what, i);
        /* a buffer one byte short is refused, says what it needs, and is
         * not written past */
        if (i < 8 && enc_len > 0) {
            size_t need = 0;
            int b2 = -7;
            memset(enc, 0xEE, enc_len);
            EXPECT_STATUS(linecomp_compress(c, line, ls, enc, enc_len - 1,
                                            &need, &b2),
                          LINECOMP_ERR_BUFFER_TOO_SMALL, "linecomp_compress");
            CHECK(need == enc_len && b2 == -7,
                  "%s: short buffer: need %zu (want %zu), bits %d", what,
                  need, enc_len, b2);
            CHECK(enc[enc_len - 1] == 0xEE,
                  "%s: compress wrote past a short out_cap", what);
        }
    }
    CHECK(total == want_total, "%s: %llu bits in all, Go has %llu", what,
          total, want_total);
    CHECK(streams == want_streams,
          "%s: streams differ from Go's (digest %016llx, want %016llx)", what,
          (unsigned long long)streams, want_streams);
    CHECK(!has_encodings || encs == want_encs,
          "%s: encodings differ from Go's", what);

    /* garbage: random streams of 0 to MAX_COMPRESSED_BYTES bytes */
    seed = read_u64();
    ngarbage = read_u64();
    want_garbage = read_u64();
    rng = seed;
    buf = xmalloc(LINECOMP_MAX_COMPRESSED_BYTES(ls) + 1);
    for (k = 0; k < ngarbage; k++) {
        size_t len = (size_t)(splitmix(&rng) %
                              (LINECOMP_MAX_COMPRESSED_BYTES(ls) + 1));
        fill_random(&rng, buf, len);
        garbage = decode_digest(garbage, c, what, buf, len, (size_t)ls,
                                has_encodings);
    }
    CHECK(garbage == want_garbage,
          "%s: garbage decoding differs from Go's", what);

    /* mutations: one bit of a real stream flipped */
    nmut = read_u64();
    want_mut = read_u64();
    for (k = 0; k < nmut && k < n; k++) {
        uint64_t pos;
        linecomp_compress(c, data + k * ls, ls, buf,
                          LINECOMP_MAX_COMPRESSED_BYTES(ls), &enc_len, &bits);
        if (enc_len == 0)
            continue;
        pos = splitmix(&rng) % (8 * enc_len);
        buf[pos / 8] ^= (uint8_t)(0x80 >> (pos % 8));
        mut = decode_digest(mut, c, what, buf, enc_len, (size_t)ls,
                            has_encodings);
    }
    CHECK(mut == want_mut, "%s: decoding of mutated streams differs", what);

    check_guarded(c, what, (size_t)ls, n, batch, has_encodings);

    /* one handle shared by four threads gives the same bits */
    if (strcmp(name, "bdi") == 0 || strcmp(name, "fpc") == 0 ||
        strcmp(name, "sc2") == 0 || strcmp(name, "tavana-best") == 0) {
        pthread_t th[4];
        struct shared_job jobs[4];
        int t;
        for (t = 0; t < 4; t++) {
            jobs[t].codec = c;
            jobs[t].line_size = (size_t)ls;
            CHECK(pthread_create(&th[t], NULL, shared_worker, &jobs[t]) == 0,
                  "pthread_create");
        }
        for (t = 0; t < 4; t++) {
            pthread_join(th[t], NULL);
            CHECK(jobs[t].ok && jobs[t].got == want_streams,
                  "%s: thread %d got other streams", what, t);
        }
    }

    EXPECT_STATUS(linecomp_free(c), LINECOMP_OK, "linecomp_free");
    EXPECT_STATUS(linecomp_free(c), LINECOMP_ERR_HANDLE, "linecomp_free");
    EXPECT_STATUS(linecomp_size(c, data, ls, &bits), LINECOMP_ERR_HANDLE,
                  "linecomp_size");
    free(batch);
    free(enc);
    free(out);
    free(buf);
}

/* ---- bad arguments ------------------------------------------------------ */

static void check_bad_arguments(void) {
    linecomp_codec c, bad;
    linecomp_info info;
    linecomp_latency lat;
    linecomp_encoding e;
    uint8_t line[64], enc[LINECOMP_MAX_COMPRESSED_BYTES(64)], out[65];
    char longname[300];
    const char *s;
    size_t n, m;
    int bits, tb, bv[4];
    const size_t huge = (size_t)-1;

    memset(line, 0, sizeof line);
    memset(longname, 'a', sizeof longname);

    EXPECT_STATUS(linecomp_new(NULL, 64, &c), LINECOMP_ERR_ARGUMENT,
                  "linecomp_new");
    EXPECT_STATUS(linecomp_new("bdi", 64, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_new");
    EXPECT_STATUS(linecomp_new("no-such-codec", 64, &c),
                  LINECOMP_ERR_UNKNOWN_CODEC, "linecomp_new");
    CHECK(strstr(linecomp_last_error(), "no-such-codec") &&
              strstr(linecomp_last_error(), "bdi"),
          "unknown codec message should name it and the registered ones: %s",
          linecomp_last_error());
    EXPECT_STATUS(linecomp_new("bdi", 63, &c), LINECOMP_ERR_LINE_SIZE,
                  "linecomp_new");
    CHECK(strstr(linecomp_last_error(), "128") != NULL,
          "line size message should list the sizes: %s",
          linecomp_last_error());
    EXPECT_STATUS(linecomp_new("bdi", 0, &c), LINECOMP_ERR_LINE_SIZE,
                  "linecomp_new");
    EXPECT_STATUS(linecomp_new("bdi", huge, &c), LINECOMP_ERR_ARGUMENT,
                  "linecomp_new");
    /* 300 bytes and no NUL: must stop reading at 256 */
    EXPECT_STATUS(linecomp_new(longname, 64, &c), LINECOMP_ERR_ARGUMENT,
                  "linecomp_new");
    longname[255] = '\0';
    EXPECT_STATUS(linecomp_new(longname, 64, &c), LINECOMP_ERR_UNKNOWN_CODEC,
                  "linecomp_new");
    EXPECT_STATUS(linecomp_new("", 64, &c), LINECOMP_ERR_UNKNOWN_CODEC,
                  "linecomp_new");

    EXPECT_STATUS(linecomp_codec_count(NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_codec_count");
    EXPECT_STATUS(linecomp_codec_count(&n), LINECOMP_OK,
                  "linecomp_codec_count");
    EXPECT_STATUS(linecomp_codec_info(n, &info), LINECOMP_ERR_ARGUMENT,
                  "linecomp_codec_info");
    EXPECT_STATUS(linecomp_codec_info(huge, &info), LINECOMP_ERR_ARGUMENT,
                  "linecomp_codec_info");
    EXPECT_STATUS(linecomp_codec_info(0, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_codec_info");
    EXPECT_STATUS(linecomp_lookup(NULL, &info), LINECOMP_ERR_ARGUMENT,
                  "linecomp_lookup");
    EXPECT_STATUS(linecomp_lookup("bdi", NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_lookup");
    EXPECT_STATUS(linecomp_lookup("BDI", &info), LINECOMP_ERR_UNKNOWN_CODEC,
                  "linecomp_lookup");

    /* handles that are not live */
    EXPECT_STATUS(linecomp_size(LINECOMP_NO_CODEC, line, 64, &bits),
                  LINECOMP_ERR_HANDLE, "linecomp_size");
    EXPECT_STATUS(linecomp_free(LINECOMP_NO_CODEC), LINECOMP_ERR_HANDLE,
                  "linecomp_free");
    EXPECT_STATUS(linecomp_free((linecomp_codec)UINT64_C(0xDEADBEEF12345)),
                  LINECOMP_ERR_HANDLE, "linecomp_free");
    EXPECT_STATUS(linecomp_tag_bits(UINT64_MAX, &tb), LINECOMP_ERR_HANDLE,
                  "linecomp_tag_bits");

    if (linecomp_new("bdi", 64, &c) != LINECOMP_OK) {
        CHECK(0, "linecomp_new(bdi, 64): %s", linecomp_last_error());
        return;
    }
    /* getters */
    EXPECT_STATUS(linecomp_name(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_name");
    EXPECT_STATUS(linecomp_line_size(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_line_size");
    EXPECT_STATUS(linecomp_tag_bits(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_tag_bits");
    EXPECT_STATUS(linecomp_codec_latency(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_codec_latency");
    EXPECT_STATUS(linecomp_codec_latency(c, &lat), LINECOMP_OK,
                  "linecomp_codec_latency");
    EXPECT_STATUS(linecomp_tag_gives_size(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_tag_gives_size");
    EXPECT_STATUS(linecomp_encoding_count(c, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_encoding_count");
    EXPECT_STATUS(linecomp_encoding_info(c, 0, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_encoding_info");
    EXPECT_STATUS(linecomp_encoding_info(c, huge, &e), LINECOMP_ERR_ARGUMENT,
                  "linecomp_encoding_info");

    /* size */
    EXPECT_STATUS(linecomp_size(c, NULL, 64, &bits), LINECOMP_ERR_ARGUMENT,
                  "linecomp_size");
    EXPECT_STATUS(linecomp_size(c, NULL, 0, &bits), LINECOMP_ERR_LINE_SIZE,
                  "linecomp_size");
    EXPECT_STATUS(linecomp_size(c, line, 63, &bits), LINECOMP_ERR_LINE_SIZE,
                  "linecomp_size");
    EXPECT_STATUS(linecomp_size(c, line, huge, &bits), LINECOMP_ERR_ARGUMENT,
                  "linecomp_size");
    EXPECT_STATUS(linecomp_size(c, line, 64, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_size");

    /* compress */
    bits = -3;
    n = 777;
    EXPECT_STATUS(linecomp_compress(c, NULL, 64, enc, sizeof enc, &n, &bits),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, 65, enc, sizeof enc, &n, &bits),
                  LINECOMP_ERR_LINE_SIZE, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, huge, enc, sizeof enc, &n, &bits),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, 64, NULL, 8, &n, &bits),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, 64, enc, huge, &n, &bits),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, 64, enc, sizeof enc, NULL, &bits),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    EXPECT_STATUS(linecomp_compress(c, line, 64, enc, sizeof enc, &n, NULL),
                  LINECOMP_ERR_ARGUMENT, "linecomp_compress");
    CHECK(n == 777 && bits == -3, "failed compress changed out-parameters");
    /* a NULL buffer of capacity 0 asks for the size: the zero line is BDI's
     * "zeros" encoding, its 4 tag bits alone, in 1 byte */
    EXPECT_STATUS(linecomp_compress(c, line, 64, NULL, 0, &n, &bits),
                  LINECOMP_ERR_BUFFER_TOO_SMALL, "linecomp_compress");
    CHECK(n == 1 && bits == -3, "size query: need %zu bytes (want 1)", n);
    EXPECT_STATUS(linecomp_compress(c, line, 64, enc, sizeof enc, &n, &bits),
                  LINECOMP_OK, "linecomp_compress");
    CHECK(n == 1 && bits == 4, "zero line: %d bits in %zu bytes, want 4 in 1",
          bits, n);

    /* decompress */
    m = 999;
    EXPECT_STATUS(linecomp_decompress(c, NULL, 1, out, 64, &m),
                  LINECOMP_ERR_ARGUMENT, "linecomp_decompress");
    EXPECT_STATUS(linecomp_decompress(c, NULL, 0, out, 64, &m),
                  LINECOMP_ERR_CORRUPT, "linecomp_decompress");
    EXPECT_STATUS(linecomp_decompress(c, enc, huge, out, 64, &m),
                  LINECOMP_ERR_ARGUMENT, "linecomp_decompress");
    EXPECT_STATUS(linecomp_decompress(c, enc, n, out, 64, NULL),
                  LINECOMP_ERR_ARGUMENT, "linecomp_decompress");
    EXPECT_STATUS(linecomp_decompress(c, enc, n, NULL, 64, &m),
                  LINECOMP_ERR_ARGUMENT, "linecomp_decompress");
    EXPECT_STATUS(linecomp_decompress(c, enc, n, out, huge, &m),
                  LINECOMP_ERR_ARGUMENT, "linecomp_decompress");
    CHECK(m == 999, "failed decompress changed out_len");
    memset(out, 0x77, sizeof out);
    EXPECT_STATUS(linecomp_decompress(c, enc, n, out, 63, &m),
                  LINECOMP_ERR_BUFFER_TOO_SMALL, "linecomp_decompress");
    CHECK(m == 64, "short decompress buffer: out_len %zu, want 64", m);
    CHECK(out[0] == 0x77 && out[62] == 0x77 && out[63] == 0x77,
          "short decompress buffer was written");
    EXPECT_STATUS(linecomp_decompress(c, enc, n + 1, out, 64, &m),
                  LINECOMP_ERR_CORRUPT, "linecomp_decompress");
    CHECK(strstr(linecomp_last_error(), "bit") != NULL,
          "corrupt message should give the bit offset: %s",
          linecomp_last_error());
    out[64] = 0x11;
    EXPECT_STATUS(linecomp_decompress(c, enc, n, out, 64, &m), LINECOMP_OK,
                  "linecomp_decompress");
    CHECK(m == 64 && memcmp(out, line, 64) == 0 && out[64] == 0x11,
          "zero line round trip");
    /* in place: decompress over its own input */
    memcpy(out, enc, n);
    EXPECT_STATUS(linecomp_decompress(c, out, n, out, 64, &m), LINECOMP_OK,
                  "linecomp_decompress");
    CHECK(memcmp(out, line, 64) == 0, "in-place decompress");

    /* encoding_of */
    EXPECT_STATUS(linecomp_encoding_of(c, enc, n, NULL), LINECOMP_ERR_ARGUMENT,
                  "linecomp_encoding_of");
    EXPECT_STATUS(linecomp_encoding_of(c, NULL, 3, &m), LINECOMP_ERR_ARGUMENT,
                  "linecomp_encoding_of");
    EXPECT_STATUS(linecomp_encoding_of(c, NULL, 0, &m), LINECOMP_ERR_CORRUPT,
                  "linecomp_encoding_of");
    EXPECT_STATUS(linecomp_encoding_of(c, enc, n, &m), LINECOMP_OK,
                  "linecomp_encoding_of");
    EXPECT_STATUS(linecomp_encoding_info(c, m, &e), LINECOMP_OK,
                  "linecomp_encoding_info");
    CHECK(strcmp(e.name, "zeros") == 0 && e.bits == 4,
          "zero line's encoding is %s/%d, want zeros/4", e.name, e.bits);

    /* batch */
    {
        uint8_t two[128];
        memset(two, 0, sizeof two);
        two[64] = 1;
        EXPECT_STATUS(linecomp_sizes(c, two, 65, bv, 4, &n),
                      LINECOMP_ERR_PARTIAL_LINE, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, two, 128, bv, 1, &n),
                      LINECOMP_ERR_BUFFER_TOO_SMALL, "linecomp_sizes");
        CHECK(n == 2, "sizes: short bits array: n_lines %zu, want 2", n);
        EXPECT_STATUS(linecomp_sizes(c, two, 128, NULL, 4, &n),
                      LINECOMP_ERR_ARGUMENT, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, two, 128, bv, 4, NULL),
                      LINECOMP_ERR_ARGUMENT, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, NULL, 128, bv, 4, &n),
                      LINECOMP_ERR_ARGUMENT, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, two, huge, bv, 4, &n),
                      LINECOMP_ERR_ARGUMENT, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, two, 128, bv, huge, &n),
                      LINECOMP_ERR_ARGUMENT, "linecomp_sizes");
        EXPECT_STATUS(linecomp_sizes(c, NULL, 0, NULL, 0, &n), LINECOMP_OK,
                      "linecomp_sizes");
        CHECK(n == 0, "sizes of nothing: %zu lines", n);
        bv[2] = -9;
        EXPECT_STATUS(linecomp_sizes(c, two, 128, bv, 4, &n), LINECOMP_OK,
                      "linecomp_sizes");
        /* line 1 is the 8-byte word 1, then zeros: BDI's b8d1 on the zero
         * base, 4 tag + 8 mask + 64 base + 8 x 8 delta bits = 140 */
        CHECK(n == 2 && bv[0] == 4 && bv[1] == 140 && bv[2] == -9,
              "sizes: %zu lines, %d and %d bits (want 4 and 140), bv[2] %d",
              n, bv[0], bv[1], bv[2]);
    }

    /* training a codec that does not learn */
    EXPECT_STATUS(linecomp_observe(c, line, 64), LINECOMP_ERR_NOT_SUPPORTED,
                  "linecomp_observe");
    EXPECT_STATUS(linecomp_rebuild(c, &bad), LINECOMP_ERR_NOT_SUPPORTED,
                  "linecomp_rebuild");
    EXPECT_STATUS(linecomp_free(c), LINECOMP_OK, "linecomp_free");

    /* training arguments */
    if (linecomp_new("sc2", 32, &c) == LINECOMP_OK) {
        EXPECT_STATUS(linecomp_observe(c, NULL, 32), LINECOMP_ERR_ARGUMENT,
                      "linecomp_observe");
        EXPECT_STATUS(linecomp_observe(c, line, huge), LINECOMP_ERR_ARGUMENT,
                      "linecomp_observe");
        EXPECT_STATUS(linecomp_observe(c, NULL, 0), LINECOMP_OK,
                      "linecomp_observe");
        EXPECT_STATUS(linecomp_rebuild(c, NULL), LINECOMP_ERR_ARGUMENT,
                      "linecomp_rebuild");
        /* an untrained SC² stores the line raw: 1 + 8 * 32 bits */
        EXPECT_STATUS(linecomp_size(c, line, 32, &bits), LINECOMP_OK,
                      "linecomp_size");
        CHECK(bits == 257, "untrained sc2: %d bits, want 257", bits);
        /* trained on the zero line, the zero word gets a 1-bit code: flag
         * + 8 words of 1 bit = 9 bits */
        EXPECT_STATUS(linecomp_observe(c, line, 32), LINECOMP_OK,
                      "linecomp_observe");
        EXPECT_STATUS(linecomp_rebuild(c, &bad), LINECOMP_OK,
                      "linecomp_rebuild");
        EXPECT_STATUS(linecomp_size(bad, line, 32, &bits), LINECOMP_OK,
                      "linecomp_size");
        CHECK(bits == 9, "sc2 trained on zeros: %d bits, want 9", bits);
        EXPECT_STATUS(linecomp_size(c, line, 32, &bits), LINECOMP_OK,
                      "linecomp_size");
        CHECK(bits == 257, "rebuild changed the old handle: %d bits", bits);
        linecomp_free(bad);
        linecomp_free(c);
    } else {
        CHECK(0, "linecomp_new(sc2, 32): %s", linecomp_last_error());
    }

    /* the functions that cannot fail */
    CHECK(linecomp_api_version() == LINECOMP_API_VERSION,
          "api version %d, header %d", linecomp_api_version(),
          LINECOMP_API_VERSION);
    s = linecomp_version();
    CHECK(s != NULL && strstr(s, "linecomp") != NULL, "version: %s",
          s ? s : "(null)");
    CHECK(linecomp_max_compressed_bytes(64) == LINECOMP_MAX_COMPRESSED_BYTES(64)
          && LINECOMP_MAX_COMPRESSED_BYTES(64) == 72,
          "max compressed bytes");
    CHECK(linecomp_max_compressed_bytes(SIZE_MAX) == 0
          && linecomp_max_compressed_bytes((size_t)LINECOMP_MAX_LENGTH)
                 == (size_t)LINECOMP_MAX_LENGTH + 8,
          "max compressed bytes of SIZE_MAX: %zu (it wrapped to 7)",
          linecomp_max_compressed_bytes(SIZE_MAX));
    CHECK(strcmp(linecomp_status_name(LINECOMP_ERR_CORRUPT),
                 "LINECOMP_ERR_CORRUPT") == 0 &&
              strcmp(linecomp_status_name((linecomp_status)999),
                     "LINECOMP_ERR_?") == 0,
          "status names");
    /* 100 bits in 32-byte (256-bit) bursts: one burst; 300 bits: two */
    CHECK(linecomp_effective_bits(100, 32) == 256 &&
              linecomp_effective_bits(300, 32) == 512 &&
              linecomp_effective_bits(0, 32) == 0 &&
              linecomp_effective_bits(-1, 32) == -1 &&
              linecomp_effective_bits(9, 0) == 16 &&
              linecomp_effective_bits(1, 1 << 30) == -1,
          "effective bits");
}

/* ---- per-thread last error --------------------------------------------- */

static pthread_barrier_t barrier;

static void *error_worker(void *arg) {
    int id = *(int *)arg;
    linecomp_codec c;
    char name[32];
    int ok;
    sprintf(name, "no-such-codec-%d", id);
    linecomp_new(name, 64, &c);
    pthread_barrier_wait(&barrier); /* every thread has failed once */
    pthread_barrier_wait(&barrier);
    ok = strstr(linecomp_last_error(), name) != NULL;
    return ok ? arg : NULL;
}

static void check_thread_errors(void) {
    pthread_t th[4];
    int ids[4], t;
    void *ret;
    pthread_barrier_init(&barrier, NULL, 4);
    for (t = 0; t < 4; t++) {
        ids[t] = t;
        pthread_create(&th[t], NULL, error_worker, &ids[t]);
    }
    for (t = 0; t < 4; t++) {
        pthread_join(th[t], &ret);
        CHECK(ret != NULL, "thread %d lost its own last error", t);
    }
    pthread_barrier_destroy(&barrier);
}

int main(int argc, char **argv) {
    unsigned long long i, n, configs = 0;
    size_t count;
    char word[64];

    if (argc != 3) {
        fprintf(stderr, "usage: linecomp_test EXPECT DATA\n");
        return 2;
    }
    expect = fopen(argv[1], "r");
    if (!expect) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    read_data(argv[2]);
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
    want_word("linecomp-expect");
    want_word("1");
    want_word("data");
    n = read_u64();
    CHECK(n == data_len, "data is %zu bytes, Go saw %llu", data_len, n);
    n = read_u64();
    CHECK(fnv(DIGEST_INIT, data, data_len) == n, "data differs from Go's");

    want_word("codecs");
    n = read_u64();
    EXPECT_STATUS(linecomp_codec_count(&count), LINECOMP_OK,
                  "linecomp_codec_count");
    CHECK(count == n, "%zu codecs, Go has %llu", count, n);
    for (i = 0; i < n; i++)
        check_info((size_t)i);

    for (;;) {
        read_word(word, sizeof word);
        if (strcmp(word, "end") == 0)
            break;
        if (strcmp(word, "config") != 0) {
            fprintf(stderr, "expect file: unknown record %s\n", word);
            return 2;
        }
        check_config();
        configs++;
    }
    check_bad_arguments();
    check_thread_errors();

    printf("linecomp_test: %s: %llu codec configurations on %zu bytes, "
           "%d failures\n",
           linecomp_version(), configs, data_len, failures);
    free(data);
    fclose(expect);
    return failures ? 1 : 0;
}
