#pragma once
// Job duration predictors of Netti et al. §2.3: what a scheduler believes a job will take.
//   walltime   - the job's wall-time limit (its -t, else the queue default / maximum);
//   datadriven - the last observed duration of the same user's job with the same profile
//                (name, request, queue), capped by the job's limit and the queue maximum;
//                without a match the queue's default wall-time, else the job's limit;
//   oracle     - the real duration, min(run time, limit), for comparison only.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/cluster.hpp"
#include "model/job.hpp"
#include "sim/simulator.hpp"
#include "util/params.hpp"

namespace hs::heuristic {

class DurationPredictor {
 public:
  virtual ~DurationPredictor() = default;
  virtual std::string name() const = 0;
  // Predicted duration in seconds (>= 1) for a job about to be queued.
  virtual Time predict(const Cluster& cluster, const Job& job) = 0;
  // A job ended after running `duration` seconds.
  virtual void learn(const Job& job, Time duration) { (void)job, (void)duration; }
};

struct NamedItem {
  std::string name;
  std::string description;
};

std::vector<NamedItem> predictor_list();
// Throws InputError for an unknown name.
std::unique_ptr<DurationPredictor> make_predictor(std::string_view name, Params& params);

// The job's wall-time limit (bound jobs always have one), at least 1 s.
Time walltime_of(const Job& job);
// What the job really runs: min(run time, limit), at least 1 s.
Time true_duration_of(const Job& job);

struct PredictionError {
  std::string predictor;
  std::int64_t jobs = 0;
  double mean_abs_error_s = 0;  // mean |predicted - real| over the jobs
};

// Mean absolute error of every predictor on a workload, replayed in submit order. A job's
// duration becomes known at its end: taken from `result` when given (jobs it did not run
// are skipped), otherwise assuming every job started at its submission.
std::vector<PredictionError> prediction_errors(const Cluster& cluster, const Workload& workload,
                                               const SimResult* result = nullptr);

}  // namespace hs::heuristic
