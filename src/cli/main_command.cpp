#include "cli/main_command.hpp"

#include <cstdio>

namespace hs::cli {
int run_main(int, char**) {
  std::puts("hetsched: under construction");
  return 0;
}
}  // namespace hs::cli
