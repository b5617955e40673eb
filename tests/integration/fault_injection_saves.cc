// The saving side of the fault-injection suite (fault_injection_test.py): writers that save the
// same path again and again (to be killed with SIGKILL at any moment), a loader that checks what
// the path holds afterwards, and saves into a full disk.
//
//   fault_injection save KIND DIR [COUNT]   # saves generation 1, 2, ... (COUNT times, or forever)
//   fault_injection load KIND DIR           # exit 0: loaded one whole generation, 3: failed
//   fault_injection diskfull KIND DIR       # a save past RLIMIT_FSIZE fails cleanly (exit 0)
//
// KIND: manager (CheckpointManager), weights (Model.save_weights to a fixed path),
// model_checkpoint (ModelCheckpoint to a fixed path inside fit), model_save (Model.save),
// export (keras::export_model: a TensorFlow SavedModel directory).
// Generation g sets every weight of the model to g before saving, so a load that mixed files of
// two saves shows as weights of two different values.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "tests/integration/fault_injection.h"
#include "tfcc/platform/file.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace fault_injection {
namespace {

std::shared_ptr<Sequential> make_model() {
  auto model = std::make_shared<Sequential>(std::vector<LayerPtr>{
      layers::Dense(256, {.activation = "relu", .input_shape = {256}}),
      layers::Dense(256),
  });
  model->compile({.optimizer = "adam", .loss = losses::MeanSquaredError()});
  return model;
}

void set_generation(const Model& model, int64_t g) {
  for (const tf::Variable& v : model.weights()) {
    v.assign(tf::fill(v.read_value().shape().dims(), static_cast<double>(g)));
  }
}

// The one generation every weight holds, or -1 if they differ.
int64_t generation_of(const Model& model) {
  int64_t g = 0;
  bool first = true;
  for (const tf::Variable& v : model.weights()) {
    tf::Tensor t = v.read_value();
    const float* p = t.data<float>();
    for (int64_t i = 0; i < t.shape().num_elements(); ++i) {
      if (first) g = static_cast<int64_t>(p[i]), first = false;
      if (p[i] != static_cast<float>(g)) return -1;
    }
  }
  return g;
}

std::string target(const std::string& kind, const std::string& dir) {
  if (kind == "manager") return dir;
  if (kind == "model_save") return dir + "/model";
  if (kind == "export") return dir + "/export";
  return dir + "/w";
}

void save_loop(const std::string& kind, const std::string& dir, int64_t count) {
  tf::make_dirs(dir);
  auto model = make_model();
  const std::string path = target(kind, dir);
  if (kind == "model_checkpoint") {
    // Generation g is set at the end of epoch g-1, just before ModelCheckpoint saves it.
    tf::Tensor x = tf::zeros({8, 256}), y = tf::zeros({8, 256});
    callbacks::LambdaCallback set(
        {.on_epoch_end = [&](int epoch, callbacks::Logs&) { set_generation(*model, epoch + 1); }});
    callbacks::ModelCheckpoint save(path, {.save_weights_only = true});
    model->fit(x, y,
               {.batch_size = 8,
                .epochs = static_cast<int>(count > 0 ? count : 1 << 30),
                .verbose = 0,
                .callbacks = {std::make_shared<callbacks::LambdaCallback>(set),
                              std::make_shared<callbacks::ModelCheckpoint>(save)}});
    return;
  }
  tf::train::Checkpoint ckpt;
  std::unique_ptr<tf::train::CheckpointManager> manager;
  if (kind == "manager") {
    int i = 0;
    for (const tf::Variable& v : model->weights()) ckpt.track(tf::internal::str_cat("w", i++), v);
    manager = std::make_unique<tf::train::CheckpointManager>(
        ckpt, dir, tf::train::CheckpointManagerOptions{.max_to_keep = 2});
  }
  for (int64_t g = 1; count <= 0 || g <= count; ++g) {
    set_generation(*model, g);
    if (kind == "manager") {
      manager->save();
    } else if (kind == "weights") {
      model->save_weights(path);
    } else if (kind == "model_save") {
      model->save(path);
    } else if (kind == "export") {
      export_model(*model, path);
    } else {
      throw tf::InvalidArgumentError("unknown kind " + kind);
    }
  }
}

// The generation the path holds; throws what the load raised.
int64_t load(const std::string& kind, const std::string& dir) {
  const std::string path = target(kind, dir);
  if (kind == "export") {
    // The exported variables, as the loader restores them: all of one generation.
    tf::saved_model::LoadedModel loaded = tf::saved_model::load(path);
    int64_t g = -1;
    for (const tf::Variable& v : loaded.variables) {
      tf::Tensor t = v.read_value();
      const float* p = t.data<float>();
      for (int64_t i = 0; i < t.shape().num_elements(); ++i) {
        if (g == -1) g = static_cast<int64_t>(p[i]);
        if (p[i] != static_cast<float>(g)) g = -2;
      }
    }
    if (g < 1) throw tf::DataLossError("the exported variables mix generations or hold none");
    return g;
  }
  std::shared_ptr<Model> model;
  if (kind == "model_save") {
    model = models::load_model(path);
  } else {
    model = make_model();
    set_generation(*model, 0);
    if (kind == "manager") {
      tf::train::Checkpoint ckpt;
      int i = 0;
      for (const tf::Variable& v : model->weights()) ckpt.track(tf::internal::str_cat("w", i++), v);
      tf::train::CheckpointManager manager(ckpt, dir);
      auto latest = manager.restore_or_initialize();
      if (!latest) throw tf::NotFoundError("no checkpoint in " + dir);
    } else {
      model->load_weights(path);
    }
  }
  int64_t g = generation_of(*model);
  if (g < 1) throw tf::DataLossError("the loaded weights mix generations or hold none");
  return g;
}

}  // namespace

