#include "bridge/scontrol_jobs.hpp"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <map>

#include "io/hostlist.hpp"
#include "io/job_options.hpp"
#include "io/slurm_time.hpp"
#include "bridge/scontrol_fields.hpp"
#include "util/error.hpp"

namespace hs::bridge {

namespace {

class LineReader {
 public:
  LineReader(const std::string& source, long line, HostlistBudget& budget)
      : where_{source, line}, budget_(budget) {}

  std::int64_t integer(const Field& f, std::int64_t lo) const {
    std::int64_t v = 0;
    const char* first = f.value.data();
    const char* last = first + f.value.size();
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || v < lo)
      throw InputError(where_, f.key, f.value, "expected an integer >= " + std::to_string(lo));
    return v;
  }

  // A number inside the field's value; errors show the whole value.
  std::int64_t number_in(const Field& f, const std::string& text, std::int64_t lo) const {
    try {
      return integer(Field{f.key, text}, lo);
    } catch (const InputError& e) {
      throw InputError(where_, f.key, f.value, "'" + text + "': " + e.problem());
    }
  }

  // "a" or "a-b".
  void range(const Field& f, std::int32_t& lo, std::int32_t& hi) const {
    const std::size_t dash = f.value.find('-');
    if (dash == std::string::npos) {
      lo = static_cast<std::int32_t>(integer(f, 0));
      hi = 0;
      return;
    }
    lo = static_cast<std::int32_t>(number_in(f, f.value.substr(0, dash), 0));
    hi = static_cast<std::int32_t>(number_in(f, f.value.substr(dash + 1), lo));
    if (hi == 0) throw InputError(where_, f.key, f.value, "range must end above 0");
  }

  // "0-2,4-5" -> 5.
  std::int32_t cpu_count(const Field& f) const {
    std::int32_t count = 0;
    std::size_t pos = 0;
    while (pos <= f.value.size() && !f.value.empty()) {
      std::size_t comma = f.value.find(',', pos);
      if (comma == std::string::npos) comma = f.value.size();
      const std::string part = f.value.substr(pos, comma - pos);
      const std::size_t dash = part.find('-');
      if (dash == std::string::npos) {
        number_in(f, part, 0);
        count += 1;
      } else {
        const auto a = number_in(f, part.substr(0, dash), 0);
        const auto b = number_in(f, part.substr(dash + 1), a);
        count += static_cast<std::int32_t>(b - a + 1);
      }
      pos = comma + 1;
    }
    return count;
  }

  // "gpu:1(IDX:0),mic:2(IDX:0-1)" or "gres:gpu:tesla:2,gres:mic:1": name and count per item;
  // commas inside parentheses belong to the item.
  std::vector<std::pair<std::string, std::int32_t>> gres_list(const Field& f) const {
    std::vector<std::pair<std::string, std::int32_t>> out;
    std::string item;
    int depth = 0;
    auto finish = [&] {
      if (item.empty() || item == "(null)") return;
      std::string body = item.substr(0, item.find('('));
      if (body.rfind("gres:", 0) == 0) body = body.substr(5);
      const std::size_t first_colon = body.find(':');
      const std::size_t last_colon = body.rfind(':');
      if (first_colon == std::string::npos)
        throw InputError(where_, f.key, f.value, "expected name:count in '" + item + "'");
      const auto count = number_in(f, body.substr(last_colon + 1), 0);
      out.emplace_back(body.substr(0, last_colon), static_cast<std::int32_t>(count));  // "gpu" or "gpu:a100"
      item.clear();
    };
    for (char c : f.value) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == ',' && depth == 0) {
        finish();
      } else {
        item += c;
      }
    }
    finish();
    return out;
  }

  Time time_limit(const Field& f) const {
    if (f.value == "Partition_Limit" || f.value == "NONE") return kNoTime;
    return parse_slurm_time(f.value, where_, f.key, true);
  }

  std::vector<std::string> hosts(const Field& f) const {
    if (f.value.empty() || f.value == "(null)") return {};
    return expand_hostlist(f.value, where_, budget_);
  }

  const InputLocation& where() const { return where_; }

  // "3000M", "4G", "250" (MB), or "0" (Slurm prints 0 for no memory / a whole node).
  std::int64_t memory_mb(const Field& f) const {
    const std::size_t digits_end = f.value.find_first_not_of("0123456789");
    const std::string digits = f.value.substr(0, digits_end);
    if (!digits.empty() && digits.find_first_not_of('0') == std::string::npos &&
        f.value.size() <= digits.size() + 1)
      return 0;
    return parse_memory_mb(f.value, where_, f.key);
  }

 private:
  InputLocation where_;
  HostlistBudget& budget_;
};

