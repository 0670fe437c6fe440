// One libFuzzer executable per reader: HETSCHED_FUZZ_TARGET names it (fuzz/CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  hs::fuzz::run_target(HETSCHED_FUZZ_TARGET, {reinterpret_cast<const char*>(data), size});
  return 0;
}
