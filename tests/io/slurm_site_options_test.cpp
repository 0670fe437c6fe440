#include "io/slurm_site_options.hpp"

#include <algorithm>

#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using testing::scratch_dir;
using testing::write_file;

std::string option(const SiteOptions& site, const std::string& key) {
  for (const OptionDefault& d : site.options)
    if (d.key == key) return d.value;
  return "<unset>";
}

bool has_warning(const SiteOptions& site, const std::string& text) {
  return std::any_of(site.warnings.begin(), site.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

SlurmConfig conf_with(const std::string& name, const std::string& settings) {
  const auto dir = scratch_dir(name);
  return load_slurm_conf(write_file(dir / "slurm.conf", settings + "NodeName=n[1-4] CPUs=8\n"));
}

TEST(SlurmSiteOptions, SchedulerAndPriorityKeysBecomeModelOptions) {
  const SlurmConfig conf = conf_with(
      "site-options",
      "SchedulerType=sched/builtin\n"
      "SchedulerParameters=bf_window=120,bf_continue,BF_INTERVAL=15,bf_max_job_test=50,"
      "bf_job_part_count_reserve=3,default_queue_depth=7,sched_interval=20,batch_sched_delay=1\n"
      "PriorityType=priority/multifactor\nPriorityMaxAge=2-12\nPriorityCalcPeriod=10\n"
      "PriorityWeightAge=500\nPriorityWeightJobSize=250\nPriorityFavorSmall=YES\n"
      "PriorityWeightFairshare=100\nPriorityWeightQOS=0\n"
      "AccountingStorageType=accounting_storage/slurmdbd\n");
  const SiteOptions site = slurm_model_options(conf);
  EXPECT_EQ(option(site, "scheduler_type"), "builtin");
  EXPECT_EQ(option(site, "bf_window"), "120");
  EXPECT_EQ(option(site, "bf_interval"), "15");
  EXPECT_EQ(option(site, "bf_max_job_test"), "50");
  EXPECT_EQ(option(site, "bf_reserve_depth"), "3");
  EXPECT_EQ(option(site, "default_queue_depth"), "7");
  EXPECT_EQ(option(site, "sched_interval"), "20");
  EXPECT_EQ(option(site, "batch_sched_delay"), "1");
  EXPECT_EQ(option(site, "priority"), "multifactor");
  EXPECT_EQ(option(site, "priority_max_age"), std::to_string((2 * 24 + 12) * 60));
  EXPECT_EQ(option(site, "priority_calc_period"), "10");
  EXPECT_EQ(option(site, "priority_weight_age"), "500");
  EXPECT_EQ(option(site, "priority_weight_job_size"), "250");
  EXPECT_EQ(option(site, "priority_favor_small"), "true");
  EXPECT_EQ(option(site, "topology"), "<unset>");  // no topology.conf
  EXPECT_TRUE(has_warning(site, "slurm.conf:2: SchedulerParameters item 'bf_continue'"));
  EXPECT_TRUE(has_warning(site, "slurm.conf:9: priorityweightfairshare=100"));
  EXPECT_FALSE(has_warning(site, "priorityweightqos"));
  const auto bf = std::find_if(site.options.begin(), site.options.end(),
                               [](const OptionDefault& d) { return d.key == "bf_window"; });
  ASSERT_NE(bf, site.options.end());
  EXPECT_EQ(bf->where.line, 2);
}

// Issue 17's multifactor lab run: slurmctld logs "PriorityWeightAge can only be used with
// SlurmDBD, ignoring" and every job keeps its submit-time priority.
TEST(SlurmSiteOptions, AgeWeightIsZeroWithoutSlurmdbd) {
  const SiteOptions without = slurm_model_options(conf_with(
      "site-no-dbd", "PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
                     "AccountingStorageType=accounting_storage/none\n"));
  EXPECT_EQ(option(without, "priority_weight_age"), "0");
  EXPECT_TRUE(has_warning(without, "slurm.conf:2: PriorityWeightAge=1000 is ignored"));
  const SiteOptions unset = slurm_model_options(
      conf_with("site-no-storage", "PriorityType=priority/multifactor\n"));
  EXPECT_EQ(option(unset, "priority_weight_age"), "0");  // not the model's own default
  const SiteOptions basic = slurm_model_options(
      conf_with("site-basic", "PriorityType=priority/basic\nPriorityWeightAge=1000\n"));
  EXPECT_EQ(option(basic, "priority_weight_age"), "1000");
}

TEST(SlurmSiteOptions, UnmodelledPluginsAreNamed) {
  const SiteOptions site = slurm_model_options(conf_with(
      "site-plugins", "SchedulerType=sched/hold\nPriorityType=priority/fancy\n"
                      "PreemptType=preempt/qos\nOverTimeLimit=5\nSelectType=select/linear\n"));
  EXPECT_EQ(option(site, "scheduler_type"), "<unset>");
  EXPECT_EQ(option(site, "priority"), "<unset>");
  EXPECT_TRUE(has_warning(site, "slurm.conf:1: SchedulerType=sched/hold is not modelled"));
  EXPECT_TRUE(has_warning(site, "slurm.conf:2: PriorityType=priority/fancy"));
  EXPECT_TRUE(has_warning(site, "slurm.conf:3: preempttype=preempt/qos"));
  EXPECT_TRUE(has_warning(site, "slurm.conf:4: overtimelimit=5"));
  EXPECT_TRUE(has_warning(site, "slurm.conf:5: selecttype=select/linear"));
}

TEST(SlurmSiteOptions, TopologyConfCountsOnlyUnderTopologyTree) {
  const auto dir = scratch_dir("site-topology");
  write_file(dir / "topology.conf", "SwitchName=s0 Nodes=n[1-4]\n");
  const std::string nodes = "NodeName=n[1-4] CPUs=8\n";
  const std::string plain = write_file(dir / "slurm.conf", nodes);
  const SiteOptions none = slurm_model_options(load_slurm_conf(plain));
  EXPECT_EQ(option(none, "topology"), "false");
  EXPECT_TRUE(has_warning(none, "no TopologyPlugin is set"));
  const std::string tree = write_file(dir / "slurm.conf", "TopologyPlugin=topology/tree\n" + nodes);
  const SiteOptions with_tree = slurm_model_options(load_slurm_conf(tree));
  EXPECT_EQ(option(with_tree, "topology"), "true");
  EXPECT_TRUE(with_tree.warnings.empty());
}

TEST(SlurmSiteOptions, MalformedValuesNameTheLine) {
  const InputError item = expect_input_error([] {
    slurm_model_options(conf_with("site-bad-item", "\nSchedulerParameters=bf_window\n"));
  });
  EXPECT_EQ(item.where().line, 2);
  EXPECT_EQ(item.field(), "SchedulerParameters");
  EXPECT_EQ(item.value(), "bf_window");
  const InputError age = expect_input_error(
      [] { slurm_model_options(conf_with("site-bad-age", "PriorityMaxAge=soon\n")); });
  EXPECT_EQ(age.where().line, 1);
  EXPECT_EQ(age.field(), "PriorityMaxAge");
}

}  // namespace
}  // namespace hs
