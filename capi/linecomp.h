/*
 * linecomp.h: the C API of linecomp, bit-exact hardware cache-line
 * compression codecs (BDI, MAG-aware BDI, FPC, C-Pack, BPC, SC², ...).
 *
 * This header is the whole public interface. It is plain C99 and can be
 * included from C++ (the declarations are extern "C"). Build the library
 * from the capi directory of the linecomp repository with Go 1.24 or newer
 * and a C compiler:
 *
 *     go build -buildmode=c-shared  -o liblinecomp.so .   (shared)
 *     go build -buildmode=c-archive -o liblinecomp.a  .   (static)
 *
 * and link with -llinecomp (shared: also set an rpath or LD_LIBRARY_PATH;
 * static: add -lpthread). The liblinecomp.h that go build writes beside
 * the library is cgo's internal header; include this one instead.
 *
 * ---------------------------------------------------------------------
 * Hello, linecomp
 * ---------------------------------------------------------------------
 *
 *     #include <stdio.h>
 *     #include "linecomp.h"
 *
 *     int main(void) {
 *         uint8_t line[64] = {0};            // one 64-byte cache line
 *         uint8_t enc[LINECOMP_MAX_COMPRESSED_BYTES(64)];
 *         uint8_t back[64];
 *         size_t enc_len, back_len;
 *         int bits;
 *         linecomp_codec c;
 *
 *         if (linecomp_new("bdi", 64, &c) != LINECOMP_OK) {
 *             fprintf(stderr, "%s\n", linecomp_last_error());
 *             return 1;
 *         }
 *         if (linecomp_compress(c, line, sizeof line, enc, sizeof enc,
 *                               &enc_len, &bits) != LINECOMP_OK ||
 *             linecomp_decompress(c, enc, enc_len, back, sizeof back,
 *                                 &back_len) != LINECOMP_OK) {
 *             fprintf(stderr, "%s\n", linecomp_last_error());
 *             return 1;
 *         }
 *         // A zero line is BDI's "zeros" encoding: its 4 tag bits alone.
 *         printf("%d bits in a %zu-byte stream\n", bits, enc_len);
 *         linecomp_free(c);
 *         return 0;
 *     }
 *
 * ---------------------------------------------------------------------
 * Model
 * ---------------------------------------------------------------------
 *
 * A codec is one configured compressor: an algorithm, a variant and a line
 * size in bytes. The registry names every codec ("bdi", "fpc-tavana",
 * "magbdi-32", "sc2", "none", ...; list them with linecomp_codec_count and
 * linecomp_codec_info) and says which line sizes each takes. A line is
 * compressed into a bit stream whose exact length in bits is reported; the
 * stream occupies (bits + 7) / 8 bytes, MSB-first, pad bits zero. The first
 * tag_bits bits of every stream are what hardware keeps in the tag or a
 * metadata array; the rest is the data that is stored or moved. The bits
 * are identical to those of the Go package github.com/linecomp/linecomp
 * for the same codec name and line size; each codec's bit layout is
 * specified in its Go package documentation.
 *
 * Line data are bytes in memory order (the codecs read little-endian
 * 32- and 64-bit words from them, as they sit in a little-endian memory).
 *
 * ---------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------
 *
 * Every function that can fail returns a linecomp_status; LINECOMP_OK (0)
 * is success. On failure, the out-parameters are left unchanged unless the
 * function says otherwise, and linecomp_last_error() returns a message that
 * names the function and the cause (e.g. "linecomp_compress: line_len is
 * 63: linecomp: unsupported line size: bdi takes 64-byte lines, got 63
 * bytes"). The message is kept per thread: it describes the
 * last call that failed on the calling thread, and calls on other threads
 * do not disturb it. Successful calls do not clear it.
 *
 * Arguments are checked, never trusted: a NULL pointer, a length above
 * LINECOMP_MAX_LENGTH (e.g. a negative int converted to size_t), an index
 * out of range, an unknown or freed handle, a line of the wrong size or a
 * stream the codec cannot have produced gives an error status, never a
 * crash. Every pointer parameter must be non-NULL, except a buffer pointer
 * whose length (or capacity) argument is 0. A non-NULL pointer must point
 * to at least as many bytes as its length argument says; that cannot be
 * checked.
 *
 * No Go panic reaches the caller: an unexpected failure inside the library
 * is reported as LINECOMP_ERR_INTERNAL (please report it as a bug).
 *
 * ---------------------------------------------------------------------
 * Memory and ownership
 * ---------------------------------------------------------------------
 *
 * The library never keeps a pointer it was given: input buffers are read,
 * output buffers written, during the call only. Buffers the caller passes
 * belong to the caller. Every const char * and array the library returns
 * (names, papers, encoding names, line-size arrays, the version) is owned
 * by the library, is never freed and stays valid and unchanged until the
 * process exits; do not free or modify it. The one exception is
 * linecomp_last_error(), valid until the next failing call on the thread.
 *
 * A linecomp_codec is an opaque 64-bit handle, not a pointer; 0
 * (LINECOMP_NO_CODEC) is never a valid handle and a freed handle's value is
 * never reused, so a stale handle gives LINECOMP_ERR_HANDLE. Every handle
 * made by linecomp_new or linecomp_rebuild must be released with
 * linecomp_free, once.
 *
 * ---------------------------------------------------------------------
 * Threads
 * ---------------------------------------------------------------------
 *
 * Every function may be called from any thread, concurrently with every
 * other, and a handle may be shared by any number of threads: codecs are
 * immutable once made (SC²'s training counts are updated under a lock), so
 * concurrent compress, decompress, size and observe calls on one handle
 * are safe and give the same results as serial ones. Freeing a handle while
 * another thread still uses it is a bug in the caller, but not a crash:
 * the other call either completes normally or fails with
 * LINECOMP_ERR_HANDLE.
 *
 * The library contains the Go runtime, which starts when the library is
 * loaded and runs its own threads. Do not call linecomp from a signal
 * handler, nor in the child of a fork() before exec(). If the host program
 * installs signal handlers after loading the library, install them with
 * SA_ONSTACK (see the "os/signal" Go documentation on C programs). Load at
 * most one Go-built shared library per process.
 *
 * ---------------------------------------------------------------------
 * Trainable codecs (SC²)
 * ---------------------------------------------------------------------
 *
 * A codec whose info has trainable = 1 ("sc2") learns its code book from
 * the data. linecomp_new gives it the empty code book, in which every word
 * escapes, so it stores every line raw (1 + 8 * line_size bits) until it is
 * trained: call linecomp_observe on the lines of a sampling phase, then
 * linecomp_rebuild, which returns a NEW handle whose code book is built
 * from everything observed since the old handle was made. The old handle
 * is unchanged and still decompresses every line it compressed; a stream
 * must be decompressed by the handle that compressed it (or another handle
 * rebuilt from the same observations). Free both handles when done.
 */
