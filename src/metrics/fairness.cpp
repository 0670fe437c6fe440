#include "metrics/fairness.hpp"

#include <algorithm>
#include <map>

#include "metrics/job_metrics.hpp"

namespace hs {

namespace {

struct Sums {
  std::int64_t jobs = 0;
  double wait = 0, bsld = 0;
  void add(const JobTiming& t) {
    ++jobs;
    wait += static_cast<double>(t.wait);
    bsld += t.bounded_slowdown;
  }
  double bsld_mean() const { return jobs > 0 ? bsld / static_cast<double>(jobs) : 0.0; }
};

// (sum x)^2 / (n sum x^2): 1 when every x is equal, 1/n when one x holds everything.
double jain_index(const std::vector<double>& x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  return squares > 0 ? sum * sum / (static_cast<double>(x.size()) * squares) : 1.0;
}

std::vector<std::string> class_names(const Cluster& cluster) {
  std::vector<std::string> names;
  if (!cluster.gres_types.empty()) names = {"cpu", "gres"};
  for (const char* size : {"small", "medium", "large"}) names.emplace_back(size);
  return names;
}

}  // namespace

const char* job_size_class(const Job& job, std::int64_t total_cores) {
  const std::int64_t cores = job.req.ntasks;
  if (cores * 32 <= total_cores) return "small";
  if (cores * 4 <= total_cores) return "medium";
  return "large";
}

Fairness measure_fairness(const Cluster& cluster, const Workload& workload,
                          const SimResult& result) {
  std::map<std::string, Sums> by_user, by_class;
  const std::int64_t total_cores = cluster.total_cores();
  for (std::size_t j = 0; j < workload.jobs.size(); ++j) {
    const JobRecord& r = result.records[j];
    if (!job_ran(r)) continue;
    const Job& job = workload.jobs[j];
    const JobTiming t = job_timing(job, r);
    by_user[job.user].add(t);
    if (!cluster.gres_types.empty()) by_class[job.req.gres.empty() ? "cpu" : "gres"].add(t);
    by_class[job_size_class(job, total_cores)].add(t);
  }
  Fairness f;
  std::vector<double> user_means;
  for (const auto& [user, sums] : by_user) user_means.push_back(sums.bsld_mean());
  f.users = static_cast<std::int64_t>(user_means.size());
  f.user_jain = jain_index(user_means);
  for (double m : user_means) f.user_worst_bsld = std::max(f.user_worst_bsld, m);
  for (const std::string& name : class_names(cluster)) {
    const Sums& s = by_class[name];
    const double n = static_cast<double>(std::max<std::int64_t>(s.jobs, 1));
    f.classes.push_back({name, s.jobs, s.wait / n, s.bsld / n});
  }
  return f;
}

}  // namespace hs
