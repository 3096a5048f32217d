// SPDX-License-Identifier: Apache-2.0
// Test main of hamon_mpi_tests, run by mpiexec as every rank of one job: MPI is initialised
// first and finalised last, Kokkos inside it (as tests/main.cpp does), GoogleTest inside
// that. Every rank runs every test in the same order, so each test's collectives match.
//
// Rank 0 prints GoogleTest's usual output. The other ranks print nothing but their failed
// assertions, prefixed with their rank. The exit status is the worst of all ranks': a
// failure on any rank fails every rank, so mpiexec and CTest see it whichever rank it was.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

namespace {

/// A non-root rank's listener: silent, except for a failed assertion. (The test's name is
/// kept from OnTestStart: UnitTest::current_test_info() takes the lock GoogleTest holds
/// while it reports a result, so calling it from OnTestPartResult deadlocks.)
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestStart(const ::testing::TestInfo& test) override {
    test_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestEnd(const ::testing::TestInfo&) override { test_ = "(outside a test)"; }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s: %s:%d: failure\n%s\n", rank_, test_.c_str(),
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.message());
    std::fflush(stderr);
  }

 private:
  int rank_;
  std::string test_ = "(outside a test)";
};

}  // namespace

int main(int argc, char* argv[]) {
  // Funneled: only the thread that calls main calls MPI (Kokkos's OpenMP threads never do).
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  int n_ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);

  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (rank != 0) {
      ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailurePrinter(rank));
    }
    status = RUN_ALL_TESTS();
  }

  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && status == 0 && worst != 0) {
    std::fprintf(stderr, "hamon_mpi_tests: a test failed on another of the %d ranks\n", n_ranks);
  }
  MPI_Finalize();
  return worst;
}