#ifndef LINECOMP_H
#define LINECOMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface. linecomp_api_version() returns the
 * library's; a program built against this header should check that they
 * are equal. */
#define LINECOMP_API_VERSION 1

/* The largest length, in bytes, any length or capacity argument may have.
 * Anything larger is rejected with LINECOMP_ERR_ARGUMENT as a likely
 * negative or uninitialised value. */
#define LINECOMP_MAX_LENGTH ((uint64_t)1 << 40)

/* An upper bound on the bytes of a stream compressed from a line of n
 * bytes, by every codec at every line size: every codec stores a line it
 * cannot shrink raw, behind at most a few tag bits. Size output buffers for
 * linecomp_compress with it. n must be at most LINECOMP_MAX_LENGTH (for a
 * larger n the sum may wrap); linecomp_max_compressed_bytes() returns the
 * same value, and 0 for such an n. */
#define LINECOMP_MAX_COMPRESSED_BYTES(n) ((size_t)(n) + 8)

/* A latency field that no source paper gives. */
#define LINECOMP_LATENCY_UNKNOWN (-1)

/* Status codes. Values are stable; new ones may be added at the end. */
typedef enum linecomp_status {
    LINECOMP_OK = 0,
    /* A NULL pointer, a length above LINECOMP_MAX_LENGTH, an index out of
     * range or a name that is not a NUL-terminated string of at most 255
     * bytes. */
    LINECOMP_ERR_ARGUMENT = 1,
    /* No codec is registered under the name. */
    LINECOMP_ERR_UNKNOWN_CODEC = 2,
    /* The codec does not take this line size, or a line is not exactly
     * the codec's line size. */
    LINECOMP_ERR_LINE_SIZE = 3,
    /* A stream the codec cannot have produced: truncated, too long,
     * non-zero padding or an impossible code. */
    LINECOMP_ERR_CORRUPT = 4,
    /* An output buffer is too small; the function says how large it must
     * be. */
    LINECOMP_ERR_BUFFER_TOO_SMALL = 5,
    /* Batch data that are not a whole number of lines. */
    LINECOMP_ERR_PARTIAL_LINE = 6,
    /* A handle that is 0, was never made or was freed. */
    LINECOMP_ERR_HANDLE = 7,
    /* The codec does not support the operation (encodings, training). */
    LINECOMP_ERR_NOT_SUPPORTED = 8,
    /* A configuration that cannot work, e.g. training that fails. */
    LINECOMP_ERR_CONFIG = 9,
    /* A bug inside the library (a recovered Go panic). */
    LINECOMP_ERR_INTERNAL = 10
} linecomp_status;

