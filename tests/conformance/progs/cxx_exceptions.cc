// SPDX-License-Identifier: Apache-2.0
// Conformance: a C++ harness (glassbox-c++). A parse error is thrown and
// caught; exceptions pass through the instrumented code untouched. Property:
// a record "OK" whose count byte is 7 reaches the abort on the path where
// nothing throws (the seed's record throws). The tag is compared with
// memcmp: std::string's members live in libstdc++, which is not
// instrumented, so they would give concrete results (docs/tracer.md).
// seed: 4e 4f 00
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace {
struct Record {
    std::string tag;
    unsigned count;
};

Record parse(const uint8_t *d, size_t n)
{
    if (n < 3)
        throw std::runtime_error("short record");
    if (std::memcmp(d, "OK", 2) != 0)
        throw std::invalid_argument("bad tag " + std::string(reinterpret_cast<const char *>(d), 2));
    return Record{"OK", d[2]};
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    try {
        Record r = parse(d, n);
        if (r.count == 7)
            abort();
        std::printf("count %u\n", r.count);
    } catch (const std::exception &e) {
        std::printf("error: %s\n", e.what());
    }
    return 0;
}
