// The public functions of linecomp.h. Each forwards to the Go function of
// the same name with a linecompgo_ prefix (exports.go): cgo cannot declare
// const parameters, so this file is where the compiler checks every public
// prototype in linecomp.h against the Go exports in _cgo_export.h. It also
// holds what must be per C thread or needs no Go: the last-error message
// and the status names.

#include <string.h>

#include "linecomp.h"
#include "_cgo_export.h"

// The message of the last failing call on this thread. A cgo callback runs
// Go on the calling C thread, so linecompgo_set_error, called from Go
// during a call, writes the caller's own copy.
static _Thread_local char last_error[1024];

void linecompgo_set_error(const char *msg, size_t n) {
	if (n >= sizeof last_error) {
		n = sizeof last_error - 1;
	}
	memcpy(last_error, msg, n);
	last_error[n] = '\0';
}

const char *linecomp_last_error(void) { return last_error; }

const char *linecomp_status_name(linecomp_status status) {
	switch (status) {
	case LINECOMP_OK:
		return "LINECOMP_OK";
	case LINECOMP_ERR_ARGUMENT:
		return "LINECOMP_ERR_ARGUMENT";
	case LINECOMP_ERR_UNKNOWN_CODEC:
		return "LINECOMP_ERR_UNKNOWN_CODEC";
	case LINECOMP_ERR_LINE_SIZE:
		return "LINECOMP_ERR_LINE_SIZE";
	case LINECOMP_ERR_CORRUPT:
		return "LINECOMP_ERR_CORRUPT";
	case LINECOMP_ERR_BUFFER_TOO_SMALL:
		return "LINECOMP_ERR_BUFFER_TOO_SMALL";
	case LINECOMP_ERR_PARTIAL_LINE:
		return "LINECOMP_ERR_PARTIAL_LINE";
	case LINECOMP_ERR_HANDLE:
		return "LINECOMP_ERR_HANDLE";
	case LINECOMP_ERR_NOT_SUPPORTED:
		return "LINECOMP_ERR_NOT_SUPPORTED";
	case LINECOMP_ERR_CONFIG:
		return "LINECOMP_ERR_CONFIG";
	case LINECOMP_ERR_INTERNAL:
		return "LINECOMP_ERR_INTERNAL";
	}
	return "LINECOMP_ERR_?";
}

int linecomp_api_version(void) { return LINECOMP_API_VERSION; }

size_t linecomp_max_compressed_bytes(size_t line_size) {
	if ((uint64_t)line_size > LINECOMP_MAX_LENGTH || line_size > SIZE_MAX - 8) {
		return 0; /* no codec takes it, and the sum could wrap */
	}
	return LINECOMP_MAX_COMPRESSED_BYTES(line_size);
}

const char *linecomp_version(void) { return linecompgo_version(); }

int linecomp_effective_bits(int bits, int granularity_bytes) {
	return linecompgo_effective_bits(bits, granularity_bytes);
}

linecomp_status linecomp_codec_count(size_t *count) {
	return linecompgo_codec_count(count);
}

linecomp_status linecomp_codec_info(size_t index, linecomp_info *info) {
	return linecompgo_codec_info(index, info);
}

linecomp_status linecomp_lookup(const char *name, linecomp_info *info) {
	return linecompgo_lookup((char *)name, info);
}

linecomp_status linecomp_new(const char *name, size_t line_size,
                             linecomp_codec *codec) {
	return linecompgo_new((char *)name, line_size, codec);
}

linecomp_status linecomp_free(linecomp_codec codec) {
	return linecompgo_free(codec);
}

linecomp_status linecomp_name(linecomp_codec codec, const char **name) {
	return linecompgo_name(codec, (char **)name);
}

linecomp_status linecomp_line_size(linecomp_codec codec, size_t *line_size) {
	return linecompgo_line_size(codec, line_size);
}

linecomp_status linecomp_tag_bits(linecomp_codec codec, int *tag_bits) {
	return linecompgo_tag_bits(codec, tag_bits);
}

linecomp_status linecomp_codec_latency(linecomp_codec codec,
                                       linecomp_latency *latency) {
	return linecompgo_codec_latency(codec, latency);
}

linecomp_status linecomp_size(linecomp_codec codec, const uint8_t *line,
                              size_t line_len, int *bits) {
	return linecompgo_size(codec, (uint8_t *)line, line_len, bits);
}

linecomp_status linecomp_compress(linecomp_codec codec, const uint8_t *line,
                                  size_t line_len, uint8_t *out,
                                  size_t out_cap, size_t *out_len, int *bits) {
	return linecompgo_compress(codec, (uint8_t *)line, line_len, out, out_cap,
	                           out_len, bits);
}

linecomp_status linecomp_decompress(linecomp_codec codec, const uint8_t *enc,
                                    size_t enc_len, uint8_t *out,
                                    size_t out_cap, size_t *out_len) {
	return linecompgo_decompress(codec, (uint8_t *)enc, enc_len, out, out_cap,
	                             out_len);
}

linecomp_status linecomp_sizes(linecomp_codec codec, const uint8_t *data,
                               size_t data_len, int *bits, size_t bits_cap,
                               size_t *n_lines) {
	return linecompgo_sizes(codec, (uint8_t *)data, data_len, bits, bits_cap,
	                        n_lines);
}

linecomp_status linecomp_encoding_count(linecomp_codec codec, size_t *count) {
	return linecompgo_encoding_count(codec, count);
}

linecomp_status linecomp_encoding_info(linecomp_codec codec, size_t index,
                                       linecomp_encoding *encoding) {
	return linecompgo_encoding_info(codec, index, encoding);
}

linecomp_status linecomp_encoding_of(linecomp_codec codec, const uint8_t *enc,
                                     size_t enc_len, size_t *index) {
	return linecompgo_encoding_of(codec, (uint8_t *)enc, enc_len, index);
}

linecomp_status linecomp_tag_gives_size(linecomp_codec codec, int *yes) {
	return linecompgo_tag_gives_size(codec, yes);
}

linecomp_status linecomp_observe(linecomp_codec codec, const uint8_t *data,
                                 size_t data_len) {
	return linecompgo_observe(codec, (uint8_t *)data, data_len);
}

linecomp_status linecomp_rebuild(linecomp_codec codec,
                                 linecomp_codec *trained) {
	return linecompgo_rebuild(codec, trained);
}
