#pragma once
// How the ranks of a run reach each other: the exchanges a rank's step needs (rank_stepper.h),
// with nothing of the transport's own kind in the stepper. MPI between processes
// (mpi_transport.h) carries it; a test carries it between threads.
//
// Every call is collective: every rank makes the same calls in the same order.
#include <vector>

#include "sim/ranks/rank_parcel.h"

namespace plab::sim {

class RankTransport {
  public:
    virtual ~RankTransport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    virtual const char* name() const = 0;  // for reports: "MPI"

    // Sends out[r] to rank r (out.size() == size(); out[rank()] comes back to this rank) and
    // returns what every rank sent here, in rank order. Throws plab::Error when it fails.
    virtual Parcel exchange(const std::vector<Parcel>& out) = 0;
    // Rank 0 receives every rank's `mine`, in rank order; the others an empty parcel.
    virtual Parcel gather(const Parcel& mine) = 0;
    // Every rank's `values` (the same count on each), in rank order, on every rank.
    virtual std::vector<double> all_gather(const std::vector<double>& values) = 0;
    // Ends every rank with `code`: after an error on one rank, the others would wait in a
    // collective for ever. Not collective; does not return.
    [[noreturn]] virtual void abort(int code) = 0;
};

}  // namespace plab::sim
