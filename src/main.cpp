#include "cli/main_command.hpp"

int main(int argc, char** argv) { return hs::cli::run_main(argc, argv); }
