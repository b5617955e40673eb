// tfcc's side of the benchmark suite (benchmarks/suite_run.sh, issue 22 and issue 18). One
// workload per run; prints one line per result and writes them as JSON records
// {"framework", "workload", "kind", "batch", "value", "unit"} for suite_report.py.
//
//   suite_bench --train resnet|gru|lstm|transformer|mlp [--threads 2] [--seconds 5] [--json OUT]
//       Keras fit samples/s (suite_models.h), random data, Adam, sparse cross-entropy.
//   suite_bench --infer cnn|resnet [--batches 1,64] ...
//       the model exported as a TensorFlow SavedModel, loaded back with saved_model::load and
//       run through its serving signature: samples/s per batch size.
//   suite_bench --saved-model DIR --input X.npy [--batches 1,64] ...
//       a SavedModel written by TensorFlow: load time (s), first call (s) and samples/s on random
//       inputs shaped and typed like X.npy.
//
// Each timed region is calibrated: 3 warm-up steps (tracing), then one call of n steps, n grown
// until that call lasts --seconds (suite_common.py's steps_per_s does the same for the peers).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/suite_models.h"
#include "examples/seed_cnn.h"
#include "tfcc/platform/file.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

namespace {

struct Args {
  std::string train, infer, saved_model, input, json;
  std::vector<int64_t> batches = {1, 64};
  int threads = 2;
  double seconds = 5.0;
};

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs `run(n)` (n steps) after a 3-step warm-up, growing n until one timed call lasts at least
// `seconds`; returns steps per second of that call.
double steps_per_s(const std::function<void(int64_t)>& run, double seconds) {
  run(3);
  int64_t n = 3;
  for (;;) {
    const double t0 = now_s();
    run(n);
    const double t = now_s() - t0;
    if (t >= seconds || n >= 1000000) return static_cast<double>(n) / t;
    const double want = 1.1 * seconds / std::max(t, 1e-6) * static_cast<double>(n);
    n = std::clamp<int64_t>(static_cast<int64_t>(want), n + 1, 1000000);
  }
}

std::vector<std::string> records;
void record(const std::string& workload, const std::string& kind, int64_t batch, double value,
            const std::string& unit) {
  std::printf("tfcc %s %s batch %lld: %.4g %s\n", workload.c_str(), kind.c_str(),
              static_cast<long long>(batch), value, unit.c_str());
  std::ostringstream r;
  r << "{\"framework\": \"tfcc\", \"workload\": \"" << workload << "\", \"kind\": \"" << kind
    << "\", \"batch\": " << batch << ", \"value\": " << value << ", \"unit\": \"" << unit << "\"}";
  records.push_back(r.str());
}

void train(const Args& a) {
  tfcc_bench::SuiteModel m = tfcc_bench::suite_model(a.train);
  m.model.compile(
      {.optimizer = "adam",
       .loss = tf::keras::losses::SparseCategoricalCrossentropy({.from_logits = true})});
  auto data = tf::data::Dataset::from_tensor_slices({m.x, m.y}).batch(m.batch).repeat();
  const double rate = steps_per_s(
      [&](int64_t n) { m.model.fit(data, {.verbose = 0, .steps_per_epoch = n}); }, a.seconds);
  record(a.train, "train", m.batch, rate * static_cast<double>(m.batch), "samples/s");
}

tf::Tensor random_like(const tf::Tensor& example, int64_t batch) {
  std::vector<int64_t> dims = example.shape().dims();
  dims[0] = batch;
  if (example.dtype() == tf::float32) return tf::random::uniform(dims);
  return tf::cast(tf::random::uniform(dims, 0.0, 50.0), example.dtype());
}

void serve(const std::string& workload, const tf::saved_model::LoadedModel& loaded,
           const tf::Tensor& example, const Args& a) {
  const tf::saved_model::Signature& sig = loaded.signatures.at("serving_default");
  for (int64_t b : a.batches) {
    tf::Tensor x = random_like(example, b);
    const double rate = steps_per_s(
        [&](int64_t n) {
          for (int64_t i = 0; i < n; ++i) sig({x});
        },
        a.seconds);
    record(workload, "infer", b, rate * static_cast<double>(b), "samples/s");
  }
}

void infer(const Args& a) {
  tf::Tensor example = tf::random::uniform({2, 28, 28, 1});
  auto run = [&](tf::keras::Model& model) {
    model(example, {.training = false});
    const std::string dir = "/tmp/tfcc_suite_export_" + std::to_string(::getpid());
    tf::keras::export_model(model, dir, {.save = {.format = tf::saved_model::Format::kTensorFlow}});
    tf::saved_model::LoadedModel loaded = tf::saved_model::load(dir);
    std::filesystem::remove_all(dir);
    serve(a.infer, loaded, example, a);
  };
  if (a.infer == "cnn") {
    tf::keras::Sequential model = tfcc::examples::seed_cnn();
    run(model);
  } else {
    tf::keras::Model model = tfcc_bench::resnet();
    run(model);
  }
}

void saved_model(const Args& a) {
  const std::string name = std::filesystem::path(a.saved_model).parent_path().filename();
  tf::Tensor example = tf::io::load_npy(a.input);
  double t0 = now_s();
  tf::saved_model::LoadedModel loaded = tf::saved_model::load(a.saved_model);
  record(name, "load", 0, now_s() - t0, "s");
  const tf::saved_model::Signature& sig = loaded.signatures.at("serving_default");
  for (int64_t b : a.batches) {
    tf::Tensor x = random_like(example, b);
    t0 = now_s();
    sig({x});
    record(name, "first_call", b, now_s() - t0, "s");
  }
  serve(name, loaded, example, a);
}

std::vector<int64_t> parse_list(const char* s) {
  std::vector<int64_t> v;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) v.push_back(std::atoll(item.c_str()));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--train")
      a.train = v;
    else if (k == "--infer")
      a.infer = v;
    else if (k == "--saved-model")
      a.saved_model = v;
    else if (k == "--input")
      a.input = v;
    else if (k == "--json")
      a.json = v;
    else if (k == "--batches")
      a.batches = parse_list(v);
    else if (k == "--threads")
      a.threads = std::atoi(v);
    else if (k == "--seconds")
      a.seconds = std::atof(v);
    else {
      std::fprintf(stderr, "suite_bench: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  tf::config::threading::set_intra_op_parallelism_threads(a.threads);
  tf::random::set_seed(42);
  try {
    if (!a.train.empty())
      train(a);
    else if (!a.infer.empty())
      infer(a);
    else if (!a.saved_model.empty())
      saved_model(a);
    else {
      std::fprintf(stderr, "suite_bench: give --train, --infer or --saved-model\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "suite_bench: %s\n", e.what());
    return 1;
  }
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    out << "[";
    for (size_t i = 0; i < records.size(); ++i) out << (i ? ",\n " : "") << records[i];
    out << "]\n";
  }
  return 0;
}
