#pragma once
// The ranks of a test as threads of one process: rank_transport.h over a shared mailbox and a
// barrier, so the stepper's exchanges are tested without an MPI launcher.
#include <barrier>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "sim/ranks/rank_transport.h"

namespace plab::sim::testing {

class ThreadMailbox {
  public:
    explicit ThreadMailbox(int ranks)
        : ranks_(ranks),
          sync_(ranks),
          box_(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(ranks)),
          values_(static_cast<std::size_t>(ranks)) {}

    // Runs body(transport) on `ranks` threads, one transport each, and joins them.
    void run(const std::function<void(RankTransport&)>& body);

  private:
    class Transport;
    int ranks_;
    std::barrier<> sync_;
    std::vector<Parcel> box_;  // [from * ranks + to]
    std::vector<std::vector<double>> values_;
};

class ThreadMailbox::Transport final : public RankTransport {
  public:
    Transport(ThreadMailbox& box, int rank) : box_(box), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return box_.ranks_; }
    const char* name() const override { return "threads"; }

    Parcel exchange(const std::vector<Parcel>& out) override {
        for (int to = 0; to < size(); ++to) slot(rank_, to) = out[static_cast<std::size_t>(to)];
        box_.sync_.arrive_and_wait();
        Parcel in;
        for (int from = 0; from < size(); ++from) in.append(slot(from, rank_));
        box_.sync_.arrive_and_wait();
        return in;
    }
    Parcel gather(const Parcel& mine) override {
        std::vector<Parcel> out(static_cast<std::size_t>(size()));
        for (Parcel& p : out) p.row_bytes = mine.row_bytes;
        out[0] = mine;
        Parcel all = exchange(out);
        return rank_ == 0 ? all : Parcel{};
    }
    std::vector<double> all_gather(const std::vector<double>& values) override {
        box_.values_[static_cast<std::size_t>(rank_)] = values;
        box_.sync_.arrive_and_wait();
        std::vector<double> all;
        for (const auto& v : box_.values_) all.insert(all.end(), v.begin(), v.end());
        box_.sync_.arrive_and_wait();
        return all;
    }

    [[noreturn]] void abort(int /*code*/) override { std::abort(); }

  private:
    Parcel& slot(int from, int to) {
        return box_.box_[static_cast<std::size_t>(from * box_.ranks_ + to)];
    }
    ThreadMailbox& box_;
    int rank_;
};

inline void ThreadMailbox::run(const std::function<void(RankTransport&)>& body) {
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks_; ++r)
        threads.emplace_back([this, r, &body] {
            Transport t(*this, r);
            body(t);
        });
    for (std::thread& t : threads) t.join();
}

}  // namespace plab::sim::testing
