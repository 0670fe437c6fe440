#include "policy/slurm/subsecond_clock.hpp"

#include <algorithm>
#include <cmath>

namespace hs::slurm {

namespace {
constexpr std::int64_t kSecond = 1000000;
constexpr Time kObservedRange = 1000000000;  // |s| beyond this (µs overflow) uses the line

std::int64_t mod(std::int64_t a, std::int64_t m) { return (a % m + m) % m; }

std::optional<std::int32_t> ms_until(std::int64_t tick, std::int64_t second_start) {
  const std::int64_t to_next = tick - second_start;
  if (to_next >= kSecond) return std::nullopt;
  return static_cast<std::int32_t>(to_next / 1000);
}
// The second a time in µs falls in (rounding down, also before t = 0).
Time second_of(std::int64_t us) {
  return static_cast<Time>(us >= 0 ? us / kSecond : -((-us + kSecond - 1) / kSecond));
}

// Milliseconds into second s of the first of `passes` (µs, ascending) in it, if any.
std::optional<std::int32_t> first_pass_ms(const std::vector<std::int64_t>& passes, Time s) {
  if (passes.empty() || s > kObservedRange || s < -kObservedRange) return std::nullopt;
  const auto it = std::lower_bound(passes.begin(), passes.end(), s * kSecond);
  if (it == passes.end() || second_of(*it) != s) return std::nullopt;
  return static_cast<std::int32_t>((*it - s * kSecond) / 1000);
}

// The second of the first of `passes` (µs, ascending) after second s, if any.
std::optional<Time> first_second_after(const std::vector<std::int64_t>& passes, Time s) {
  if (passes.empty() || s >= kObservedRange || s < -kObservedRange) return std::nullopt;
  const auto it = std::lower_bound(passes.begin(), passes.end(), (s + 1) * kSecond);
  if (it == passes.end()) return std::nullopt;
  return second_of(*it);
}
}  // namespace

std::int32_t SubsecondClock::watchdog_heard_ms(std::int32_t taken_in_ms) {
  std::int32_t poll = kAgentStartMs;
  std::int32_t sleep_ms = 5;
  do {  // the watchdog sleeps before its first look
    poll += sleep_ms;
    sleep_ms = std::min(2 * sleep_ms, 1000);
  } while (poll < taken_in_ms);
  return poll;
}

void SubsecondClock::find_loop_clock_behind(Time batch_sched_delay) {
  loop_clock_behind_s.clear();
  for (std::size_t i = 0; i + 1 < observed_ticks_us.size(); ++i) {
    const std::int64_t pass = observed_ticks_us[i];
    const std::int64_t next = observed_ticks_us[i + 1];
    const Time second = second_of(pass);
    const bool next_is_full =
        std::binary_search(full_passes_us.begin(), full_passes_us.end(), next);
    if (pass - second * kSecond < kLoopClockLeadUs && !next_is_full &&
        second_of(next) - second == batch_sched_delay - 1)
      loop_clock_behind_s.push_back(second);
  }
}

Time SubsecondClock::loop_clock_second(Time s) const {
  if (std::binary_search(loop_clock_behind_s.begin(), loop_clock_behind_s.end(), s)) return s - 1;
  if (observed_ticks_us.empty() || s > kObservedRange || s < -kObservedRange) return s;
  // An observed pass in s: the next pass showed which second it read. A tick in between,
  // known only by its place, this close after the second read the one before.
  if (logged_tick_ms(s)) return s;
  const std::optional<std::int32_t> ms = tick_ms(s);
  return ms && *ms < kInterpolatedLeadMs ? s - 1 : s;
}

std::optional<Time> SubsecondClock::logged_loop_pass_at_or_before(Time t) const {
  if (observed_ticks_us.empty() || t >= kObservedRange || t < -kObservedRange) return std::nullopt;
  const auto it =
      std::lower_bound(observed_ticks_us.begin(), observed_ticks_us.end(), (t + 1) * kSecond);
  if (it == observed_ticks_us.begin()) return std::nullopt;
  return loop_clock_second(second_of(*(it - 1)));
}

bool SubsecondClock::within_logged_loop(Time s) const {
  if (!replay_loop_passes || observed_ticks_us.empty() || s > kObservedRange ||
      s < -kObservedRange)
    return false;
  return s >= second_of(observed_ticks_us.front()) && s <= second_of(observed_ticks_us.back());
}

std::optional<Time> SubsecondClock::next_logged_loop_pass_after(Time s) const {
  return first_second_after(observed_ticks_us, s);
}

std::optional<std::int32_t> SubsecondClock::agent_pass_ms(Time s) const {
  return first_pass_ms(agent_passes_us, s);
}

bool SubsecondClock::agent_pass_soon_after(Time s, std::int32_t ms) const {
  if (agent_passes_us.empty() || s > kObservedRange || s < -kObservedRange) return false;
  const std::int64_t at = s * kSecond + std::int64_t{ms} * 1000;
  const auto it = std::lower_bound(agent_passes_us.begin(), agent_passes_us.end(), at);
  return it != agent_passes_us.end() && *it - at <= kEpilogRpcMs * 1000;
}

std::optional<Time> SubsecondClock::next_agent_pass_after(Time s) const {
  return first_second_after(agent_passes_us, s);
}

const ObservedCycle* SubsecondClock::observed_cycle(Time s) const {
  if (backfill_cycles_us.empty() || s > kObservedRange || s < -kObservedRange) return nullptr;
  const auto it = std::lower_bound(
      backfill_cycles_us.begin(), backfill_cycles_us.end(), s * kSecond,
      [](const ObservedCycle& c, std::int64_t us) { return c.begin_us < us; });
  if (it == backfill_cycles_us.end() || second_of(it->begin_us) != s) return nullptr;
  return &*it;
}

std::optional<Time> SubsecondClock::observed_full_after(Time t, Time interval) const {
  if (full_passes_us.empty() || t >= kObservedRange || t < -kObservedRange) return std::nullopt;
  const auto it = std::lower_bound(full_passes_us.begin(), full_passes_us.end(), (t + 1) * kSecond);
  if (it != full_passes_us.end()) return second_of(*it);
  const Time last = second_of(full_passes_us.back());
  return last + ((t - last) / interval + 1) * interval;
}

std::optional<Time> SubsecondClock::observed_full_at_or_before(Time t, Time interval) const {
  if (full_passes_us.empty() || t >= kObservedRange || t < -kObservedRange) return std::nullopt;
  const auto it = std::lower_bound(full_passes_us.begin(), full_passes_us.end(), (t + 1) * kSecond);
  if (it == full_passes_us.begin()) return std::nullopt;
  if (it != full_passes_us.end()) return second_of(*(it - 1));
  const Time last = second_of(full_passes_us.back());
  return last + (t - last) / interval * interval;
}

std::optional<std::int32_t> SubsecondClock::logged_cycle_ms(Time s) const {
  const ObservedCycle* c = observed_cycle(s);
  if (c == nullptr) return std::nullopt;
  return static_cast<std::int32_t>((c->begin_us - s * kSecond) / 1000);
}

std::int32_t SubsecondClock::backfill_cycle_ms(Time s) const {
  return logged_cycle_ms(s).value_or(backfill_ms);
}

Time SubsecondClock::observed_cycle_second(Time due) const {
  return observed_cycle(due) == nullptr && observed_cycle(due + 1) != nullptr ? due + 1 : due;
}

Time SubsecondClock::backfill_cycle_end(Time s) const {
  const ObservedCycle* c = observed_cycle(s);
  return c ? second_of(c->end_us) : s;
}

std::optional<std::int32_t> SubsecondClock::tick_ms(Time s) const {
  if (observed_ticks_us.empty() || s > kObservedRange || s < -kObservedRange)
    return line_tick_ms(s);
  return observed_tick_ms(s);
}

std::optional<std::int32_t> SubsecondClock::logged_tick_ms(Time s) const {
  return first_pass_ms(observed_ticks_us, s);
}

std::optional<std::int32_t> SubsecondClock::observed_tick_ms(Time s) const {
  const std::int64_t start = s * kSecond;
  const std::vector<std::int64_t>& seen = observed_ticks_us;
  const auto next = std::upper_bound(seen.begin(), seen.end(), start - 1);  // first >= start
  if (next == seen.begin())  // before the first seen tick: step back from it
    return ms_until(seen.front() - (seen.front() - start) / loop_period_us * loop_period_us,
                    start);
  const std::int64_t from = *(next - 1);
  if (next == seen.end())  // after the last seen tick: every loop_period_us
    return ms_until(from + (start - from + loop_period_us - 1) / loop_period_us * loop_period_us,
                    start);
  // Tick j of the gap is at from + j * gap / ticks; the first at or after `start`.
  const std::int64_t gap = *next - from;
  const std::int64_t ticks = std::max<std::int64_t>(
      1, std::llround(static_cast<double>(gap) / static_cast<double>(loop_period_us)));
  std::int64_t j = ((start - from) * ticks + gap - 1) / gap;
  while (from + j * gap / ticks < start) ++j;
  return ms_until(from + j * gap / ticks, start);
}

std::optional<std::int32_t> SubsecondClock::line_tick_ms(Time s) const {
  const std::int64_t period = loop_period_us;
  // (s * kSecond - loop_tick_us) mod period, without forming s * kSecond (it may overflow).
  const std::int64_t since_tick =
      mod(mod(s, period) * mod(kSecond, period) - mod(loop_tick_us, period), period);
  const std::int64_t to_next = since_tick == 0 ? 0 : period - since_tick;
  if (to_next >= kSecond) return std::nullopt;
  return static_cast<std::int32_t>(to_next / 1000);
}

}  // namespace hs::slurm
