// Training from a TFRecord file of tf.train.Example records, the form most TensorFlow training
// data is kept in. Python it mirrors:
//
//   def to_example(image, label):
//       return tf.train.Example(features=tf.train.Features(feature={
//           "image": tf.train.Feature(bytes_list=tf.train.BytesList(
//               value=[tf.io.encode_png(image[..., None]).numpy()])),
//           "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
//           "mean": tf.train.Feature(float_list=tf.train.FloatList(value=[image.mean()]))}))
//   with tf.io.TFRecordWriter("train.tfrecord") as w:
//       for image, label in zip(x_train, y_train):
//           w.write(to_example(image, label).SerializeToString())
//   spec = {"image": tf.io.FixedLenFeature([], tf.string),
//           "label": tf.io.FixedLenFeature([], tf.int64)}
//   def parse(record):
//       f = tf.io.parse_single_example(record, spec)
//       return tf.io.decode_png(f["image"], channels=1), f["label"]
//   train = (tf.data.TFRecordDataset("train.tfrecord")
//            .map(parse, num_parallel_calls=tf.data.AUTOTUNE).shuffle(512).batch(64))
//   model.fit(train, epochs=3); model.evaluate(test)
//
// The file is written with tfcc's Example builder and TFRecordWriter (TensorFlow reads it as
// is), read back with tfrecord_dataset + parse_single_example + decode_png, and the first
// record's pixels are checked against the original image. By default a subset (3,000 training,
// 1,000 test images); `--full` uses all 70,000.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "tfcc/io/record/record_writer.h"
#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;
namespace fs = std::filesystem;

namespace {

// Writes the first n (image, label) pairs as tf.train.Example records.
void write_records(const std::string& path, const tf::Tensor& images, const tf::Tensor& labels,
                   int64_t n) {
  tf::io::TFRecordWriter writer(path, "GZIP");
  for (int64_t i = 0; i < n; ++i) {
    tf::Tensor image = tf::reshape(images(i), {28, 28, 1});
    tf::io::Example ex;
    ex.set("image", tf::io::Feature::bytes({tf::data::tensor_bytes(tf::io::encode_png(image))}))
        .set("label", tf::io::Feature::int64s({labels(i).item<int64_t>()}))
        .set("mean", tf::io::Feature::floats(
                         {tf::reduce_mean(tf::cast(image, tf::float32)).item<float>()}));
    writer.write(ex.serialize());
  }
  writer.close();
}

const tf::io::FeatureSpecs& spec() {
  static const tf::io::FeatureSpecs s{
      {"image", tf::io::FixedLenFeature{.dtype = tf::uint8}},  // bytes: the PNG file
      {"label", tf::io::FixedLenFeature{.dtype = tf::int64}}};
  return s;
}

tf::data::Dataset read_records(const std::string& path, bool shuffle) {
  auto ds = tf::data::tfrecord_dataset({path}, "GZIP")
                .map(
                    [](tf::Tensor record) {
                      tf::io::ParsedExample f = tf::io::parse_single_example(record, spec());
                      return std::tuple{tf::io::decode_png(f.at("image").values, 1),
                                        tf::cast(f.at("label").values, tf::int32)};
                    },
                    {.num_parallel_calls = tf::data::AUTOTUNE,
                     .output_spec = tf::data::ElementSpec{
                         {tf::uint8, tf::PartialShape{28, 28, 1}},
                         {tf::int32, tf::PartialShape(std::vector<int64_t>{})}}});
  if (shuffle) ds = ds.shuffle(512, {.seed = 1});
  return ds.batch(64);
}

}  // namespace

static int example_main(int argc, char** argv) {
  bool full = false;
  for (int i = 1; i < argc; ++i) full = full || std::strcmp(argv[i], "--full") == 0;
  auto [train_xy, test_xy] = datasets::fashion_mnist::load_data();
  const int64_t n_train = full ? 60000 : 3000, n_test = full ? 10000 : 1000;

  const fs::path dir =
      fs::temp_directory_path() / ("tfcc_tfrecord_examples_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string train_path = (dir / "train.tfrecord.gz").string();
  const std::string test_path = (dir / "test.tfrecord.gz").string();
  write_records(train_path, train_xy.first, train_xy.second, n_train);
  write_records(test_path, test_xy.first, test_xy.second, n_test);
  std::printf("Wrote %lld + %lld tf.train.Example records (%lld + %lld bytes, GZIP)\n",
              static_cast<long long>(n_train), static_cast<long long>(n_test),
              static_cast<long long>(fs::file_size(train_path)),
              static_cast<long long>(fs::file_size(test_path)));

  // The round trip is exact: the first record decodes to the first image.
  tf::data::Dataset train = read_records(train_path, true);
  tf::data::Dataset check = read_records(train_path, false);
  const tf::data::Element first = *check.begin();
  const bool same =
      tf::reduce_all(tf::equal(first[0](0), tf::reshape(train_xy.first(0), {28, 28, 1})))
          .item<bool>() &&
      first[1](0).item<int64_t>() == train_xy.second(0).item<int64_t>();
  std::printf("First record read back: %s, element_spec = %s\n", same ? "identical" : "DIFFERENT",
              tf::data::spec_string(train.element_spec()).c_str());

  tf::random::set_seed(42);
  Sequential model({layers::Rescaling(1.0 / 255, {.input_shape = {28, 28, 1}}),
                    layers::Conv2D(16, 3, {.activation = "relu"}), layers::MaxPooling2D(),
                    layers::Flatten(), layers::Dense(64, {.activation = "relu"}),
                    layers::Dense(10)});
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(train, {.epochs = full ? 5 : 3, .verbose = 2});
  const double acc = model.evaluate(read_records(test_path, false), {.verbose = 0})[1];
  fs::remove_all(dir);
  std::printf("Test accuracy from the TFRecord of Examples: %.4f\n", acc);
  return same && acc > (full ? 0.85 : 0.6) ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
