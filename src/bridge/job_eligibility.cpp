#include "bridge/job_eligibility.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

namespace hs::bridge {

namespace {

JobDirectory::Facts facts_of(const LiveJob& live) {
  JobDirectory::Facts f;
  f.id = live.id;
  f.array_job_id = live.array_job_id;
  f.array_tasks = live.array_tasks;
  f.state = live.state;
  f.start_epoch = live.start_epoch;
  f.end_epoch = live.end_epoch;
  f.pending = live.pending();
  f.held = live.held();
  f.ended = live.ended();
  return f;
}

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < 0) return std::nullopt;
  return v;
}

struct TaskRange {
  std::int64_t lo = 0, hi = 0, step = 1;
};

// The ranges of an ArrayTaskId text ("3", "0-9%2", "1,4-6", "1-9:2"), as printed; a
// malformed item is skipped.
std::vector<TaskRange> task_ranges(std::string_view tasks) {
  std::vector<TaskRange> ranges;
  tasks = tasks.substr(0, tasks.find('%'));
  while (!tasks.empty()) {
    const std::size_t comma = tasks.find(',');
    std::string_view item = tasks.substr(0, comma);
    tasks = comma == std::string_view::npos ? std::string_view{} : tasks.substr(comma + 1);
    const std::size_t colon = item.find(':');
    const auto step = colon == std::string_view::npos ? std::optional<std::int64_t>(1) : number(item.substr(colon + 1));
    item = item.substr(0, colon);
    const std::size_t dash = item.find('-');
    const auto lo = number(item.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : number(item.substr(dash + 1));
    if (lo && hi && step && *step > 0 && *lo <= *hi) ranges.push_back({*lo, *hi, *step});
  }
  return ranges;
}

bool holds_task(std::string_view tasks, std::int64_t t) {
  for (const TaskRange& r : task_ranges(tasks))
    if (r.lo <= t && t <= r.hi && (t - r.lo) % r.step == 0) return true;
  return false;
}

}  // namespace

std::string throttle_reason(std::int64_t array_id, std::int32_t throttle) {
  return "array " + std::to_string(array_id) + " runs its limit of " + std::to_string(throttle) + " tasks at once";
}

std::vector<std::int64_t> first_array_tasks(std::string_view tasks, std::size_t count) {
  std::vector<std::int64_t> out;
  for (const TaskRange& r : task_ranges(tasks))
    for (std::int64_t t = r.lo; out.size() < count; t += r.step) {
      out.push_back(t);
      if (r.hi - t < r.step) break;  // the range's last (no overflow near the top of int64)
    }
  return out;
}

void JobDirectory::add_member(const Facts& f) {
  if (f.array_job_id <= 0) return;
  auto [lo, hi] = array_members_.equal_range(f.array_job_id);
  if (std::none_of(lo, hi, [&](const auto& m) { return m.second == f.id; }))
    array_members_.emplace(f.array_job_id, f.id);
}

void JobDirectory::read(const std::vector<LiveJob>& listing) {
  listed_.clear();
  if (ended_.size() > kEndedKept) {  // forget the oldest ids (Slurm's ids grow)
    auto cut = ended_.begin();
    std::advance(cut, static_cast<std::ptrdiff_t>(ended_.size() - kEndedKept / 2));
    ended_.erase(ended_.begin(), cut);
  }
  for (auto it = array_members_.begin(); it != array_members_.end();)  // keep ended members only
    it = ended_.count(it->second) ? std::next(it) : array_members_.erase(it);
  for (const LiveJob& live : listing) {
    const Facts f = facts_of(live);
    listed_[f.id] = f;
    if (f.ended) ended_[f.id] = f;
    add_member(f);
  }
}