int saves_main(int argc, char** argv) {
  const std::string mode = argv[1];
  if (argc < 4)
    throw tf::InvalidArgumentError("usage: fault_injection save|load|diskfull KIND DIR");
  const std::string kind = argv[2], dir = argv[3];
  tf::config::threading::set_intra_op_parallelism_threads(1);
  if (mode == "save") {
    save_loop(kind, dir, argc > 4 ? std::atoll(argv[4]) : 0);
    return 0;
  }
  if (mode == "load") {
    try {
      std::printf("loaded generation %lld\n", static_cast<long long>(load(kind, dir)));
      return 0;
    } catch (const tf::Error& e) {
      std::printf("load failed: %s: %s\n", tf::error_code_name(e.code()), e.what());
      return 3;
    }
  }
  // diskfull: generation 1 is saved freely; generation 2 in a child process whose files may not
  // grow past 64 KiB (the data file needs about 512 KiB): it must fail with
  // ResourceExhaustedError, and the path must still load generation 1.
  std::filesystem::remove_all(dir);
  save_loop(kind, dir, 1);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
    struct rlimit lim {};
    lim.rlim_cur = lim.rlim_max = 64 << 10;
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      auto model = make_model();
      save_loop(kind, dir, 2);
    } catch (const tf::ResourceExhaustedError& e) {
      std::printf("diskfull %s: %s\n", kind.c_str(), e.what());
      std::fflush(stdout);
      ::_exit(42);
    } catch (const std::exception& e) {
      std::printf("diskfull %s: unexpected error: %s\n", kind.c_str(), e.what());
      std::fflush(stdout);
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 42) {
    std::printf("diskfull %s: the save past the size limit did not raise ResourceExhaustedError\n",
                kind.c_str());
    return 1;
  }
  int64_t g = load(kind, dir);
  std::printf("diskfull %s: the path still loads generation %lld\n", kind.c_str(),
              static_cast<long long>(g));
  return g == 1 ? 0 : 1;
}

}  // namespace fault_injection
