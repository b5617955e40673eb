// String tensors in checkpoints: stored as TensorFlow stores DT_STRING (dtype 7, varint
// lengths, masked CRC32C) and read back as string tensors.
#include <gtest/gtest.h>
#include <unistd.h>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/platform/file.h"

namespace tfcc::checkpoint {
namespace {

TEST(StringTensorBundle, RoundTripsAsDtString) {
  std::string dir = internal::str_cat(testing::TempDir(), "tfcc_string_bundle_", ::getpid());
  make_dirs(dir);
  const std::string prefix = dir + "/ckpt";
  Tensor words = Tensor::from_strings({"a", "", std::string(300, 'x'), "\xff\x00z"}, Shape{2, 2});
  BundleWriter w(prefix);
  w.add("words", words);
  w.add("n", Tensor::from_vector<float>({1.f}));
  w.finish();
  BundleReader r(prefix);
  Tensor back = r.read_tensor("words");
  EXPECT_EQ(back.dtype(), string);
  EXPECT_EQ(back.shape(), (Shape{2, 2}));
  EXPECT_EQ(back.to_vector<std::string>(), words.to_vector<std::string>());
  EXPECT_EQ(r.read_strings("words"), words.to_vector<std::string>());
}

}  // namespace
}  // namespace tfcc::checkpoint