std::vector<const JobDirectory::Facts*> JobDirectory::records_of(std::int64_t id) const {
  auto lookup = [&](std::int64_t j) -> const Facts* {
    if (auto it = listed_.find(j); it != listed_.end()) return &it->second;
    if (auto it = ended_.find(j); it != ended_.end()) return &it->second;
    return nullptr;
  };
  std::vector<const Facts*> out;
  auto [lo, hi] = array_members_.equal_range(id);
  for (auto it = lo; it != hi; ++it)
    if (const Facts* f = lookup(it->second)) out.push_back(f);
  if (out.empty())
    if (const Facts* f = lookup(id)) out.push_back(f);
  return out;
}

const JobDirectory::Facts* JobDirectory::task(std::int64_t array_id, std::int64_t t) const {
  const Facts* holder = nullptr;
  for (const Facts* f : records_of(array_id)) {
    if (f->array_job_id != array_id || !holds_task(f->array_tasks, t)) continue;
    if (f->array_tasks.find_first_not_of("0123456789") == std::string::npos) return f;  // its own record
    holder = f;
  }
  return holder;
}

int JobDirectory::held_split_tasks(std::int64_t array_id) const {
  int held = 0;
  for (const Facts* f : records_of(array_id))
    if (f->array_job_id == array_id && f->pending && f->held &&
        f->array_tasks.find_first_not_of("0123456789") == std::string::npos)
      ++held;
  return held;
}

int JobDirectory::active_tasks(std::int64_t array_id) const {
  int active = 0;
  for (const Facts* f : records_of(array_id))
    if (f->array_job_id == array_id && !f->ended && !(f->pending && f->held)) ++active;
  return active;
}

namespace {

enum class Cond { Met, Unmet, Impossible, Unknown };

struct DependencyItem {
  std::string type;
  std::string target;  // "12", "12_3", "12_*"
  std::int64_t delay_s = 0;
  std::string mark;    // Slurm's own verdict on the part: "failed", "fulfilled", "unfulfilled"
};

// Met / Unmet / Impossible for one condition on a set of records (one job, or an array's).
Cond condition_on(const std::string& type, const std::vector<const JobDirectory::Facts*>& records,
                  std::int64_t delay_s, Time now) {
  if (records.empty()) return Cond::Met;  // purged: Slurm lifts the dependency
  bool all_ended = true, any_pending = false, any_failed = false, all_completed = true;
  std::int64_t latest = 0;
  for (const JobDirectory::Facts* f : records) {
    all_ended = all_ended && f->ended;
    any_pending = any_pending || f->pending;
    const bool completed = f->ended && f->state == "COMPLETED";
    all_completed = all_completed && completed;
    any_failed = any_failed || (f->ended && !completed);
    const std::int64_t mark = type == "after" ? std::max(f->start_epoch, f->end_epoch) : f->end_epoch;
    latest = std::max(latest, mark);
  }
  Cond c = Cond::Unmet;
  if (type == "after") c = any_pending ? Cond::Unmet : Cond::Met;
  else if (type == "afterany") c = all_ended ? Cond::Met : Cond::Unmet;
  else if (type == "afterok") c = any_failed ? Cond::Impossible : all_ended ? Cond::Met : Cond::Unmet;
  else if (type == "afternotok")
    c = all_ended ? (any_failed ? Cond::Met : Cond::Impossible) : Cond::Unmet;
  else return Cond::Unknown;
  if (c == Cond::Met && delay_s > 0 && (latest <= 0 || now < latest + delay_s)) c = Cond::Unmet;
  return c;
}

Cond condition(const DependencyItem& item, const JobDirectory& jobs, Time now) {
  // Slurm's "(failed)" is final and outlives the named job's record, which a restarted
  // bridge may never have seen; its "(fulfilled)" likewise.
  if (item.mark == "failed") return Cond::Impossible;
  if (item.mark == "fulfilled") return Cond::Met;
  const std::size_t underscore = item.target.find('_');
  const auto id = number(std::string_view(item.target).substr(0, underscore));
  if (!id) return Cond::Unknown;
  if (underscore == std::string::npos || item.target.substr(underscore + 1) == "*")
    return condition_on(item.type, jobs.records_of(*id), item.delay_s, now);
  const auto t = number(std::string_view(item.target).substr(underscore + 1));
  if (!t) return Cond::Unknown;
  const JobDirectory::Facts* record = jobs.task(*id, *t);
  std::vector<const JobDirectory::Facts*> one;
  if (record) one.push_back(record);
  return condition_on(item.type, one, item.delay_s, now);
}

// "afterok:12_*(unfulfilled)" or "after:5+10:6" -> items; false when it cannot be read.
bool read_part(std::string part, std::vector<DependencyItem>& items) {
  std::string mark;
  if (const std::size_t paren = part.find('('); paren != std::string::npos) {
    mark = part.substr(paren + 1, part.find(')', paren) - paren - 1);
    part.resize(paren);
  }
  const std::size_t colon = part.find(':');
  if (colon == std::string::npos) return false;
  const std::string type = part.substr(0, colon);
  std::string_view rest = std::string_view(part).substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t next = rest.find(':');
    std::string_view one = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    DependencyItem item{type, std::string(one.substr(0, one.find('+'))), 0, mark};
    if (const std::size_t plus = one.find('+'); plus != std::string_view::npos) {
      const auto minutes = number(one.substr(plus + 1));
      if (!minutes) return false;
      item.delay_s = *minutes * 60;
    }
    if (item.target.empty()) return false;
    items.push_back(std::move(item));
  }
  return !items.empty();
}