/* An opaque codec handle; 0 is never valid. */
typedef uint64_t linecomp_codec;
#define LINECOMP_NO_CODEC ((linecomp_codec)0)

/* A codec's hardware latency in cycles, as its source paper gives it. A
 * field that no paper gives is LINECOMP_LATENCY_UNKNOWN with its known flag
 * 0: a simulator that charges latencies must check the flags and refuse or
 * choose a value itself, never charge -1 cycles. */
typedef struct linecomp_latency {
    int compress_cycles;
    int decompress_cycles;
    int compress_known;   /* 1 if compress_cycles is known, else 0 */
    int decompress_known; /* 1 if decompress_cycles is known, else 0 */
} linecomp_latency;

/* The description of a registered codec. Every pointer is owned by the
 * library and valid until the process exits. */
typedef struct linecomp_info {
    const char *name;      /* registry name, e.g. "cpack-z-gem5" */
    const char *algorithm; /* key of the published latency/energy presets,
                              e.g. "cpack-z"; equals name for most */
    const char *paper;     /* the publication that defines the algorithm */
    const char *variant;   /* why this variant exists; "" for the default */
    size_t line_size_count;
    const size_t *line_sizes; /* line sizes in bytes the codec takes,
                                 ascending, line_size_count of them */
    const int *tag_bits;      /* tag bits at each of line_sizes */
    linecomp_latency latency; /* default latency (the same at every size) */
    int trainable;            /* 1 for a trainable codec (SC²), else 0 */
    size_t encoding_count;    /* 0 if the codec does not name encodings */
    const char *const *encodings; /* encoding names at the largest size */
} linecomp_info;

/* One line-level encoding of a codec (e.g. BDI's "b8d1", "zeros", "raw"). */
typedef struct linecomp_encoding {
    const char *name; /* short and stable; owned by the library */
    int bits;         /* stream length in bits, tag bits included, of every
                         line stored this way, or -1 if it varies */
} linecomp_encoding;

/* ---- Version and errors ---------------------------------------------- */

/* The interface version the library implements (LINECOMP_API_VERSION of
 * the header it was built with). */
