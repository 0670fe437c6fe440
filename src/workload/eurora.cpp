#include "workload/eurora.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "util/error.hpp"
#include "workload/common.hpp"

namespace hs {

namespace {

constexpr Time kDay = 86400;
constexpr int kMaxProfilesPerClass = 4;
constexpr double kNewProfileProb = 0.15;  // per session: a user starts a new kind of job
constexpr double kDurationNoise = 0.1;    // sd of log(duration / profile's base)
constexpr double kSessionGapMean = 90;    // s between jobs of one session
const char* const kClassNames[] = {"cpu", "mic", "gpu"};

struct Profile {
  EuroraClass cls;
  std::string name;
  JobRequest req;  // resources only; the time limit follows the queue
  int queue = 1;
  DurationBand band = DurationBand::Short;
  Time base = 60;
};

struct User {
  std::string name;
  std::array<std::vector<int>, 3> profiles;  // indices into the profile table, per class
  std::array<int, 3> last{-1, -1, -1};
};

// What the generator reads from the cluster.
struct Machine {
  const Cluster* cluster;
  std::int32_t cores_per_node;
  std::int64_t total_cores;
  std::array<int, 3> gres_type{-1, -1, -1};                 // per class; CPU has none
  std::array<std::array<std::int32_t, 3>, 3> nodes_with{};  // [class][count 0..2]
  std::int64_t min_memory_mb;
};

Machine machine_of(const Cluster& cluster) {
  Machine m{&cluster,
            0,
            cluster.total_cores(),
            {-1, cluster.gres_index("mic"), cluster.gres_index("gpu")},
            {},
            0};
  const auto shape = workload_detail::shape_of(cluster);
  m.cores_per_node = shape.cores_per_node;
  m.min_memory_mb = cluster.nodes.empty() ? 0 : cluster.nodes.front().memory_mb;
  for (const auto& n : cluster.nodes) {
    m.min_memory_mb = std::min(m.min_memory_mb, n.memory_mb);
    for (int c = 0; c < 3; ++c)
      for (std::int32_t g = 0; g <= 2; ++g) {
        const std::int32_t have = m.gres_type[c] >= 0 ? n.gres[m.gres_type[c]] : 0;
        m.nodes_with[c][g] += (c == 0 || have >= g) ? 1 : 0;
      }
  }
  return m;
}

template <std::size_t N>
std::size_t pick(const std::array<double, N>& weights, Rng& rng) {
  double total = 0;
  for (double w : weights) total += w;
  double u = rng.uniform01() * total;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    if (u < weights[i]) return i;
    u -= weights[i];
  }
  return N - 1;
}

// A job of k identical units: `per_node` cores (and g accelerators) on each of y nodes.
JobRequest draw_resources(EuroraClass cls, const Machine& m, Rng& rng) {
  static constexpr std::array<std::int32_t, 5> kCounts = {1, 2, 4, 8, 16};
  const int c = static_cast<int>(cls);
  JobRequest r;
  std::int32_t g = 0, per_node, nodes;
  if (cls == EuroraClass::Cpu) {
    per_node = kCounts[pick(std::array<double, 5>{.2, .1, .15, .2, .35}, rng)];
    nodes = kCounts[pick(std::array<double, 5>{.6, .2, .12, .06, .02}, rng)];
  } else {
    g = rng.bernoulli(0.5) ? 1 : 2;
    if (m.nodes_with[c][g] == 0) g = 1;
    per_node = g * kCounts[pick(std::array<double, 4>{.4, .2, .2, .2}, rng)];
    nodes = kCounts[pick(std::array<double, 5>{.7, .15, .1, .04, .01}, rng)];
    r.gres.push_back(workload_detail::gres_request(*m.cluster, kClassNames[c], g, g));
  }
  per_node = std::min(per_node, m.cores_per_node);
  nodes = std::min(nodes, m.nodes_with[c][g]);
  r.ntasks = nodes * per_node;
  r.ntasks_per_node = per_node;
  if (m.min_memory_mb > 0)
    r.mem_per_node_mb =
        std::min<std::int64_t>(m.min_memory_mb, per_node * 1000LL * rng.uniform_int(1, 2));
  return r;
}

// Short jobs that surely finish in 30 min may go to `debug`; medium to `parallel`; long to
// `longpar` (see eurora_queues()).
int choose_queue(DurationBand band, Time base, Rng& rng) {
  if (band == DurationBand::Long) return 2;
  if (band == DurationBand::Medium) return 1;
  return base * 135 / 100 <= eurora_queues()[0].max_time && rng.bernoulli(0.5) ? 0 : 1;
}

class EuroraGenerator {
 public:
  EuroraGenerator(const EuroraOptions& o, const Cluster& cluster, std::uint64_t seed)
      : o_(o), machine_(machine_of(cluster)), durations_(o.targets), rng_(seed) {
    for (std::int32_t u = 1; u <= o.users; ++u) {
      users_.push_back({workload_detail::user_name(u), {}, {-1, -1, -1}});
      user_weight_.push_back(1.0 / std::pow(u, 0.8));  // a few heavy users, many light ones
    }
  }

