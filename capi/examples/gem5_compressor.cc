// gem5_compressor: a linecomp codec in the shape of a gem5 cache
// compressor.
//
// gem5's compressors (src/mem/cache/compressors) derive from
// compression::Base and implement
//
//     std::unique_ptr<CompressionData>
//     compress(const std::vector<Chunk>& chunks, Cycles& comp_lat,
//              Cycles& decomp_lat);
//     void decompress(const CompressionData* comp_data, uint64_t* cache_line);
//
// where a Chunk is a 64-bit piece of the block and CompressionData carries
// the compressed size in bits. LinecompCompressor below has the same two
// methods, so that its body can be pasted into a class deriving from
// compression::Base (add the SimObject parameters: codec name, and the
// cycles to charge when a paper gives no latency). It stands alone here so
// that it compiles without gem5. Unlike gem5's own compressors, which model
// sizes only, it keeps the real bit stream, so decompress() really decodes.
//
// Usage: gem5_compressor [CODEC [LINE_SIZE [FILE [LINES]]]]
// compresses LINES lines (default 8) of FILE (default: a few built-in
// lines) with CODEC (default bdi) at LINE_SIZE bytes (default 64), prints
// one line per cache line and checks that each decompresses to itself.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "linecomp.h"

namespace {

// gem5's Cycles is a class wrapping a uint64_t; a plain integer will do.
typedef std::uint64_t Cycles;
// gem5 splits a block into 64-bit chunks by default.
typedef std::uint64_t Chunk;

// Throws the library's message for a failed call.
void check(linecomp_status st, const char *what) {
    if (st != LINECOMP_OK)
        throw std::runtime_error(std::string(what) + ": " +
                                 linecomp_status_name(st) + ": " +
                                 linecomp_last_error());
}

class LinecompCompressor {
  public:
    // What compress returns: gem5 keeps only the size; we keep the stream
    // too, so that decompress can decode it.
    class CompressionData {
      public:
        std::size_t getSizeBits() const { return sizeBits; }
        std::size_t getSize() const { return (sizeBits + 7) / 8; }

      private:
        friend class LinecompCompressor;
        std::vector<std::uint8_t> stream;
        std::size_t sizeBits = 0;
    };

    // codec is a linecomp registry name ("bdi", "fpc", "cpack-z", ...);
    // blkSize the cache block size in bytes. unknownLatency is charged for
    // a latency that no paper gives (linecomp reports it as unknown rather
    // than inventing one); a study must say which value it chose.
    LinecompCompressor(const std::string &codec, std::size_t blkSize,
                       Cycles unknownLatency)
        : blkSize(blkSize) {
        check(linecomp_new(codec.c_str(), blkSize, &handle), "linecomp_new");
        linecomp_latency lat;
        check(linecomp_codec_latency(handle, &lat), "linecomp_codec_latency");
        compLat = lat.compress_known ? Cycles(lat.compress_cycles)
                                     : unknownLatency;
        decompLat = lat.decompress_known ? Cycles(lat.decompress_cycles)
                                         : unknownLatency;
        compLatKnown = lat.compress_known != 0;
        decompLatKnown = lat.decompress_known != 0;
        check(linecomp_tag_bits(handle, &tagBits), "linecomp_tag_bits");
    }

    ~LinecompCompressor() { linecomp_free(handle); }

    LinecompCompressor(const LinecompCompressor &) = delete;
    LinecompCompressor &operator=(const LinecompCompressor &) = delete;

    // The block as gem5 hands it over: blkSize / 8 chunks in memory order.
    // On a little-endian host their bytes are the block's bytes, which is
    // what linecomp reads.
    std::unique_ptr<CompressionData> compress(const std::vector<Chunk> &chunks,
                                              Cycles &comp_lat,
                                              Cycles &decomp_lat) {
        if (chunks.size() * sizeof(Chunk) != blkSize)
            throw std::invalid_argument("block is not blkSize bytes");
        std::unique_ptr<CompressionData> data(new CompressionData);
        data->stream.resize(linecomp_max_compressed_bytes(blkSize));
        std::size_t len = 0;
        int bits = 0;
        check(linecomp_compress(
                  handle, reinterpret_cast<const std::uint8_t *>(chunks.data()),
                  blkSize, data->stream.data(), data->stream.size(), &len,
                  &bits),
              "linecomp_compress");
        data->stream.resize(len);
        data->sizeBits = static_cast<std::size_t>(bits);
        comp_lat = compLat;
        decomp_lat = decompLat;
        return data;
    }