void apply_field(const LineReader& in, const Field& f, LiveJob& job) {
  const std::string_view k = f.key;  // compares the length first: a job line has ~60 fields
  if (k == "JobId") job.id = in.integer(f, 1);
  else if (k == "JobState") job.state = f.value;
  else if (k == "Reason") job.reason = f.value;
  else if (k == "Partition") job.partition = f.value;
  else if (k == "Comment") job.comment = f.value == "(null)" ? "" : f.value;
  else if (k == "AdminComment") job.admin_comment = f.value == "(null)" ? "" : f.value;
  else if (k == "Reservation") job.reservation = f.value == "(null)" ? "" : f.value;
  else if (k == "Licenses") job.licenses = f.value == "(null)" ? "" : f.value;
  else if (k == "Priority") job.priority = in.integer(f, 0);
  else if (k == "NumTasks" && f.value != "N/A") job.num_tasks = static_cast<std::int32_t>(in.integer(f, 0));
  else if (k == "MinCPUsNode") job.min_cpus_node = static_cast<std::int32_t>(in.integer(f, 0));
  else if (k == "SubmitTime") job.submit_epoch = parse_slurm_timestamp(f.value);
  else if (k == "StartTime") job.start_epoch = parse_slurm_timestamp(f.value);
  else if (k == "TimeLimit") job.time_limit = in.time_limit(f);
  else if (k == "NumNodes") {
    in.range(f, job.nodes_min, job.nodes_max);
    job.num_nodes_text = f.value;
  }
  else if (k == "NumCPUs") job.cpus = static_cast<std::int32_t>(in.integer(f, 0));
  else if (k == "CPUs/Task") job.cpus_per_task = static_cast<std::int32_t>(in.integer(f, 1));
  else if (k == "NtasksPerN:B:S:C")
    job.ntasks_per_node = static_cast<std::int32_t>(
        in.number_in(f, f.value.substr(0, f.value.find(':')), 0));
  else if (k == "Contiguous") job.contiguous = in.integer(f, 0) != 0;
  else if (k == "TresPerNode") {
    job.gres_per_node = in.gres_list(f);
    job.tres_per_node_text = f.value;
  } else if (k == "ReqNodeList") {
    job.req_nodes = in.hosts(f);
    job.req_nodes_text = job.req_nodes.empty() ? "" : f.value;
  }
  else if (k == "MinMemoryNode") job.min_mem_per_node_mb = in.memory_mb(f);
  else if (k == "MinMemoryCPU") job.min_mem_per_cpu_mb = in.memory_mb(f);
  else if (k == "Nodes") job.shares.push_back({in.hosts(f), 0, {}, 0});
  else if (k == "Mem" && !job.shares.empty())
    job.shares.back().mem_mb = in.memory_mb(f);
  else if (k == "CPU_IDs" && !job.shares.empty()) job.shares.back().cores = in.cpu_count(f);
  else if (k == "GRES" && !job.shares.empty()) job.shares.back().gres = in.gres_list(f);
  else if (k == "ArrayJobId") job.array_job_id = in.integer(f, 1);
  else if (k == "ArrayTaskId") job.array_tasks = f.value;
  else if (k == "ArrayTaskThrottle") job.array_throttle = static_cast<std::int32_t>(in.integer(f, 0));
  else if (k == "HetJobId") job.het_job_id = in.integer(f, 1);
  else if (k == "Dependency") job.dependency = f.value == "(null)" ? "" : f.value;
  else if (k == "EligibleTime") job.eligible_epoch = parse_slurm_timestamp(f.value);
  else if (k == "Restarts") job.restarts = static_cast<std::int32_t>(in.integer(f, 0));
  else if (k == "EndTime") job.end_epoch = parse_slurm_timestamp(f.value);
  else if (k == "Features") job.features = f.value == "(null)" ? "" : f.value;
  else if (k == "ExcNodeList") {
    job.exclude_nodes = in.hosts(f);
    job.exclude_nodes_text = job.exclude_nodes.empty() ? "" : f.value;
  }
  else if (k == "TresPerJob") job.gres_per_job = in.gres_list(f);
  else if (k == "TresPerTask") job.gres_per_task = in.gres_list(f);
  else if (k == "TresPerSocket" || k == "CpusPerTres" || k == "MemPerTres") {
    const char* option = k == "CpusPerTres" ? "--cpus-per-gpu" : k == "MemPerTres" ? "--mem-per-gpu" : "--gpus-per-socket";
    job.other_tres += (job.other_tres.empty() ? "" : ", ") + std::string(option) + " (" + f.key + "=" + f.value + ")";
  }
  else if (k == "OverSubscribe") job.exclusive = f.value == "NO" || f.value == "USER" || f.value == "MCS";
}

}  // namespace