  Workload run() {
    const auto target_jobs = static_cast<std::size_t>(std::llround(o_.days * o_.jobs_per_day));
    const double target_area = o_.load * static_cast<double>(machine_.total_cores) * o_.days * kDay;
    Workload w;
    double area = 0;
    auto done = [&] { return o_.load > 0 ? area >= target_area : w.jobs.size() >= target_jobs; };
    while (!done()) {
      const auto cls = static_cast<EuroraClass>(pick(o_.targets.class_share, rng_));
      Profile& p = profile_for(pick_user(), cls);
      const auto size = 1 + static_cast<std::size_t>(rng_.exponential(o_.session_mean - 0.5));
      double t = static_cast<double>(session_start());
      for (std::size_t k = 0; k < size && !done(); ++k) {
        w.jobs.push_back(make_job(p, static_cast<Time>(std::llround(t))));
        area += static_cast<double>(w.jobs.back().run_time) * w.jobs.back().req.ntasks;
        t += rng_.exponential(kSessionGapMean);
      }
    }
    workload_detail::finalize_workload(w);
    return w;
  }

 private:
  std::size_t pick_user() {
    double u = rng_.uniform01() * total_weight();
    for (std::size_t i = 0; i + 1 < users_.size(); ++i) {
      if (u < user_weight_[i]) return i;
      u -= user_weight_[i];
    }
    return users_.size() - 1;
  }
  double total_weight() {
    if (weight_sum_ == 0)
      for (double w : user_weight_) weight_sum_ += w;
    return weight_sum_;
  }

  // The user's profile for this session: a new one now and then, else mostly the last one.
  Profile& profile_for(std::size_t user, EuroraClass cls) {
    User& u = users_[user];
    const int c = static_cast<int>(cls);
    auto& mine = u.profiles[c];
    const bool fresh =
        mine.empty() || (mine.size() < kMaxProfilesPerClass && rng_.bernoulli(kNewProfileProb));
    if (fresh) {
      mine.push_back(static_cast<int>(profiles_.size()));
      profiles_.push_back(new_profile(u, cls, mine.size()));
      u.last[c] = mine.back();
      return profiles_.back();
    }
    if (u.last[c] < 0 || rng_.bernoulli(0.4))
      u.last[c] = mine[static_cast<std::size_t>(rng_.uniform_int(0, mine.size() - 1))];
    Profile& p = profiles_[u.last[c]];
    if (rng_.bernoulli(o_.switch_prob)) new_regime(p, rng_.bernoulli(0.5));
    return p;
  }

  Profile new_profile(const User& u, EuroraClass cls, std::size_t number) {
    Profile p;
    p.cls = cls;
    p.name = u.name + "_" + kClassNames[static_cast<int>(cls)] + std::to_string(number);
    p.req = draw_resources(cls, machine_, rng_);
    new_regime(p, false);
    return p;
  }

  // A new typical duration (same band or a fresh one from the class' mixture) and queue.
  void new_regime(Profile& p, bool keep_band) {
    if (!keep_band) p.band = durations_.draw_band(p.cls, rng_);
    p.base = durations_.draw_in_band(p.cls, p.band, rng_);
    p.queue = choose_queue(p.band, p.base, rng_);
  }

  // Uniform over the horizon, thinned by the day-night and weekday-weekend cycle. The cap on
  // attempts only matters for a horizon lying entirely in a zero-intensity night.
  Time session_start() {
    const double horizon = o_.days * kDay;
    for (int attempt = 0;; ++attempt) {
      const double t = rng_.uniform01() * horizon;
      const auto day = static_cast<std::int64_t>(t / kDay);
      const double hour = std::fmod(t, static_cast<double>(kDay)) / 3600.0;
      double intensity = hour >= 8 && hour < 20 ? 1.0 : o_.night;
      if (day % 7 >= 5) intensity *= 0.5;
      if (rng_.uniform01() < intensity || attempt == 1000) return static_cast<Time>(t);
    }
  }

