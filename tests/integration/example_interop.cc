// The tfcc side of tf_example_interop.sh: TensorFlow and tfcc read each other's TFRecord files of
// tf.train.Example and tf.train.SequenceExample.
//
//   example_interop write DIR   writes DIR/tfcc_examples.tfrecord and DIR/tfcc_sequences.tfrecord
//   example_interop read DIR    parses DIR/tf_examples.tfrecord and DIR/tf_sequences.tfrecord
//                               (written by TensorFlow's tf.io.TFRecordWriter)
// Both sides derive record i's values from the same formulas (tf_example_interop.py has the
// twin of values_of), so each checks the other's file against values it computes itself.
// Exit status 0 when everything matches; messages say what differed.
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "tfcc/io/example/example.h"
#include "tfcc/io/example/parse_example.h"
#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/record/record_writer.h"

namespace {

using namespace tfcc::io;  // NOLINT: a test tool

constexpr int kRecords = 6;
int failures = 0;

template <typename T>
void check(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  if (got != want) {
    std::cerr << "MISMATCH: " << what << " (" << got.size() << " values, expected " << want.size()
              << ")\n";
    ++failures;
  }
}

// Record i of the Example file.
struct Values {
  std::vector<float> x;           // FixedLen (2,) float32
  std::vector<int64_t> y;         // FixedLen () int64
  std::vector<int64_t> big;       // FixedLen (2,) int64, beyond 32 bits
  std::vector<std::string> name;  // FixedLen () bytes
  std::vector<std::string> blob;  // VarLen bytes, binary
  std::vector<int64_t> tags;      // VarLen int64, 0..3 values
  std::vector<float> frames;      // FixedLenSequence (2,) float32, 0..2 steps
  bool has_opt;                   // FixedLen () int64 with default -1, in even records
};

Values values_of(int i) {
  Values v;
  v.x = {static_cast<float>(i) + 0.25f, -1.5f * static_cast<float>(i)};
  v.y = {i * 7 - 3};
  v.big = {-(int64_t{1} << 40) - i, int64_t{1} << 62};
  v.name = {std::string("r").append(std::to_string(i))};
  std::string b;
  for (int k = 0; k < i; ++k) b.append("\0\xff", 2);
  v.blob = {b, "z"};
  for (int k = 0; k < i % 4; ++k) v.tags.push_back(k * 100 + i);
  for (int k = 0; k < 2 * (i % 3); ++k) v.frames.push_back(0.5f * static_cast<float>(k));
  v.has_opt = i % 2 == 0;
  return v;
}

Example example_of(int i) {
  Values v = values_of(i);
  Example ex;
  ex.set("x", Feature::floats(v.x))
      .set("y", Feature::int64s(v.y))
      .set("big", Feature::int64s(v.big))
      .set("name", Feature::bytes(v.name))
      .set("blob", Feature::bytes(v.blob))
      .set("tags", Feature::int64s(v.tags))
      .set("frames", Feature::floats(v.frames));
  if (v.has_opt) ex.set("opt", Feature::int64s({i}));
  return ex;
}

// SequenceExample i: context len = i + 1; tok step t = 0..t; emb step t = (t, t + 0.5).
SequenceExample sequence_of(int i) {
  SequenceExample s;
  s.context["len"] = Feature::int64s({i + 1});
  for (int t = 0; t <= i; ++t) {
    std::vector<int64_t> tok;
    for (int k = 0; k <= t; ++k) tok.push_back(k);
    s.feature_lists["tok"].push_back(Feature::int64s(tok));
    s.feature_lists["emb"].push_back(
        Feature::floats({static_cast<float>(t), static_cast<float>(t) + 0.5f}));
  }
  return s;
}

FeatureSpecs example_spec() {
  return {{"x", FixedLenFeature{.shape = {2}, .dtype = tfcc::float32}},
          {"y", FixedLenFeature{.dtype = tfcc::int64}},
          {"big", FixedLenFeature{.shape = {2}, .dtype = tfcc::int64}},
          {"name", FixedLenFeature{.dtype = tfcc::uint8}},
          {"blob", VarLenFeature{.dtype = tfcc::uint8}},
          {"tags", VarLenFeature{.dtype = tfcc::int64}},
          {"frames",
           FixedLenSequenceFeature{.shape = {2}, .dtype = tfcc::float32, .allow_missing = true}},
          {"opt", FixedLenFeature{.dtype = tfcc::int64, .default_value = Feature::int64s({-1})}}};
}

int write(const std::string& dir) {
  {
    TFRecordWriter w(dir + "/tfcc_examples.tfrecord");
    for (int i = 0; i < kRecords; ++i) w.write(example_of(i).serialize());
  }
  TFRecordWriter w(dir + "/tfcc_sequences.tfrecord");
  for (int i = 0; i < kRecords; ++i) w.write(sequence_of(i).serialize());
  std::cout << "tfcc wrote " << kRecords << " Examples and " << kRecords << " SequenceExamples\n";
  return 0;
}

void check_example(const ParsedExample& p, int i) {
  const Values v = values_of(i);
  const std::string r = "record " + std::to_string(i) + " ";
  check(p.at("x").values.to_vector<float>(), v.x, r + "x");
  check(p.at("y").values.to_vector<int64_t>(), v.y, r + "y");
  check(p.at("big").values.to_vector<int64_t>(), v.big, r + "big");
  check(p.at("name").strings(), v.name, r + "name");
  check(p.at("blob").strings(), v.blob, r + "blob");
  check(p.at("tags").values.to_vector<int64_t>(), v.tags, r + "tags");
  check(p.at("frames").values.to_vector<float>(), v.frames, r + "frames");
  check(p.at("frames").values.shape().dims(),
        {static_cast<int64_t>(v.frames.size() / 2), int64_t{2}}, r + "frames shape");
  check(p.at("opt").values.to_vector<int64_t>(), {v.has_opt ? int64_t{i} : -1}, r + "opt");
}

int read(const std::string& dir) {
  std::vector<std::string> records;
  {
    TFRecordReader reader(dir + "/tf_examples.tfrecord");
    std::string rec;
    while (reader.read_next(rec)) records.push_back(rec);
  }
  check(std::vector<int64_t>{static_cast<int64_t>(records.size())}, {kRecords}, "record count");
  const FeatureSpecs spec = example_spec();
  for (int i = 0; i < static_cast<int>(records.size()); ++i) {
    check_example(parse_single_example(records[static_cast<size_t>(i)], spec), i);
  }
  // The whole file as one batch: tags sparse over (record, position), frames padded.
  ParsedExample batch = parse_example(records, spec);
  std::vector<int64_t> indices, tags;
  for (int i = 0; i < kRecords; ++i) {
    const Values v = values_of(i);
    for (size_t k = 0; k < v.tags.size(); ++k) {
      indices.insert(indices.end(), {i, static_cast<int64_t>(k)});
      tags.push_back(v.tags[k]);
    }
  }
  check(batch.at("tags").indices.to_vector<int64_t>(), indices, "batch tags indices");
  check(batch.at("tags").values.to_vector<int64_t>(), tags, "batch tags values");
  check(batch.at("tags").dense_shape.to_vector<int64_t>(), {kRecords, 3}, "batch tags shape");
  check(batch.at("frames").values.shape().dims(), {kRecords, 2, 2}, "batch frames shape");
  check(batch.at("y").values.shape().dims(), {kRecords}, "batch y shape");
  // SequenceExamples.
  TFRecordReader reader(dir + "/tf_sequences.tfrecord");
  std::string rec;
  int i = 0;
  for (; reader.read_next(rec); ++i) {
    ParsedSequenceExample p = parse_single_sequence_example(
        rec, {{"len", FixedLenFeature{.dtype = tfcc::int64}}},
        {{"tok", VarLenFeature{.dtype = tfcc::int64}},
         {"emb", FixedLenSequenceFeature{.shape = {2}, .dtype = tfcc::float32}}});
    SequenceExample want = sequence_of(i);
    const std::string r = "sequence " + std::to_string(i) + " ";
    check(p.context.at("len").values.to_vector<int64_t>(), {i + 1}, r + "len");
    std::vector<int64_t> tok;
    std::vector<float> emb;
    for (int t = 0; t <= i; ++t) {
      const auto& step = want.feature_lists["tok"][static_cast<size_t>(t)].int64_list();
      tok.insert(tok.end(), step.begin(), step.end());
      const auto& e = want.feature_lists["emb"][static_cast<size_t>(t)].float_list();
      emb.insert(emb.end(), e.begin(), e.end());
    }
    check(p.feature_lists.at("tok").values.to_vector<int64_t>(), tok, r + "tok");
    check(p.feature_lists.at("tok").dense_shape.to_vector<int64_t>(), {i + 1, i + 1},
          r + "tok dense_shape");
    check(p.feature_lists.at("emb").values.to_vector<float>(), emb, r + "emb");
    // The record as a whole, through the builder's reader.
    if (!(SequenceExample::parse(rec) == want)) {
      std::cerr << "MISMATCH: " << r << "SequenceExample::parse\n";
      ++failures;
    }
  }
  check(std::vector<int64_t>{i}, {kRecords}, "sequence count");
  std::cout << "tfcc parsed TensorFlow's records: " << failures << " mismatches\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: example_interop write|read DIR\n";
    return 2;
  }
  const std::string cmd = argv[1], dir = argv[2];
  try {
    if (cmd == "write") return write(dir);
    if (cmd == "read") return read(dir);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::cerr << "unknown command " << cmd << "\n";
  return 2;
}
