#pragma once

namespace hs::cli {
// `hetsched reproduce`: reruns the experiments behind the documents' result tables (002
// Tables V-VI, 000 Tables 5-7, thesis A.1-A.5, 004 Tables 2-3) and writes
// docs/reproduction.md with the published numbers and ours side by side.
int run_reproduce_command(int argc, char** argv);
}  // namespace hs::cli
