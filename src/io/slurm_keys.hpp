#pragma once
// How slurm.conf's global keys are treated: kept as scheduler settings, ignored silently
// as daemon plumbing, or (neither) ignored with a warning.
#include <string>

namespace hs {

// Global keys the scheduler model may read; kept in SlurmConfig::settings (lower case).
bool is_scheduler_setting(const std::string& lower_key);

// Daemon, security, logging and accounting keys: no bearing on scheduling, no warning.
bool is_daemon_setting(const std::string& lower_key);

}  // namespace hs
