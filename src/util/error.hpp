#pragma once
// Expected failures (bad input, impossible requests) are reported as exceptions carrying
// where the problem is: file, line, field and the offending value. Bugs are assertions.
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace hs {

struct InputLocation {
  std::string file;   // path or a label such as "<command line>"
  long line = 0;      // 1-based; 0 when not line-oriented
};

// `text` safe to print: printable ASCII and well-formed UTF-8 are kept, every other byte
// (control characters, line breaks, binary, invalid UTF-8) becomes \n, \r, \t or \xNN.
std::string escape_for_message(std::string_view text);

// what() is "file[:line]: field 'F' value 'V': problem", every part escaped as above, so
// that bytes read from a bad input never reach the terminal raw.
class InputError : public std::runtime_error {
 public:
  InputError(InputLocation where, std::string field, std::string value, std::string problem);
  const InputLocation& where() const { return where_; }
  const std::string& field() const { return field_; }
  const std::string& value() const { return value_; }
  const std::string& problem() const { return problem_; }

 private:
  InputLocation where_;
  std::string field_;
  std::string value_;
  std::string problem_;
};

// A policy from outside the project's C++ (a Python class) failed during a run: it raised,
// or proposed decisions the checker refused. The run is failed with nothing of that pass
// applied; the message names the policy, the pass time and the job.
class PolicyError : public std::runtime_error {
 public:
  // `context` names the policy and the pass; `failure` is what went wrong in it.
  PolicyError(const std::string& context, std::string failure, const std::string& consequence)
      : std::runtime_error(context + ": " + failure + consequence), failure_(std::move(failure)) {}
  const std::string& failure() const { return failure_; }

 private:
  std::string failure_;
};

}  // namespace hs
