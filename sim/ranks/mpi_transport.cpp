// rank_transport.h over MPI (built with PLAB_HAS_MPI). Parcels travel as their arrays (ids,
// positions, velocities and the frictional rows) in one all-to-all each, after an all-to-all of
// their counts. Every MPI
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

// `counts` of particles as counts of elements, `k` a particle.
std::vector<int> times(const std::vector<int>& counts, int k) {
    std::vector<int> out(counts);
    for (int& c : out)
        c = as_count(static_cast<std::size_t>(c) * static_cast<std::size_t>(k), "a parcel's array");
    return out;
}

// One array of the parcels moved by an all-to-all: `per` elements of `type` a particle, the
// counts given in particles.
void all_to_all(const void* from, const std::vector<int>& send, void* to,
                const std::vector<int>& recv, int per, MPI_Datatype type, const char* what) {
    const std::vector<int> s = times(send, per), r = times(recv, per);
    check(MPI_Alltoallv(from, s.data(), offsets(s).data(), type, to, r.data(), offsets(r).data(),
                        type, MPI_COMM_WORLD),
          what);
}

// One array of a parcel gathered on rank 0: `count` particles here of `per` elements of `type`;
// `counts` (rank 0 only) every rank's particles.
void gather_on_root(const void* from, std::size_t count, void* to, const std::vector<int>& counts,
                    int per, MPI_Datatype type, const char* what) {
    const std::vector<int> c = times(counts, per), d = offsets(c);
    check(MPI_Gatherv(from, as_count(count * static_cast<std::size_t>(per), what), type, to,
                      c.data(), d.data(), type, 0, MPI_COMM_WORLD),
          what);
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
        std::size_t n = 0;
        for (int c : recv) n += static_cast<std::size_t>(c);
        Parcel in;
        in.id.resize(n);
        in.pos.resize(n);
        in.vel.resize(n);
        all_to_all(flat.id.data(), send, in.id.data(), recv, 1, MPI_UINT32_T,
                   "MPI_Alltoallv (ids)");
        all_to_all(flat.pos.data(), send, in.pos.data(), recv, 4, MPI_FLOAT,
                   "MPI_Alltoallv (positions)");
        all_to_all(flat.vel.data(), send, in.vel.data(), recv, 4, MPI_FLOAT,
                   "MPI_Alltoallv (velocities)");
        // The frictional rows (the same size on every rank: the law is the run's).
        std::size_t row = 0;
        for (const Parcel& p : out) row = std::max(row, p.row_bytes);
        if (row != 0) {
            in.row_bytes = row;
            in.rows.resize(n * row);
            all_to_all(flat.rows.data(), send, in.rows.data(), recv,
                       as_count(row, "a frictional row"), MPI_BYTE,
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
        if (rank_ == 0) {
            std::size_t n = 0;
            for (int c : counts) n += static_cast<std::size_t>(c);
            all.id.resize(n);
            all.pos.resize(n);
            all.vel.resize(n);
            all.row_bytes = mine.row_bytes;
            all.rows.resize(n * mine.row_bytes);
        }
        gather_on_root(mine.id.data(), mine.size(), all.id.data(), counts, 1, MPI_UINT32_T,
                       "MPI_Gatherv (ids)");
        gather_on_root(mine.pos.data(), mine.size(), all.pos.data(), counts, 4, MPI_FLOAT,
                       "MPI_Gatherv (positions)");
        gather_on_root(mine.vel.data(), mine.size(), all.vel.data(), counts, 4, MPI_FLOAT,
                       "MPI_Gatherv (velocities)");
        if (mine.row_bytes != 0)
            gather_on_root(mine.rows.data(), mine.size(), all.rows.data(), counts,
                           as_count(mine.row_bytes, "a frictional row"), MPI_BYTE,
                           "MPI_Gatherv (frictional rows)");
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
