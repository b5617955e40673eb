// Where one eager MLP training step spends its time, op by op: an ExecutionContext that wraps
// the eager executor and times each kernel call (the dispatch point makes this a few lines).
//
//   build/release/benchmarks/mlp_op_profile_bench [threads]
//
// Prints the step's wall time, the time inside kernels, and the top ops by time per step, keyed
// by op name and first input shape. The model is mlp_model.h's, as in mlp_step_bench.cc.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "benchmarks/mlp_model.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

class OpTimer : public tf::ExecutionContext {
 public:
  std::vector<tf::Tensor> execute(const tf::OpCall& call) override {
    auto t0 = Clock::now();
    std::vector<tf::Tensor> out = tf::execute_eager(call);
    std::string key = call.op.name();
    if (!call.inputs.empty()) {
      key.push_back(' ');
      key.append(call.inputs[0].shape().debug_string());
    }
    auto& [us, count] = totals_[key];
    us += micros_since(t0);
    ++count;
    return out;
  }
  const std::map<std::string, std::pair<double, int>>& totals() const { return totals_; }

 private:
  std::map<std::string, std::pair<double, int>> totals_;
};

}  // namespace

int main(int argc, char** argv) {
  omp_set_num_threads(argc > 1 ? std::atoi(argv[1]) : 1);
  tfcc_bench::Mlp mlp;
  auto step = [&] { mlp.step(); };
  for (int i = 0; i < 20; ++i) step();  // warm the allocator and the primitive cache
  const int steps = 100;
  OpTimer timer;
  auto t0 = Clock::now();
  {
    tf::ExecutionContextScope scope(&timer);
    for (int i = 0; i < steps; ++i) step();
  }
  double step_us = micros_since(t0) / steps;
  std::vector<std::pair<double, std::string>> rows;
  double kernels = 0;
  for (const auto& [key, total] : timer.totals()) {
    std::string label = key;
    label.append(" x").append(std::to_string(total.second / steps));
    rows.emplace_back(total.first / steps, label);
    kernels += total.first / steps;
  }
  std::sort(rows.rbegin(), rows.rend());
  std::printf("threads %d: step %.0f us, inside kernels %.0f us\n", omp_get_max_threads(), step_us,
              kernels);
  for (size_t i = 0; i < rows.size() && i < 20; ++i) {
    std::printf("%9.1f us  %s\n", rows[i].first, rows[i].second.c_str());
  }
  return 0;
}
