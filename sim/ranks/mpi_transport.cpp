// rank_transport.h over MPI (built with PLAB_HAS_MPI). Parcels travel as three arrays (ids,
// positions, velocities) in one all-to-all each, after an all-to-all of their counts. Every MPI
// call's result is checked: the communicator returns errors instead of aborting, and a failed
// call throws naming it.
// The C interface only (Open MPI's and MPICH's deprecated C++ bindings stay out).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/ranks/mpi_transport.h"

namespace plab::sim {
namespace {

void check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string("MPI: ") + call + " failed: " + std::string(text, length));
}

int as_count(std::size_t n, const char* what) {
    PLAB_REQUIRE(n <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
                 std::string("MPI: ") + what + " of " + std::to_string(n) +
                     " elements passes the largest count one message takes");
    return static_cast<int>(n);
}

// Exclusive prefix sums of `counts` (the displacements of a v-collective).
std::vector<int> offsets(const std::vector<int>& counts) {
    std::vector<int> out(counts.size(), 0);
    long long sum = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        out[i] = as_count(static_cast<std::size_t>(sum), "a displacement");
        sum += counts[i];
    }
    as_count(static_cast<std::size_t>(sum), "a parcel");
    return out;
}

std::vector<int> times(const std::vector<int>& counts, int k) {
    std::vector<int> out(counts);
    for (int& c : out) c = as_count(static_cast<std::size_t>(c) * k, "a parcel's floats");
    return out;
}