int linecomp_api_version(void);

/* A one-line description of the library build: API version, Go version,
 * source revision. Never NULL. */
const char *linecomp_version(void);

/* The symbolic name of a status, e.g. "LINECOMP_ERR_CORRUPT", or
 * "LINECOMP_ERR_?" for a value that is not a status. Never NULL. */
const char *linecomp_status_name(linecomp_status status);

/* The message of the last failing call on the calling thread, or "" if
 * none has failed on it. Valid until the next failing call on the same
 * thread. Never NULL. */
const char *linecomp_last_error(void);

/* ---- The registry ----------------------------------------------------- */

/* Sets *count to the number of registered codecs. */
linecomp_status linecomp_codec_count(size_t *count);

/* Describes codec number index (0 <= index < count), in name order. */
linecomp_status linecomp_codec_info(size_t index, linecomp_info *info);

/* Describes the codec registered under name. LINECOMP_ERR_UNKNOWN_CODEC
 * if there is none; the message lists the registered names. */
linecomp_status linecomp_lookup(const char *name, linecomp_info *info);

/* ---- Codec handles ---------------------------------------------------- */

/* Makes the codec registered under name for lines of line_size bytes and
 * sets *codec to its handle. LINECOMP_ERR_UNKNOWN_CODEC for a name that is
 * not registered, LINECOMP_ERR_LINE_SIZE for a size the codec does not
 * take (the message lists those it takes). */
linecomp_status linecomp_new(const char *name, size_t line_size,
                             linecomp_codec *codec);

/* Releases a handle. LINECOMP_ERR_HANDLE if it is not a live handle (e.g.
 * freed twice). */
linecomp_status linecomp_free(linecomp_codec codec);

/* Sets *name to the codec's registry name. */
linecomp_status linecomp_name(linecomp_codec codec, const char **name);

/* Sets *line_size to the line size in bytes the codec takes. */
linecomp_status linecomp_line_size(linecomp_codec codec, size_t *line_size);

/* Sets *tag_bits to the number of leading bits of every stream that
 * hardware keeps outside the data array. */
linecomp_status linecomp_tag_bits(linecomp_codec codec, int *tag_bits);

/* Sets *latency to the codec's compression and decompression latency. */
linecomp_status linecomp_codec_latency(linecomp_codec codec,
                                       linecomp_latency *latency);

/* ---- Compression ------------------------------------------------------ */

/* Sets *bits to the exact length in bits of the stream linecomp_compress
 * would produce for line, without producing it (faster). line_len must be
 * the codec's line size (LINECOMP_ERR_LINE_SIZE otherwise). */
linecomp_status linecomp_size(linecomp_codec codec, const uint8_t *line,
                              size_t line_len, int *bits);

/* Compresses the line_len-byte line (the codec's line size) into out,
 * which has room for out_cap bytes, and sets *out_len to the bytes written,
 * (*bits + 7) / 8, and *bits to the exact length in bits. If out_cap is too
 * small, returns LINECOMP_ERR_BUFFER_TOO_SMALL, sets *out_len to the bytes
 * needed and leaves *bits unchanged; the contents of out are then
 * unspecified (nothing past out_cap is written). An out_cap of
 * LINECOMP_MAX_COMPRESSED_BYTES(line_len) is always enough. out may
 * overlap line. */
linecomp_status linecomp_compress(linecomp_codec codec, const uint8_t *line,
                                  size_t line_len, uint8_t *out,
                                  size_t out_cap, size_t *out_len, int *bits);

/* Decompresses the enc_len-byte stream enc into out, which has room for
 * out_cap bytes, and sets *out_len to the bytes written, the codec's line
 * size. LINECOMP_ERR_BUFFER_TOO_SMALL, with *out_len set to the line size,
 * if out_cap is smaller than the line size; LINECOMP_ERR_CORRUPT if enc is
 * not a stream the codec can have produced (the message gives the bit
 * offset and the reason). On any error nothing is written to out. enc_len
 * must be exactly the stream's length in bytes, as linecomp_compress
 * reported it. out may overlap enc. */
