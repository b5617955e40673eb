// A training loop on 2 MPI ranks where rank 1 misbehaves at step 3, for tests/mpi/failure_test.sh:
//   kill      rank 1 SIGKILLs itself
//   stall     rank 1 stops calling collectives (sleeps far past the timeout)
//   mismatch  rank 1 reduces a different list of tensors
//   fit_kill  rank 1 SIGKILLs itself in keras fit (a callback at batch 3 of a traced step loop)
//   gradient_stall  like stall, in a loop whose gradients are reduced by Strategy::gradient (the
//             buckets' all-reduce overlapped with backprop, on the communication thread)
// The surviving ranks must exit non-zero, promptly, with a clear message; never hang.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

#include "tests/mpi/linear_model.h"
#include "tfcc/tfcc.h"

int main(int argc, char** argv) {
  using namespace tfcc;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s kill|stall|mismatch|fit_kill|gradient_stall TIMEOUT_SECONDS\n",
                 argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const double timeout = std::atof(argv[2]);
  int rank = -1;
  try {
    distribute::MultiWorkerMirroredStrategy s(
        {.timeout_seconds = timeout, .gradient_bucket_bytes = 16});
    rank = s.rank();
    if (mode == "fit_kill") {
      auto scope = s.scope();
      keras::Sequential model({keras::layers::Dense(3, {.input_shape = {4}})});
      model.compile({.optimizer = "sgd", .loss = "mse"});
      auto [x, y] = mpi_test::global_batch(0, 160);
      keras::callbacks::LambdaCallback die({.on_batch_end = [rank](int batch, auto&) {
        if (batch == 3 && rank == 1) std::raise(SIGKILL);
      }});
      model.fit(x, y, {.batch_size = 16, .verbose = 0, .callbacks = {std::move(die)}});
      std::printf("rank %d finished all steps\n", rank);
      return 0;
    }
    mpi_test::LinearModel m;
    std::vector<Variable> vars = {m.w, m.b};
    s.broadcast_variables(vars);
    for (int step = 0; step < 10; ++step) {
      auto [x, y] = mpi_test::global_batch(step, 8);
      if (mode == "gradient_stall") {
        if (step == 3 && rank == 1) {
          std::this_thread::sleep_for(std::chrono::duration<double>(timeout * 20));
        }
        GradientTape tape;
        Tensor loss = reduce_mean(square(matmul(x, m.w) + m.b - y));
        mpi_test::sgd(m, s.gradient(tape, loss, vars), 0.1f);
        continue;
      }
      auto g = mpi_test::gradients(m, x, y);
      if (step == 3 && rank == 1) {
        if (mode == "kill") std::raise(SIGKILL);
        if (mode == "stall")
          std::this_thread::sleep_for(std::chrono::duration<double>(timeout * 20));
        if (mode == "mismatch") g.pop_back();
      }
      mpi_test::sgd(m, s.all_reduce(g, distribute::ReduceOp::kMean), 0.1f);
    }
    std::printf("rank %d finished all steps\n", rank);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "rank %d: %s: %s\n", rank, error_code_name(e.code()), e.what());
    return 1;
  }
}
