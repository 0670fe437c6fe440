#include "policy/heuristic/predictors.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include "util/error.hpp"

namespace hs::heuristic {

Time walltime_of(const Job& job) { return std::max<Time>(1, job.req.time_limit); }

Time true_duration_of(const Job& job) {
  return std::max<Time>(1, std::min(job.run_time, job.req.time_limit));
}

namespace {

class WalltimePredictor final : public DurationPredictor {
 public:
  std::string name() const override { return "walltime"; }
  Time predict(const Cluster&, const Job& job) override { return walltime_of(job); }
};

class OraclePredictor final : public DurationPredictor {
 public:
  std::string name() const override { return "oracle"; }
  Time predict(const Cluster&, const Job& job) override { return true_duration_of(job); }
};

// Same user, same job name, same request, same queue.
std::string profile_key(const Job& job) {
  const JobRequest& r = job.req;
  std::string key = job.user + '\x1f' + job.name + '\x1f' + job.partition;
  for (std::int64_t v : {std::int64_t{r.ntasks}, std::int64_t{r.nodes_min},
                         std::int64_t{r.nodes_max}, std::int64_t{r.ntasks_per_node},
                         r.mem_per_node_mb})
    key += '\x1f' + std::to_string(v);
  for (const GresRequest& g : r.gres)
    key += '\x1f' + g.kind_name() + ':' + std::to_string(g.per_node_min) + '-' +
           std::to_string(g.per_node_max);
  return key;
}

class DataDrivenPredictor final : public DurationPredictor {
 public:
  std::string name() const override { return "datadriven"; }

  Time predict(const Cluster& cluster, const Job& job) override {
    const Partition* queue = cluster.find_partition(job.partition);
    Time cap = walltime_of(job);
    if (queue && queue->max_time != kNoTime) cap = std::min(cap, queue->max_time);
    const auto it = last_.find(profile_key(job));
    if (it != last_.end()) return std::max<Time>(1, std::min(it->second, cap));
    if (queue && queue->default_time != kNoTime)
      return std::max<Time>(1, std::min(queue->default_time, cap));
    return cap;
  }

  void learn(const Job& job, Time duration) override { last_[profile_key(job)] = duration; }

 private:
  std::map<std::string, Time> last_;
};

}  // namespace

std::vector<NamedItem> predictor_list() {
  return {
      {"walltime", "the job's wall-time limit (its -t, else the queue default / maximum)"},
      {"datadriven",
       "last duration of the same user's job with the same name, request and queue, capped by "
       "the limit; else the queue default"},
      {"oracle", "the real duration (for comparison; not available to a real scheduler)"},
  };
}

std::unique_ptr<DurationPredictor> make_predictor(std::string_view name, Params&) {
  if (name == "walltime") return std::make_unique<WalltimePredictor>();
  if (name == "datadriven") return std::make_unique<DataDrivenPredictor>();
  if (name == "oracle") return std::make_unique<OraclePredictor>();
  throw InputError({"<scheduler spec>", 0}, "predictor", std::string(name),
                   "unknown predictor (walltime|datadriven|oracle)");
}

namespace {

struct KnownEnd {
  Time end;
  JobRef job;
  Time duration;
  bool operator>(const KnownEnd& o) const { return end != o.end ? end > o.end : job > o.job; }
};

// Jobs in submit order with the end time and duration the replay learns from.
std::vector<KnownEnd> replay_ends(const Workload& workload, const SimResult* result) {
  std::vector<KnownEnd> ends;
  for (JobRef j = 0; j < static_cast<JobRef>(workload.jobs.size()); ++j) {
    const Job& job = workload.jobs[j];
    if (!result) {
      ends.push_back({job.submit + true_duration_of(job), j, true_duration_of(job)});
      continue;
    }
    const JobRecord& rec = result->records[j];
    if (rec.status == JobStatus::Completed || rec.status == JobStatus::Killed)
      ends.push_back({rec.end, j, std::max<Time>(1, rec.end - rec.start)});
    else
      ends.push_back({-1, j, -1});  // never ran: skipped
  }
  return ends;
}

PredictionError replay_one(const Cluster& cluster, const Workload& workload,
                           const std::vector<KnownEnd>& ends, DurationPredictor& predictor) {
  std::priority_queue<KnownEnd, std::vector<KnownEnd>, std::greater<>> pending_ends;
  PredictionError err{predictor.name(), 0, 0};
  double sum = 0;
  for (const KnownEnd& e : ends) {
    if (e.duration < 0) continue;
    const Job& job = workload.jobs[e.job];
    while (!pending_ends.empty() && pending_ends.top().end <= job.submit) {
      predictor.learn(workload.jobs[pending_ends.top().job], pending_ends.top().duration);
      pending_ends.pop();
    }
    sum += std::abs(static_cast<double>(predictor.predict(cluster, job) - e.duration));
    ++err.jobs;
    pending_ends.push(e);
  }
  err.mean_abs_error_s = err.jobs > 0 ? sum / static_cast<double>(err.jobs) : 0.0;
  return err;
}

}  // namespace

std::vector<PredictionError> prediction_errors(const Cluster& cluster, const Workload& workload,
                                               const SimResult* result) {
  const std::vector<KnownEnd> ends = replay_ends(workload, result);
  std::vector<PredictionError> out;
  Params none;
  for (const NamedItem& item : predictor_list()) {
    auto predictor = make_predictor(item.name, none);
    out.push_back(replay_one(cluster, workload, ends, *predictor));
  }
  return out;
}

}  // namespace hs::heuristic
