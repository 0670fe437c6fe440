#include "io/slurm_site_options.hpp"

#include <map>
#include <sstream>

#include "io/slurm_time.hpp"
#include "io/text_file.hpp"

namespace hs {

namespace {

using text::iequals;
using text::to_lower;

// SchedulerParameters items the model implements, and the option each one sets.
const std::map<std::string, std::string>& modelled_scheduler_parameters() {
  static const std::map<std::string, std::string> names = {
      {"bf_window", "bf_window"},
      {"bf_interval", "bf_interval"},
      {"bf_resolution", "bf_resolution"},
      {"bf_max_job_test", "bf_max_job_test"},
      {"bf_job_part_count_reserve", "bf_reserve_depth"},
      {"default_queue_depth", "default_queue_depth"},
      {"sched_interval", "sched_interval"},
      {"batch_sched_delay", "batch_sched_delay"}};
  return names;
}

class Translator {
 public:
  explicit Translator(const SlurmConfig& conf) : conf_(conf) {}

  SiteOptions run() {
    scheduler_type();
    scheduler_parameters();
    priority();
    topology();
    not_modelled_if("preempttype", {"preempt/none"}, "preemption");
    not_modelled_if("overtimelimit", {"0"}, "running past the time limit");
    not_modelled_if("selecttype", {"select/cons_tres", "select/cons_res"},
                    "a select plugin other than consumable resources");
    return std::move(out_);
  }

 private:
  const std::string* value(const std::string& key) const {
    const auto it = conf_.settings.find(key);
    return it == conf_.settings.end() ? nullptr : &it->second;
  }
  InputLocation where(const std::string& key) const {
    const auto it = conf_.setting_lines.find(key);
    return it == conf_.setting_lines.end() ? InputLocation{conf_.path, 0} : it->second;
  }
  // `field`: the setting as a slurm.conf author wrote it, for error messages.
  void set(const std::string& from_key, const std::string& option, const std::string& v,
           const std::string& field) {
    out_.options.push_back({option, v, where(from_key), field});
  }
  void warn(const std::string& key, const std::string& text) {
    const InputLocation w = where(key);
    out_.warnings.push_back(w.file + (w.line > 0 ? ":" + std::to_string(w.line) : "") + ": " +
                            text);
  }

  void scheduler_type() {
    const std::string* v = value("schedulertype");
    if (!v) return;
    const std::string type = to_lower(*v);
    if (type == "sched/backfill") set("schedulertype", "scheduler_type", "backfill", "SchedulerType");
    else if (type == "sched/builtin") set("schedulertype", "scheduler_type", "builtin", "SchedulerType");
    else warn("schedulertype", "SchedulerType=" + *v + " is not modelled; sched/backfill is used");
  }

  void scheduler_parameters() {
    const std::string* v = value("schedulerparameters");
    if (!v) return;
    std::stringstream items(*v);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (item.empty()) continue;
      const auto eq = item.find('=');
      const std::string name = to_lower(item.substr(0, eq));
      const auto known = modelled_scheduler_parameters().find(name);
      if (known == modelled_scheduler_parameters().end()) {
        warn("schedulerparameters", "SchedulerParameters item '" + item +
                                        "' is not modelled; the replay ignores it");
        continue;
      }
      if (eq == std::string::npos)
        throw InputError(where("schedulerparameters"), "SchedulerParameters", item,
                         "expected " + name + "=<integer>");
      set("schedulerparameters", known->second, item.substr(eq + 1),
          "SchedulerParameters " + name);
    }
  }

  // Slurm's time strings in minutes ("7-0", "30", "2:00:00") as whole minutes.
  void minutes(const std::string& key, const std::string& option, const std::string& field) {
    const std::string* v = value(key);
    if (!v) return;
    const Time seconds = parse_slurm_time(*v, where(key), field, false);
    set(key, option, std::to_string(seconds / 60), field + " (minutes)");
  }

