#include <gtest/gtest.h>

#include "heuristic_fixtures.hpp"
#include "policy/heuristic/predictors.hpp"

namespace hs::heuristic {
namespace {

using testing::make_cluster;

Cluster queue_cluster() {
  Cluster c = make_cluster({{4}, {4}});
  Partition q;
  q.name = "q";
  q.nodes = {0, 1};
  q.default_time = 600;
  q.max_time = 3600;
  q.is_default = true;
  c.partitions.push_back(q);
  return c;
}

Job job_in(const Cluster& c, const std::string& name, Time run, Time limit) {
  Job j;
  j.id = 1;
  j.name = name;
  j.user = "alice";
  j.partition = "q";
  j.run_time = run;
  j.req.ntasks = 2;
  j.req.time_limit = limit;
  EXPECT_FALSE(bind_to_cluster(c, j));
  return j;
}

std::unique_ptr<DurationPredictor> make(std::string_view name) {
  Params p;
  return make_predictor(name, p);
}

TEST(Predictors, WalltimeAndOracle) {
  const Cluster c = queue_cluster();
  const Job j = job_in(c, "a", 100, 3000);
  EXPECT_EQ(make("walltime")->predict(c, j), 3000);
  EXPECT_EQ(make("oracle")->predict(c, j), 100);
  const Job over = job_in(c, "a", 5000, 3000);
  EXPECT_EQ(make("oracle")->predict(c, over), 3000);  // killed at its limit
  const Job no_limit = job_in(c, "a", 100, 0);       // bound to the queue default
  EXPECT_EQ(make("walltime")->predict(c, no_limit), 600);
}

TEST(Predictors, DataDrivenUsesTheLastDurationOfTheSameProfile) {
  const Cluster c = queue_cluster();
  auto dd = make("datadriven");
  const Job a = job_in(c, "a", 100, 3000);
  EXPECT_EQ(dd->predict(c, a), 600);  // no history: queue default
  dd->learn(a, 1200);
  EXPECT_EQ(dd->predict(c, a), 1200);
  dd->learn(a, 700);
  EXPECT_EQ(dd->predict(c, a), 700);  // the last one, not an average
  EXPECT_EQ(dd->predict(c, job_in(c, "b", 100, 3000)), 600);  // other name
  Job other_user = a;
  other_user.user = "bob";
  EXPECT_EQ(dd->predict(c, other_user), 600);
  Job bigger = a;
  bigger.req.ntasks = 4;
  EXPECT_EQ(dd->predict(c, bigger), 600);  // other request
  dd->learn(a, 5000);
  EXPECT_EQ(dd->predict(c, a), 3000);  // capped by the job's limit
  const Job short_limit = job_in(c, "a", 100, 300);
  EXPECT_EQ(dd->predict(c, short_limit), 300);  // default capped by the limit too
}

TEST(Predictors, MeanAbsoluteErrorOnAReplay) {
  const Cluster c = make_cluster({{4}});
  Workload w;
  for (int i = 0; i < 3; ++i) {
    Job j;
    j.id = i + 1;
    j.name = "same";
    j.user = "u";
    j.submit = 1000 * i;
    j.run_time = 100 * (i + 1);
    j.req.ntasks = 1;
    j.req.time_limit = 1000;
    ASSERT_FALSE(bind_to_cluster(c, j));
    w.jobs.push_back(j);
  }
  const auto errors = prediction_errors(c, w);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].predictor, "walltime");
  EXPECT_DOUBLE_EQ(errors[0].mean_abs_error_s, (900.0 + 800.0 + 700.0) / 3);
  EXPECT_EQ(errors[1].predictor, "datadriven");
  EXPECT_DOUBLE_EQ(errors[1].mean_abs_error_s, (900.0 + 100.0 + 100.0) / 3);
  EXPECT_EQ(errors[2].predictor, "oracle");
  EXPECT_DOUBLE_EQ(errors[2].mean_abs_error_s, 0.0);
  EXPECT_EQ(errors[2].jobs, 3);
}

TEST(Predictors, UnknownNameIsAnInputError) {
  Params p;
  EXPECT_THROW(make_predictor("crystal-ball", p), InputError);
}

}  // namespace
}  // namespace hs::heuristic
