#include "solver/mip_result_codec.hpp"

#include <cstdint>
#include <cstring>

namespace hs::solver {

namespace {

template <typename T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  template <typename T>
  bool get(T& value) {
    if (bytes_.size() - at_ < sizeof value) return false;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return true;
  }
  bool get_text(std::string& text, std::uint64_t size) {
    if (bytes_.size() - at_ < size) return false;
    text.assign(bytes_, at_, size);
    at_ += size;
    return true;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::string& bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::string encode_mip_result(const MipResult& r) {
  std::string out;
  put(out, static_cast<std::int32_t>(r.call));
  put(out, static_cast<std::int32_t>(r.status));
  put(out, r.objective);
  put(out, r.bound);
  put(out, r.gap);
  put(out, r.seconds);
  put(out, static_cast<std::uint64_t>(r.values.size()));
  for (double v : r.values) put(out, v);
  put(out, static_cast<std::uint64_t>(r.message.size()));
  out += r.message;
  return out;
}

std::optional<MipResult> decode_mip_result(const std::string& bytes) {
  Reader in(bytes);
  MipResult r;
  std::int32_t call = 0, status = 0;
  std::uint64_t count = 0, text_size = 0;
  if (!in.get(call) || !in.get(status) || !in.get(r.objective) || !in.get(r.bound) ||
      !in.get(r.gap) || !in.get(r.seconds) || !in.get(count))
    return std::nullopt;
  if (call < 0 || call > static_cast<std::int32_t>(CallStatus::Error) || status < 0 ||
      status > static_cast<std::int32_t>(SolveStatus::Error) || count > bytes.size() / sizeof(double))
    return std::nullopt;
  r.call = static_cast<CallStatus>(call);
  r.status = static_cast<SolveStatus>(status);
  r.values.resize(count);
  for (double& v : r.values)
    if (!in.get(v)) return std::nullopt;
  if (!in.get(text_size) || !in.get_text(r.message, text_size) || !in.done()) return std::nullopt;
  return r;
}

}  // namespace hs::solver