  void priority() {
    if (const std::string* v = value("prioritytype")) {
      const std::string type = to_lower(*v);
      if (type == "priority/basic") set("prioritytype", "priority", "basic", "PriorityType");
      else if (type == "priority/multifactor")
        set("prioritytype", "priority", "multifactor", "PriorityType");
      else warn("prioritytype", "PriorityType=" + *v + " is not modelled; priority/basic is used");
    }
    minutes("prioritycalcperiod", "priority_calc_period", "PriorityCalcPeriod");
    minutes("prioritymaxage", "priority_max_age", "PriorityMaxAge");
    age_weight();
    if (const std::string* v = value("priorityweightjobsize"))
      set("priorityweightjobsize", "priority_weight_job_size", *v, "PriorityWeightJobSize");
    if (const std::string* v = value("priorityfavorsmall")) {
      const std::string flag = iequals(*v, "yes") ? "true" : iequals(*v, "no") ? "false" : *v;
      set("priorityfavorsmall", "priority_favor_small", flag, "PriorityFavorSmall");
    }
    for (const auto& [key, v] : conf_.settings)
      if (key.starts_with("priorityweight") && key != "priorityweightage" &&
          key != "priorityweightjobsize" && v != "0")
        warn(key, key + "=" + v + ": this priority factor is not modelled (the model's "
                  "multifactor priority is age and job size)");
  }

  // priority/multifactor sets PriorityWeightAge to 0 unless accounting goes to slurmdbd
  // (its init(), src/plugins/priority/multifactor/priority_multifactor.c); AccountingStorageType
  // defaults to accounting_storage/none.
  void age_weight() {
    const std::string* weight = value("priorityweightage");
    const std::string* type = value("prioritytype");
    const std::string* storage = value("accountingstoragetype");
    const bool multifactor = type && iequals(*type, "priority/multifactor");
    if (multifactor && !(storage && iequals(*storage, "accounting_storage/slurmdbd"))) {
      const std::string key = weight ? "priorityweightage" : "prioritytype";
      set(key, "priority_weight_age", "0", "PriorityWeightAge");
      if (weight && *weight != "0")
        warn(key, "PriorityWeightAge=" + *weight + " is ignored, as by Slurm, without "
                  "AccountingStorageType=accounting_storage/slurmdbd");
      return;
    }
    if (weight) set("priorityweightage", "priority_weight_age", *weight, "PriorityWeightAge");
  }

  // Slurm uses topology.conf only under topology/tree (the default plugin is none).
  void topology() {
    const std::string* v = value("topologyplugin");
    if (v) {
      const std::string plugin = to_lower(*v);
      set("topologyplugin", "topology", plugin == "topology/tree" ? "true" : "false",
          "TopologyPlugin");
      if (plugin != "topology/tree" && plugin != "topology/none" && plugin != "topology/default")
        warn("topologyplugin", "TopologyPlugin=" + *v + " is not modelled; nodes are placed "
                               "without a topology");
      return;
    }
    if (!conf_.cluster.topology) return;
    out_.options.push_back({"topology", "false", {conf_.path, 0}, "TopologyPlugin"});
    out_.warnings.push_back(conf_.path +
                            ": topology.conf is read but no TopologyPlugin is set: like Slurm, "
                            "the backfill model places without the switch tree (--opt "
                            "topology=true uses it)");
  }

  void not_modelled_if(const std::string& key, std::initializer_list<const char*> harmless,
                       const std::string& what) {
    const std::string* v = value(key);
    if (!v) return;
    for (const char* ok : harmless)
      if (iequals(*v, ok)) return;
    warn(key, key + "=" + *v + ": " + what + " is not modelled");
  }

  const SlurmConfig& conf_;
  SiteOptions out_;
};

}  // namespace

SiteOptions slurm_model_options(const SlurmConfig& conf) { return Translator(conf).run(); }

}  // namespace hs
