#pragma once
// Root cuts from COIN-OR CGL's generators (CBC builds only): rounds of probing, Gomory,
// lifted knapsack cover, two-step MIR, zero-half and clique cuts on a 0/1 model, each round
// re-solving the LP and dropping the cuts it leaves slack, as CBC does at its root (without
// probing when a round of it is out of the cap's reach, as on windows of long rows). Cuts
// derived at the root hold for every integer solution, so a branch and bound over the same
// columns can keep them everywhere.
#include <cstdint>
#include <optional>
#include <vector>

#include "solver/mip_model.hpp"

namespace hs::solver {

struct RootCutOptions {
  int max_rounds = 20;
  // Work cap in the tree's units (calibrated to its time per unit): per simplex pivot the
  // LP's rows + columns, per generator call the matrix's nonzeros (for probing times the
  // mean row length), each times a constant.
  // A round starts only when its separation and one pivot are affordable, and no LP solve
  // may pivot past it, so the cap holds.
  std::int64_t effort_limit = 0;
  // Stop when `stall_rounds` rounds in a row each lower the LP value by less than this share
  // of it. On crowded windows late rounds still close the gap slowly (10^-5 of the value
  // each), and such rounds are what the tree's proofs need: at 10^-4, 143 of 220 bench
  // windows were proven, at 10^-6 153 (docs/solver.md, "Longer root cut loop").
  double min_relative_gain = 1e-6;
  // Where the objective counts started jobs first (bid values a large constant per job), the
  // LP's value can stay flat for rounds while the cuts reshape its solution, then fall a
  // whole job's worth (a window captured from an `eurora` replay: two flat rounds, then 18
  // more from 7 jobs' worth to 4.8; docs/solver.md, "Root cuts past a plateau").
  int stall_rounds = 3;
  // Stop once the LP's value cannot beat this (in the model's sense): a branch and bound
  // whose incumbent is worth it has then nothing left to search (a window captured from a
  // KTH replay: the first solve already met the incumbent, then probing took 41 ms).
  std::optional<double> cutoff;
  // A basis of the model's LP to start the first solve from (CLP's status per column, then
  // per row: ClpRelaxation::basis()); empty, or of another size: from the slack basis. The
  // caller's optimal root basis leaves that solve a few pivots instead of the whole LP again
  // (on sparse 1024-node windows 2.6–3.0 M units, a third of the cuts' share).
  std::vector<unsigned char> start_basis;
};

struct RootCuts {
  // The cuts still tight after the last round whose LP solved; a round whose re-solve runs
  // out of room is dropped. Empty when not even the first LP solves.
  std::vector<MipRow> rows;
  std::int64_t effort = 0;
  int rounds = 0;
  bool lp_optimal = false;  // the LP with `rows` solved to optimality (else `rows` is empty)
  double lp_value = 0.0;    // its value, in the model's sense
};

RootCuts cgl_root_cuts(const MipModel& model, const RootCutOptions& options);

}  // namespace hs::solver