class MpiTransport final : public RankTransport {
  public:
    MpiTransport() {
        int started = 0;
        check(MPI_Initialized(&started), "MPI_Initialized");
        if (!started) {
            check(MPI_Init(nullptr, nullptr), "MPI_Init");
            owns_ = true;
        }
        check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
              "MPI_Comm_set_errhandler");
        check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
        check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
    }
    ~MpiTransport() override {
        if (owns_) MPI_Finalize();  // a failure here has no one left to tell
    }
    MpiTransport(const MpiTransport&) = delete;
    MpiTransport& operator=(const MpiTransport&) = delete;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    const char* name() const override { return "MPI"; }

    Parcel exchange(const std::vector<Parcel>& out) override {
        PLAB_REQUIRE(
            out.size() == static_cast<std::size_t>(size_),
            "an exchange needs a parcel for each of the " + std::to_string(size_) + " ranks");
        std::vector<int> send(size_), recv(size_);
        Parcel flat;
        for (int r = 0; r < size_; ++r) {
            send[r] = as_count(out[r].size(), "a parcel");
            flat.append(out[r]);
        }
        check(MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, MPI_COMM_WORLD),
              "MPI_Alltoall");
        const std::vector<int> sdisp = offsets(send), rdisp = offsets(recv);
        std::size_t n = 0;
        for (int c : recv) n += static_cast<std::size_t>(c);
        Parcel in;
        in.id.resize(n);
        in.pos.resize(n);
        in.vel.resize(n);
        check(MPI_Alltoallv(flat.id.data(), send.data(), sdisp.data(), MPI_UINT32_T, in.id.data(),
                            recv.data(), rdisp.data(), MPI_UINT32_T, MPI_COMM_WORLD),
              "MPI_Alltoallv (ids)");
        const std::vector<int> send4 = times(send, 4), recv4 = times(recv, 4);
        const std::vector<int> sdisp4 = offsets(send4), rdisp4 = offsets(recv4);
        check(MPI_Alltoallv(flat.pos.data(), send4.data(), sdisp4.data(), MPI_FLOAT, in.pos.data(),
                            recv4.data(), rdisp4.data(), MPI_FLOAT, MPI_COMM_WORLD),
              "MPI_Alltoallv (positions)");
        check(MPI_Alltoallv(flat.vel.data(), send4.data(), sdisp4.data(), MPI_FLOAT, in.vel.data(),
                            recv4.data(), rdisp4.data(), MPI_FLOAT, MPI_COMM_WORLD),
              "MPI_Alltoallv (velocities)");
        // The frictional rows (the same size on every rank: the law is the run's).
        std::size_t row = 0;
        for (const Parcel& p : out) row = std::max(row, p.row_bytes);
        if (row != 0) {
            const int r = as_count(row, "a frictional row");
            const std::vector<int> send_b = times(send, r), recv_b = times(recv, r);
            const std::vector<int> sdisp_b = offsets(send_b), rdisp_b = offsets(recv_b);
            in.row_bytes = row;
            in.rows.resize(n * row);
            check(MPI_Alltoallv(flat.rows.data(), send_b.data(), sdisp_b.data(), MPI_BYTE,
                                in.rows.data(), recv_b.data(), rdisp_b.data(), MPI_BYTE,
                                MPI_COMM_WORLD),
                  "MPI_Alltoallv (frictional rows)");
        }
        return in;
    }

    Parcel gather(const Parcel& mine) override {
        const int count = as_count(mine.size(), "a parcel");
        std::vector<int> counts(rank_ == 0 ? size_ : 0);
        check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD),
              "MPI_Gather");
        Parcel all;
        std::vector<int> disp, counts4, disp4;
        if (rank_ == 0) {
            disp = offsets(counts);
            counts4 = times(counts, 4);
            disp4 = offsets(counts4);
            std::size_t n = 0;
            for (int c : counts) n += static_cast<std::size_t>(c);
            all.id.resize(n);
            all.pos.resize(n);
            all.vel.resize(n);
        }
        check(MPI_Gatherv(mine.id.data(), count, MPI_UINT32_T, all.id.data(), counts.data(),
                          disp.data(), MPI_UINT32_T, 0, MPI_COMM_WORLD),
              "MPI_Gatherv (ids)");
        const int count4 = as_count(mine.size() * 4, "a parcel's floats");
        check(MPI_Gatherv(mine.pos.data(), count4, MPI_FLOAT, all.pos.data(), counts4.data(),
                          disp4.data(), MPI_FLOAT, 0, MPI_COMM_WORLD),
              "MPI_Gatherv (positions)");
        check(MPI_Gatherv(mine.vel.data(), count4, MPI_FLOAT, all.vel.data(), counts4.data(),
                          disp4.data(), MPI_FLOAT, 0, MPI_COMM_WORLD),
              "MPI_Gatherv (velocities)");
        if (mine.row_bytes != 0) {
            const int r = as_count(mine.row_bytes, "a frictional row");
            std::vector<int> counts_b, disp_b;
            if (rank_ == 0) {
                counts_b = times(counts, r);
                disp_b = offsets(counts_b);
                all.row_bytes = mine.row_bytes;
                all.rows.resize(all.size() * mine.row_bytes);
            }
            check(MPI_Gatherv(mine.rows.data(), as_count(mine.rows.size(), "a parcel's rows"),
                              MPI_BYTE, all.rows.data(), counts_b.data(), disp_b.data(), MPI_BYTE,
                              0, MPI_COMM_WORLD),
                  "MPI_Gatherv (frictional rows)");
        }
        return all;
    }

    std::vector<double> all_gather(const std::vector<double>& values) override {
        const int count = as_count(values.size(), "a list of values");
        std::vector<double> out(values.size() * static_cast<std::size_t>(size_));
        check(MPI_Allgather(values.data(), count, MPI_DOUBLE, out.data(), count, MPI_DOUBLE,
                            MPI_COMM_WORLD),
              "MPI_Allgather");
        return out;
    }

    [[noreturn]] void abort(int code) override {
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code);  // MPI_Abort should not return; if it does, end this rank at least
    }

  private:
    int rank_ = 0, size_ = 1;
    bool owns_ = false;
};

}  // namespace

std::unique_ptr<RankTransport> make_mpi_transport() { return std::make_unique<MpiTransport>(); }

}  // namespace plab::sim
