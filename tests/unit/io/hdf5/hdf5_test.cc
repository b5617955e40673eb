#include "tfcc/io/hdf5/hdf5.h"

#include <gtest/gtest.h>

#include "tfcc/tfcc.h"

namespace tfcc::io::hdf5 {
namespace {

// A file with /layers/dense/vars holding a float kernel, an int64 scalar and a name attribute.
std::string sample_image() {
  File f = File::create("sample.h5");
  Group vars = f.root().create_group("layers").create_group("dense").create_group("vars");
  vars.set_string_attribute("name", "dense_3");
  vars.write("0", Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3}));
  vars.write("1", Tensor::scalar<int64_t>(-7));
  vars.write("2", Tensor::from_vector<int32_t>({}, Shape{0, 4}));
  return f.image();
}

TEST(Hdf5Test, RoundTripsDatasetsGroupsAndAttributes) {
  const std::string image = sample_image();
  ASSERT_TRUE(has_hdf5_signature(image));
  File f = File::open_image(image, "sample.h5");
  EXPECT_EQ(f.root().children(), std::vector<std::string>{"layers"});
  ASSERT_TRUE(f.root().has_group("layers/dense/vars"));
  EXPECT_FALSE(f.root().has_group("layers/conv2d/vars"));
  EXPECT_FALSE(f.root().has_dataset("layers/dense/vars"));
  Group vars = f.root().group("layers/dense/vars");
  EXPECT_EQ(vars.path(), "/layers/dense/vars");
  EXPECT_EQ(vars.string_attribute("name"), std::optional<std::string>("dense_3"));
  EXPECT_EQ(vars.string_attribute("other"), std::nullopt);
  EXPECT_EQ(vars.children(), (std::vector<std::string>{"0", "1", "2"}));
  Tensor k = vars.read("0");
  EXPECT_EQ(k.dtype(), float32);
  EXPECT_EQ(k.shape(), (Shape{2, 3}));
  EXPECT_EQ(k.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Tensor s = vars.read("1");
  EXPECT_EQ(s.dtype(), int64);
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.item<int64_t>(), -7);
  EXPECT_EQ(vars.read("2").shape(), (Shape{0, 4}));
}

TEST(Hdf5Test, MissingObjectsAreDataLossErrorsNamingTheFile) {
  File f = File::open_image(sample_image(), "sample.h5");
  try {
    f.root().group("layers/lstm/vars");
    FAIL() << "expected DataLossError";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find("sample.h5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/layers/lstm/vars"), std::string::npos) << e.what();
  }
  EXPECT_THROW(f.root().group("layers/dense/vars").read("9"), DataLossError);
  EXPECT_THROW(f.root().group("layers/dense/vars/0"), DataLossError);  // a dataset
}

TEST(Hdf5Test, NotHdf5AndTruncatedFilesAreDataLossErrors) {
  EXPECT_THROW(File::open_image("", "empty.h5"), DataLossError);
  EXPECT_THROW(File::open_image("PK\x03\x04 not hdf5", "zip.h5"), DataLossError);
  const std::string image = sample_image();
  // Every truncation either opens (and then reads or fails with DataLossError) or is refused.
  for (size_t n : {size_t{8}, size_t{96}, image.size() / 2, image.size() - 1}) {
    try {
      File f = File::open_image(std::string_view(image).substr(0, n), "cut.h5");
      Group vars = f.root().group("layers/dense/vars");
      vars.read("0");
    } catch (const DataLossError& e) {
      EXPECT_NE(std::string(e.what()).find("cut.h5"), std::string::npos) << e.what();
    }
  }
}

TEST(Hdf5Test, DamagedBytesNeverCrash) {
  const std::string image = sample_image();
  for (size_t i = 0; i < image.size(); i += 7) {
    std::string bad = image;
    bad[i] = static_cast<char>(~bad[i]);
    try {
      File f = File::open_image(bad, "bad.h5");
      Group vars = f.root().group("layers/dense/vars");
      for (const auto& name : vars.children()) vars.read(name);
    } catch (const DataLossError&) {
    } catch (const UnimplementedError&) {
    }
  }
}

TEST(Hdf5Test, UnsupportedDtypeIsUnimplemented) {
  File f = File::create("w.h5");
  EXPECT_THROW(f.root().write("x", Tensor::from_vector<bool>({true}, Shape{1})),
               UnimplementedError);
}

}  // namespace
}  // namespace tfcc::io::hdf5
