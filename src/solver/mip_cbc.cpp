// solve_mip_cbc: CBC isolated in a child process (see child_process.hpp).
#include <algorithm>
#include <chrono>

#include "solver/child_process.hpp"
#include "solver/mip_model.hpp"
#include "solver/mip_result_codec.hpp"
#ifdef HETSCHED_HAVE_CBC
#include "solver/cbc/cbc_direct.hpp"
#endif

namespace hs::solver {

namespace {

MipResult failed(SolveStatus status, CallStatus call, std::string message) {
  MipResult result;
  result.call = call;
  result.status = status;
  result.message = std::move(message);
  return result;
}

}  // namespace

bool cbc_available() {
#ifdef HETSCHED_HAVE_CBC
  return true;
#else
  return false;
#endif
}

MipResult solve_mip_cbc(const MipModel& model, double time_limit_s, double grace_s) {
#ifndef HETSCHED_HAVE_CBC
  (void)model, (void)time_limit_s, (void)grace_s;
  return failed(SolveStatus::Error, CallStatus::Error, "this build has no CBC backend");
#else
  if (auto defect = find_model_defect(model))
    return failed(SolveStatus::Error, CallStatus::Error, "malformed MIP model: " + *defect);
  if (!(time_limit_s > 0.0))
    return failed(SolveStatus::Error, CallStatus::Error, "CBC needs a positive time limit");
  if (grace_s < 0.0) grace_s = std::max(2.0, time_limit_s);
  const auto start = std::chrono::steady_clock::now();
  const ChildOutcome outcome = run_in_child(
      [&] { return encode_mip_result(solve_mip_cbc_in_process(model, time_limit_s)); },
      time_limit_s + grace_s);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MipResult result;
  if (outcome.kind == ChildOutcome::Kind::Killed) {
    result = failed(SolveStatus::NoSolution, CallStatus::Ok, "CBC overran its limit: " + outcome.message);
  } else if (outcome.kind == ChildOutcome::Kind::Crashed && seconds >= time_limit_s) {
    // CBC stopped by a short limit sometimes crashes on its way out (under load, about one
    // solve in 300 at 0.01-0.03 s; each crash measured came after the limit had passed):
    // that is a stop on time whose incumbent is lost, as when the parent kills the child.
    result = failed(SolveStatus::NoSolution, CallStatus::Ok,
                    "CBC crashed after its time limit (" + outcome.message + "): no solution kept");
  } else if (outcome.kind != ChildOutcome::Kind::Completed) {
    result = failed(SolveStatus::Error, CallStatus::Error, "CBC child failed: " + outcome.message);
  } else if (auto decoded = decode_mip_result(outcome.payload)) {
    result = std::move(*decoded);
  } else {
    result = failed(SolveStatus::Error, CallStatus::Error, "CBC child sent an unreadable result");
  }
  result.seconds = seconds;
  return result;
#endif
}

std::optional<std::string> write_mip_file(const MipModel& model, const std::string& path,
                                          MipFileFormat format) {
#ifndef HETSCHED_HAVE_CBC
  (void)model, (void)path, (void)format;
  return "this build has no CBC backend (its COIN-OR writers write LP and MPS files)";
#else
  if (auto defect = find_model_defect(model)) return "malformed MIP model: " + *defect;
  if (!write_mip_file_with_cbc(model, path, format)) return "cannot write " + path;
  return std::nullopt;
#endif
}

}  // namespace hs::solver