  Job make_job(const Profile& p, Time submit) {
    const EuroraQueue& q = eurora_queues()[p.queue];
    const BandBounds b = band_bounds(p.band);
    const double x = p.base * std::exp(rng_.normal(0, kDurationNoise));
    Job job;
    job.name = p.name;
    job.user = p.name.substr(0, p.name.find('_'));
    job.submit = submit;
    job.run_time = std::clamp<Time>(std::llround(x), b.lo, std::min(b.hi, q.max_time));
    job.req = p.req;
    job.req.time_limit = q.max_time;
    if (const Partition* part = machine_.cluster->partitions.empty()
                                    ? nullptr
                                    : machine_.cluster->find_partition(q.name)) {
      job.partition = q.name;
      job.req.time_limit = std::min(q.max_time, part->max_time);
      job.run_time = std::min(job.run_time, job.req.time_limit);
    }
    return job;
  }

  const EuroraOptions& o_;
  Machine machine_;
  EuroraDurationModel durations_;
  Rng rng_;
  std::vector<User> users_;
  std::vector<double> user_weight_;
  double weight_sum_ = 0;
  std::vector<Profile> profiles_;
};

void require_accelerators(const EuroraOptions& o, const Cluster& cluster) {
  for (int c = 1; c < 3; ++c)
    if (o.targets.class_share[c] > 0 && cluster.gres_index(kClassNames[c]) < 0)
      throw InputError(
          {"workload eurora", 0}, std::string(kClassNames[c]) + "_share",
          std::to_string(o.targets.class_share[c]),
          "the cluster has no gres '" + std::string(kClassNames[c]) + "'; set the share to 0");
}

}  // namespace

const std::vector<EuroraQueue>& eurora_queues() {
  static const std::vector<EuroraQueue> queues = {
      {"debug", 10 * 60, 30 * 60}, {"parallel", 3600, 6 * 3600}, {"longpar", 6 * 3600, 24 * 3600}};
  return queues;
}

EuroraOptions read_eurora_options(Params& p) {
  EuroraOptions o;
  o.days = p.get_double("days", 30, 0.01, 3650, "length of the submission period (days)");
  o.jobs_per_day = p.get_double("jobs_per_day", 2600, 0.1, 1e6, "jobs per day (unless load)");
  o.load =
      p.get_double("load", 0, 0, 100, "offered core-time / capacity; > 0 overrides jobs_per_day");
  o.users = static_cast<std::int32_t>(p.get_int("users", 80, 1, 100000, "number of users"));
  o.session_mean = p.get_double("session_mean", 4, 1, 1000, "mean jobs per session");
  o.switch_prob =
      p.get_double("switch", 0.3, 0, 1, "per session: chance a profile's duration regime changes");
  o.night = p.get_double("night", 0.25, 0, 1, "night-time submission intensity (day = 1)");
  auto& t = o.targets;
  t.class_share[0] = p.get_double("cpu_share", 0.228, 0, 1, "share of CPU-only jobs");
  t.class_share[1] = p.get_double("mic_share", 0.007, 0, 1, "share of MIC jobs");
  t.class_share[2] = p.get_double("gpu_share", 0.764, 0, 1, "share of GPU jobs");
  t.class_mean_s[0] =
      60 * p.get_double("cpu_mean_min", 47.6, 1, 1e4, "mean CPU job duration (min)");
  t.class_mean_s[1] =
      60 * p.get_double("mic_mean_min", 56.47, 1, 1e4, "mean MIC job duration (min)");
  t.class_mean_s[2] =
      60 * p.get_double("gpu_mean_min", 6.38, 1, 1e4, "mean GPU job duration (min)");
  t.medium_share = p.get_double("medium_share", 0.0610, 0, 1, "share of jobs of 1-5 h");
  t.long_share = p.get_double("long_share", 0.0075, 0, 1, "share of jobs over 5 h");
  EuroraDurationModel check(t);  // reject unreachable targets while reading the options
  (void)check;
  return o;
}

Workload generate_eurora(const EuroraOptions& o, const Cluster& cluster, std::uint64_t seed) {
  require_accelerators(o, cluster);
  return EuroraGenerator(o, cluster, seed).run();
}

}  // namespace hs
