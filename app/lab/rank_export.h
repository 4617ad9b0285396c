#pragma once
// `mpirun -n K particle-lab bench --export DIR`: the scene stepped by K ranks (rank_run.h) and
// written as `bench --export` writes it (frame_NNNNNN.vtk and .csv, particles.vtk.series), each
// frame gathered on rank 0, which alone writes: a frame's files hold every particle once.
#include <iosfwd>

#include "app/lab/bench_config.h"
#include "app/lab/export_run.h"
#include "sim/ranks/rank_transport.h"

namespace plab::app {

// Every rank calls it. Throws as run_export (rank 0 names the folder, the frame or the
// divergence), or as RankRun on what the ranks cannot run.
void run_rank_export(const BenchConfig& bench, const ExportConfig& config,
                     sim::RankTransport& transport, std::ostream& out, std::ostream& progress);

}  // namespace plab::app
