// The tfcc side of tf_checkpoint_interop.sh: TensorFlow and tfcc read each other's checkpoints.
//
//   checkpoint_interop write DIR   writes DIR/tfcc/ckpt-{2,3} through a CheckpointManager and
//                                  DIR/tfcc_expected.npz (the values, for NumPy to compare)
//   checkpoint_interop read DIR    reads DIR/tf/ckpt-1 (written by TensorFlow) by name and by
//                                  object, comparing with DIR/tf_expected.npz and
//                                  DIR/tf_expected_compressed.npz (written by NumPy)
//   checkpoint_interop stale DIR   writes a tfcc checkpoint at DIR/tf/ckpt-1 for TensorFlow to
//                                  overwrite (its manifest then names bytes that are gone)
// Exit status 0 when everything matches; messages say what differed.
#include <iostream>
#include <map>

#include "tfcc/io/checkpoint/checkpoint.h"
#include "tfcc/io/checkpoint/checkpoint_manager.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/npy/npy.h"

namespace {

using tfcc::Shape;
using tfcc::Tensor;
using tfcc::Variable;

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "MISMATCH: " << what << "\n";
    ++failures;
  }
}

bool same(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.to_vector<double>() == b.to_vector<double>();
}

int write(const std::string& dir) {
  Variable kernel(
      Tensor::from_vector<float>({0.5f, -1.25f, 3.0f, 1e-8f, -7.5f, 42.0f}, Shape{2, 3}),
      {.name = "dense/kernel"});
  Variable bias(Tensor::from_vector<double>({0.1, -0.2, 0.3}), {.name = "dense/bias"});
  Variable counts(Tensor::from_vector<int32_t>({1, -2, 2147483647}), {.name = "counts"});
  Variable step(Tensor::scalar<int64_t>(1234567890123LL), {.name = "step", .trainable = false});
  Variable pixels(Tensor::from_vector<uint8_t>({0, 7, 255, 128}, Shape{2, 2}), {.name = "pixels"});
  Variable mask(Tensor::from_vector<bool>({true, false, true}), {.name = "mask"});
  Variable half(Tensor::from_vector<tfcc::BFloat16>({tfcc::BFloat16(1.5f), tfcc::BFloat16(-2.0f)}),
                {.name = "half"});
  tfcc::train::Trackable dense, model;
  dense.track("kernel", kernel).track("bias", bias);
  model.track("dense", dense).track("counts", counts).track("pixels", pixels).track("mask", mask);
  model.track("half", half);
  tfcc::train::Checkpoint ckpt({{"model", model}, {"step", step}});
  // Three saves through a manager keeping two: TensorFlow must follow its state file.
  tfcc::train::CheckpointManager manager(ckpt, dir + "/tfcc", {.max_to_keep = 2});
  std::string path;
  for (int i = 0; i < 3; ++i) {
    step.assign_add(tfcc::Tensor::scalar<int64_t>(1));
    path = manager.save();
  }
  std::cout << "tfcc wrote " << path << " (and kept " << manager.checkpoints().size() << ")\n";

  tfcc::io::NamedArrays expected;
  for (const auto& [key, variable] : tfcc::train::checkpoint_keys(*ckpt.root())) {
    Tensor v = variable.read_value();
    if (v.dtype() == tfcc::bfloat16) {  // NumPy has no bfloat16: compare as float32
      v = Tensor::from_vector<float>(v.to_vector<float>(), v.shape());
    }
    expected.emplace_back(key, v);
  }
  tfcc::io::save_npz(dir + "/tfcc_expected.npz", expected);
  return 0;
}

int read(const std::string& dir) {
  std::string prefix = dir + "/tf/ckpt-1";
  auto reader = tfcc::train::load_checkpoint(dir + "/tf");  // a directory: its latest checkpoint
  auto shapes = reader->get_variable_to_shape_map();
  auto dtypes = reader->get_variable_to_dtype_map();
  std::cout << "tfcc read " << shapes.size() << " keys from TensorFlow's checkpoint\n";
  for (const char* file : {"/tf_expected.npz", "/tf_expected_compressed.npz"}) {
    auto expected = tfcc::io::load_npz(dir + file);
    check(!expected.empty(), std::string(file) + " is empty");
    for (const auto& [key, value] : expected) {
      if (!reader->has_tensor(key)) {
        check(false, "key " + key + " missing");
        continue;
      }
      Tensor got = reader->get_tensor(key);
      if (got.dtype() == tfcc::bfloat16)
        got = Tensor::from_vector<float>(got.to_vector<float>(), got.shape());
      check(same(got, value), "value of " + key + " (" + dtypes[key] + ")");
    }
  }
  // A float16 variable: tfcc has no float16 tensors, and says so.
  try {
    reader->get_tensor("extras/f16/.ATTRIBUTES/VARIABLE_VALUE");
    check(false, "float16 tensor read without an error");
  } catch (const tfcc::UnimplementedError& e) {
    std::cout << "float16 refused as expected: " << e.what() << "\n";
  }
  auto words = reader->get_string_tensor("extras/words/.ATTRIBUTES/VARIABLE_VALUE");
  check(words == std::vector<std::string>({"hello", "", "tf"}), "string tensor");

  // Object-based restore into tfcc objects shaped like the Python ones.
  Variable w(Tensor::from_vector<float>(std::vector<float>(6, 0.0f), Shape{2, 3}));
  Variable b(Tensor::from_vector<double>({0, 0, 0}));
  Variable step(Tensor::scalar<int64_t>(0));
  tfcc::train::Trackable model;
  model.track("w", w).track("b", b);
  tfcc::train::Checkpoint ckpt({{"model", model}, {"step", step}});
  auto status = ckpt.restore(prefix);
  status.assert_existing_objects_matched().expect_partial();
  auto expected = tfcc::io::load_npz(dir + "/tf_expected.npz");
  for (const auto& [key, value] : expected) {
    if (key == "model/w/.ATTRIBUTES/VARIABLE_VALUE")
      check(same(w.read_value(), value), "restored w");
    if (key == "model/b/.ATTRIBUTES/VARIABLE_VALUE")
      check(same(b.read_value(), value), "restored b");
    if (key == "step/.ATTRIBUTES/VARIABLE_VALUE")
      check(same(step.read_value(), value), "restored step");
  }
  check(ckpt.save_counter().read_value().item<int64_t>() == 1, "restored save_counter");
  std::cout << (failures ? "tfcc: mismatches found\n" : "tfcc: all TensorFlow values match\n");
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: checkpoint_interop write|read|stale DIR\n";
    return 2;
  }
  try {
    std::string mode = argv[1];
    if (mode == "write") return write(argv[2]);
    if (mode == "read") return read(argv[2]);
    if (mode == "stale") {
      // A tfcc checkpoint where TensorFlow will save next: TensorFlow replaces the index and
      // data files and leaves tfcc's manifest naming bytes that are gone; tfcc must then read
      // TensorFlow's files.
      tfcc::Variable step(tfcc::Tensor::scalar<int64_t>(5));
      tfcc::train::Checkpoint({{"step", step}}).write(std::string(argv[2]) + "/tf/ckpt-1");
      return 0;
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "unknown mode " << argv[1] << "\n";
  return 2;
}