linecomp_status linecomp_decompress(linecomp_codec codec, const uint8_t *enc,
                                    size_t enc_len, uint8_t *out,
                                    size_t out_cap, size_t *out_len);

/* LINECOMP_MAX_COMPRESSED_BYTES(line_size) as a function, for a line_size
 * of at most LINECOMP_MAX_LENGTH; 0 for a larger one, which no codec takes
 * (the sum would wrap: SIZE_MAX + 8 is 7). */
size_t linecomp_max_compressed_bytes(size_t line_size);

/* Batch size: for the data_len / line_size consecutive lines of data, sets
 * bits[i] to the size in bits of line i (as linecomp_size) and *n_lines to
 * the number of lines. Faster than one call per line (some codecs have
 * vector kernels for it). LINECOMP_ERR_PARTIAL_LINE if data_len is not a
 * multiple of the line size; LINECOMP_ERR_BUFFER_TOO_SMALL, with *n_lines
 * set to the number of lines, if bits_cap is smaller than that. */
linecomp_status linecomp_sizes(linecomp_codec codec, const uint8_t *data,
                               size_t data_len, int *bits, size_t bits_cap,
                               size_t *n_lines);

/* Rounds a size in bits up to whole access units of granularity_bytes
 * bytes (a DRAM burst, a sector): what the data cost to move or store.
 * Pass bits minus the codec's tag bits, since tag bits do not travel with
 * the data. 0 bits cost 0; a granularity of 1 or less rounds to whole
 * bytes; a negative bits is returned unchanged; a result above INT_MAX
 * (a granularity of hundreds of megabytes) is returned as -1. */
int linecomp_effective_bits(int bits, int granularity_bytes);

/* ---- Encodings -------------------------------------------------------- */

/* Sets *count to the number of line-level encodings the codec names.
 * LINECOMP_ERR_NOT_SUPPORTED if it names none. */
linecomp_status linecomp_encoding_count(linecomp_codec codec, size_t *count);

/* Describes encoding number index (0 <= index < count). */
linecomp_status linecomp_encoding_info(linecomp_codec codec, size_t index,
                                       linecomp_encoding *encoding);

/* Sets *index to the number of the encoding of stream enc, read from its
 * leading bits; it does not check the rest of the stream (decompress
 * does). LINECOMP_ERR_CORRUPT for a stream that cannot start that way,
 * LINECOMP_ERR_NOT_SUPPORTED if the codec names no encodings. */
linecomp_status linecomp_encoding_of(linecomp_codec codec, const uint8_t *enc,
                                     size_t enc_len, size_t *index);

/* Sets *yes to 1 if the codec's tag bits alone determine the length of
 * every stream (it names its encodings and each has a fixed size), so a
 * memory controller needs no separate length field; else 0. */
linecomp_status linecomp_tag_gives_size(linecomp_codec codec, int *yes);

/* ---- Training (trainable codecs only) --------------------------------- */

/* Counts the 32-bit words of data (any length; normally one line) for the
 * codec's next code book. LINECOMP_ERR_NOT_SUPPORTED for a codec that is
 * not trainable. */
linecomp_status linecomp_observe(linecomp_codec codec, const uint8_t *data,
                                 size_t data_len);

/* Builds a code book from every word observed since codec was made and
 * sets *trained to a NEW handle that uses it and has observed nothing yet.
 * codec is unchanged. Free both. LINECOMP_ERR_NOT_SUPPORTED for a codec
 * that is not trainable. */
linecomp_status linecomp_rebuild(linecomp_codec codec,
                                 linecomp_codec *trained);

#ifdef __cplusplus
}
#endif

#endif /* LINECOMP_H */
