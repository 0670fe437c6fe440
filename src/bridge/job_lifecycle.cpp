#include "bridge/job_lifecycle.hpp"

#include <algorithm>

namespace hs::bridge {

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::Unmanaged: return "unmanaged";
    case Phase::Queued: return "queued";
    case Phase::Interrupted: return "interrupted";
    case Phase::Released: return "released";
    case Phase::Running: return "running";
    case Phase::Ended: return "ended";
  }
  return "unmanaged";
}

bool in_partition(const std::string& partitions, const std::string& partition) {
  if (partition.empty()) return true;
  std::size_t start = 0;
  while (start <= partitions.size()) {
    const std::size_t comma = std::min(partitions.find(',', start), partitions.size());
    if (partitions.compare(start, comma - start, partition) == 0) return true;
    start = comma + 1;
  }
  return false;
}

Observation observe(const LiveJob& live, const std::string& partition) {
  Observation seen;
  seen.marker = decode_marker(live.admin_comment);
  if (live.holds_resources()) {
    seen.phase = Phase::Running;
    return seen;
  }
  if (!live.pending()) {
    seen.phase = Phase::Ended;
    return seen;
  }
  if (!in_partition(live.partition, partition)) return seen;
  const bool pinned = seen.marker && seen.marker->phase == MarkedPhase::Pinned;
  if (!live.held()) {
    if (pinned) seen.phase = Phase::Released;
    return seen;
  }
  if (pinned) seen.phase = Phase::Interrupted;
  else if (held_by_its_owner(live)) return seen;  // theirs until they release it
  else if (live.held_by_user() || (seen.marker && live.held_for_the_bridge())) seen.phase = Phase::Queued;
  // else: held by an operator or by Slurm itself (a reservation deleted under a job the
  // bridge handed over, a requeue hold of one Slurm ran): theirs to release.
  return seen;
}

bool held_by_its_owner(const LiveJob& live) {
  return live.held() && live.comment.rfind(kUserHoldComment, 0) == 0;
}

Observation observe_shadow(const LiveJob& live, const std::string& partition) {
  Observation seen;
  if (live.holds_resources()) seen.phase = Phase::Running;
  else if (!live.pending()) seen.phase = Phase::Ended;
  else if (in_partition(live.partition, partition)) seen.phase = Phase::Queued;
  return seen;
}

namespace {

Step update(const std::string& target, std::vector<std::string> fields, bool required = true) {
  Step step{{"scontrol", "update", "JobId=" + target}, required};
  for (std::string& f : fields) step.argv.push_back(std::move(f));
  return step;
}

Step mark(const std::string& target, const JobMarker& marker, bool required = true) {
  return update(target, {"AdminComment=" + encode_marker(marker)}, required);
}

Step restore(const std::string& target, const OriginalRequest& original) {
  Step step{{"scontrol", "update"}, true};
  for (std::string& a : restoring_arguments(target, original)) step.argv.push_back(std::move(a));
  return step;
}

}  // namespace

std::vector<Step> start_steps(const std::string& target, const std::vector<std::string>& pinning,
                              const OriginalRequest& original, Time now) {
  Step pin{{"scontrol", "update"}, true};
  pin.argv.insert(pin.argv.end(), pinning.begin(), pinning.end());
  return {mark(target, {MarkedPhase::Pinned, now, original, ""}), pin,
          {{"scontrol", "release", target}, true},
          update(target, {"Priority=" + std::to_string(kReleasedPriority)}, false)};
}

std::vector<Step> restore_steps(const LiveJob& live, const OriginalRequest& original, Time now) {
  const std::string target = live.target();
  if (live.held() && !live.held_by_user())
    return {restore(target, original), update(target, {"AdminComment="})};
  return {restore(target, original), mark(target, {MarkedPhase::Held, now, {}, ""})};
}

std::vector<Step> rehold_steps(const std::string& target, const OriginalRequest& original, Time now) {
  return {{{"scontrol", "uhold", target}, true},
          restore(target, original),
          mark(target, {MarkedPhase::Held, now, {}, ""})};
}

namespace {

// The user's comment inside ours carries no '=' ("%3D"), since `scontrol show job` prints
// it unquoted and a token with '=' would read as the next field.
std::string escape_equals(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '%' ? "%25" : c == '=' ? "%3D" : std::string(1, c);
  return out;
}

std::string unescape_equals(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "%3D") == 0) { out += '='; i += 2; }
    else if (text.compare(i, 3, "%25") == 0) { out += '%'; i += 2; }
    else out += text[i];
  }
  return out;
}

}  // namespace

std::string user_comment(const std::string& comment) {
  if (comment.rfind(kRefusalCommentPrefix, 0) != 0) return comment;
  const std::size_t mark = comment.find(kUserCommentMark);
  if (mark == std::string::npos) return "";
  return unescape_equals(comment.substr(mark + std::string(kUserCommentMark).size()));
}

std::vector<Step> refuse_steps(const LiveJob& live, const std::string& reason, Time now) {
  const std::string own = user_comment(live.comment);
  std::string shown = kRefusalComment + sanitize_reason(reason);
  if (!own.empty()) shown += kUserCommentMark + escape_equals(own);
  return {mark(live.target(), {MarkedPhase::Refused, now, {}, reason}),
          update(live.target(), {"Comment=" + shown}, false)};
}

std::vector<Step> accept_steps(const LiveJob& live, Time now) {
  std::vector<Step> steps = {mark(live.target(), {MarkedPhase::Held, now, {}, ""}, false)};
  if (live.comment.rfind(kRefusalCommentPrefix, 0) == 0)
    steps.push_back(update(live.target(), {"Comment=" + user_comment(live.comment)}, false));
  return steps;
}

std::vector<Step> split_task_steps(std::int64_t array_id, const std::vector<std::int64_t>& tasks, Time now) {
  std::vector<Step> steps;
  for (std::int64_t t : tasks)  // each on its own: a task gone meanwhile does not stop the rest
    steps.push_back(mark(std::to_string(array_id) + "_" + std::to_string(t), {MarkedPhase::Held, now, {}, ""}, false));
  return steps;
}

std::vector<Step> hand_over_steps(const std::string& target) {
  return {{{"scontrol", "release", target}, true}};
}

}  // namespace hs::bridge