// The dependency without Slurm's "(unfulfilled)" marks, which it updates on held jobs late.
std::string without_marks(const std::string& text) {
  std::string out;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    else if (c == ')') depth = std::max(0, depth - 1);
    else if (depth == 0) out += c;
  }
  return out;
}

EligibilityVerdict dependency_verdict(const std::string& text, const JobDirectory& jobs, Time now) {
  const bool any_of = text.find('?') != std::string::npos;
  if (any_of && text.find(',') != std::string::npos)
    return {Eligibility::SlurmOnly, "dependency '" + without_marks(text) + "' mixes ',' and '?'"};
  bool unmet = false, impossible = false, met = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find(any_of ? '?' : ',', start);
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? text.size() + 1 : end + 1;
    std::vector<DependencyItem> items;
    if (!read_part(part, items))
      return {Eligibility::SlurmOnly, "dependency '" + without_marks(part) + "' is Slurm's to decide"};
    for (const DependencyItem& item : items) {
      const Cond c = condition(item, jobs, now);
      if (c == Cond::Unknown)
        return {Eligibility::SlurmOnly, "dependency '" + without_marks(part) + "' is Slurm's to decide"};
      met = met || c == Cond::Met;
      unmet = unmet || c == Cond::Unmet;
      impossible = impossible || c == Cond::Impossible;
    }
  }
  const std::string shown = "dependency " + without_marks(text);
  if (any_of) {
    if (met) return {};
    if (unmet) return {Eligibility::Waits, "waits for " + shown};
    return {Eligibility::Never, shown + " can never be satisfied"};
  }
  if (impossible) return {Eligibility::Never, shown + " can never be satisfied"};
  if (unmet) return {Eligibility::Waits, "waits for " + shown};
  return {};
}

}  // namespace

EligibilityVerdict judge_eligibility(const LiveJob& job, const JobDirectory& jobs, Time now) {
  if (job.het_job_id > 0)
    return {Eligibility::SlurmOnly,
            "a component of heterogeneous job " + std::to_string(job.het_job_id) +
                " (its components start together; the bridge pins single jobs)"};
  if (!job.dependency.empty()) {
    EligibilityVerdict v = dependency_verdict(job.dependency, jobs, now);
    if (v.kind != Eligibility::Now) return v;
  }
  if (job.eligible_epoch > now)
    return {Eligibility::Waits, "waits for its begin time (" + std::to_string(job.eligible_epoch - now) + " s)"};
  if (job.array_job_id > 0 && job.array_throttle > 0 &&
      jobs.active_tasks(job.array_job_id) >= job.array_throttle)
    return {Eligibility::Waits, throttle_reason(job.array_job_id, job.array_throttle)};
  return {};
}

}  // namespace hs::bridge