    void decompress(const CompressionData *comp_data, std::uint64_t *cache_line) {
        std::size_t len = 0;
        check(linecomp_decompress(handle, comp_data->stream.data(),
                                  comp_data->stream.size(),
                                  reinterpret_cast<std::uint8_t *>(cache_line),
                                  blkSize, &len),
              "linecomp_decompress");
    }

    int tagBitsPerBlock() const { return tagBits; }
    bool compressionLatencyKnown() const { return compLatKnown; }
    bool decompressionLatencyKnown() const { return decompLatKnown; }

  private:
    linecomp_codec handle = LINECOMP_NO_CODEC;
    std::size_t blkSize;
    Cycles compLat = 0, decompLat = 0;
    bool compLatKnown = false, decompLatKnown = false;
    int tagBits = 0;
};

// A few lines that exercise different encodings when no file is given.
std::vector<std::uint8_t> builtinLines(std::size_t lineSize, std::size_t n) {
    std::vector<std::uint8_t> out(lineSize * n, 0);
    for (std::size_t i = 0; i < n; i++) {
        std::uint8_t *line = &out[i * lineSize];
        for (std::size_t w = 0; w + 4 <= lineSize; w += 4) {
            std::uint32_t v = 0;
            switch (i % 4) {
            case 0: // zeros
                break;
            case 1: // small integers
                v = static_cast<std::uint32_t>(w / 4 + i);
                break;
            case 2: // pointers into one region
                v = 0x7f3a1000u + static_cast<std::uint32_t>(8 * w);
                break;
            default: // noise
                v = static_cast<std::uint32_t>(w * 2654435761u + i * 40503u);
            }
            std::memcpy(line + w, &v, 4); // host order: little-endian here
        }
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    try {
        std::string codec = argc > 1 ? argv[1] : "bdi";
        std::size_t lineSize = argc > 2 ? std::strtoul(argv[2], 0, 10) : 64;
        std::size_t lines = argc > 4 ? std::strtoul(argv[4], 0, 10) : 8;
        if (lineSize == 0 || lineSize % sizeof(Chunk) != 0)
            throw std::invalid_argument("line size must be a multiple of 8");

        std::vector<std::uint8_t> data;
        if (argc > 3) {
            std::ifstream in(argv[3], std::ios::binary);
            if (!in)
                throw std::runtime_error(std::string("cannot open ") + argv[3]);
            data.assign(std::istreambuf_iterator<char>(in),
                        std::istreambuf_iterator<char>());
        } else {
            data = builtinLines(lineSize, lines);
        }
        if (data.size() / lineSize < lines)
            lines = data.size() / lineSize;

        LinecompCompressor comp(codec, lineSize, Cycles(1));
        std::printf("%s, %zu-byte lines, %d tag bits; compression latency "
                    "%s, decompression latency %s\n",
                    codec.c_str(), lineSize, comp.tagBitsPerBlock(),
                    comp.compressionLatencyKnown() ? "published"
                                                   : "unknown (charging 1)",
                    comp.decompressionLatencyKnown() ? "published"
                                                     : "unknown (charging 1)");
        std::vector<Chunk> chunks(lineSize / sizeof(Chunk));
        std::vector<std::uint64_t> back(lineSize / sizeof(Chunk));
        for (std::size_t i = 0; i < lines; i++) {
            std::memcpy(chunks.data(), &data[i * lineSize], lineSize);
            Cycles compLat = 0, decompLat = 0;
            std::unique_ptr<LinecompCompressor::CompressionData> cd =
                comp.compress(chunks, compLat, decompLat);
            comp.decompress(cd.get(), back.data());
            bool same = std::memcmp(back.data(), chunks.data(), lineSize) == 0;
            std::printf("line %zu: %zu bits (%zu bytes), compress %llu "
                        "cycles, decompress %llu cycles, round trip %s\n",
                        i, cd->getSizeBits(), cd->getSize(),
                        static_cast<unsigned long long>(compLat),
                        static_cast<unsigned long long>(decompLat),
                        same ? "ok" : "FAILED");
            if (!same)
                return 1;
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "gem5_compressor: %s\n", e.what());
        return 1;
    }
}