std::string LiveJob::target() const {
  if (array_job_id <= 0 || array_tasks.empty()) return std::to_string(id);
  const std::size_t digits = array_tasks.find_first_not_of("0123456789");
  if (digits == 0) return std::to_string(id);
  return std::to_string(array_job_id) + "_" + array_tasks.substr(0, digits);
}

namespace {

// The epoch of a local "YYYY-MM-DDTHH" hour. mktime reads the time zone again on every call
// (a stat of /etc/localtime, most of a listing's reading time), so each hour is asked once;
// the hours Slurm prints in one listing are few.
std::int64_t local_hour_epoch(int year, int month, int day, int hour) {
  static thread_local std::map<std::int64_t, std::int64_t> known;
  const std::int64_t key = ((std::int64_t{year} * 100 + month) * 100 + day) * 100 + hour;
  if (auto it = known.find(key); it != known.end()) return it->second;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_isdst = -1;  // Slurm prints local time; mktime makes it comparable with time()
  const std::int64_t epoch = static_cast<std::int64_t>(std::mktime(&tm));
  if (known.size() >= 4096) known.clear();
  known.emplace(key, epoch);
  return epoch;
}

// The number of `width` digits at `at` in `text`, or -1.
int digits_at(std::string_view text, std::size_t at, std::size_t width) {
  if (at + width > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::int64_t parse_slurm_timestamp(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS, exactly as Slurm prints it.
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':')
    return -1;
  const int year = digits_at(text, 0, 4), month = digits_at(text, 5, 2), day = digits_at(text, 8, 2);
  const int hour = digits_at(text, 11, 2), minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 ||
      minute < 0 || minute > 59 || second < 0 || second > 60)
    return -1;
  return local_hour_epoch(year, month, day, hour) + minute * 60 + second;
}

std::vector<LiveJob> parse_scontrol_jobs(std::string_view text, const std::string& source) {
  std::vector<LiveJob> jobs;
  HostlistBudget budget;
  for_each_record(text, [&](long line, const std::vector<Field>& fields) {
    const LineReader in(source, line, budget);
    LiveJob job;
    for (const Field& f : fields) apply_field(in, f, job);
    if (job.id == 0) throw InputError(in.where(), "JobId", "", "line has no JobId");
    if (job.state.empty()) throw InputError(in.where(), "JobState", "", "line has no JobState");
    if (!job.holds_resources()) job.start_epoch = -1;
    if (!job.ended()) job.end_epoch = -1;
    jobs.push_back(std::move(job));
  });
  return jobs;
}

}  // namespace hs::bridge
