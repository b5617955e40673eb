// Vocabulary lookup layers, as Keras 3: StringLookup (string tokens) and IntegerLookup (int64
// tokens), from a given vocabulary or one adapt() builds.
//
//   layers::StringLookup lookup({.vocabulary = {"a", "b", "c", "d"}});
//   lookup(Tensor::from_strings({"a", "c", "z"}));          // [1 3 0]: 0 is the OOV index
//   layers::StringLookup inv({.vocabulary = {"a", "b"}, .invert = true});
//   inv(Tensor::from_vector<int64_t>({1, 0}));              // [b'a' b'[UNK]']
//   layers::StringLookup adapted({.output_mode = "tf_idf"});
//   adapted.adapt(documents);   // vocabulary by frequency, ties in descending token order
//
// Indices: [mask token (when given)] [num_oov_indices OOV slots] [vocabulary]. output_mode "int"
// gives the index (int64); "one_hot", "multi_hot", "count" encode it over vocabulary_size()
// (int64); "tf_idf" multiplies counts by the IDF weights (float32; OOV: their mean).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/data/dataset.h"
#include "tfcc/keras/engine/layer.h"

namespace tfcc::keras::layers {

/// Options of StringLookup (T = std::string) and IntegerLookup (T = int64_t).
template <typename T>
struct IndexLookupOptions {
  /// Most indices in all (special tokens included); none: unlimited. Limits adapt.
  std::optional<int64_t> max_tokens;
  int64_t num_oov_indices = 1;
  /// Token that maps to index 0 (and is never in the vocabulary); none: no mask.
  std::optional<T> mask_token;
  /// What invert returns for OOV indices; none: "[UNK]" / -1, as Keras.
  std::optional<T> oov_token;
  /// The vocabulary (without special tokens); empty: call adapt or set_vocabulary.
  std::vector<T> vocabulary;
  /// tf_idf weights, one per vocabulary token.
  std::vector<double> idf_weights;
  /// Index -> token instead (output_mode "int" only).
  bool invert = false;
  std::string output_mode = "int";
  /// Non-int modes encode over max_tokens instead of vocabulary_size().
  bool pad_to_max_tokens = false;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// The shared machinery of StringLookup and IntegerLookup (Keras' IndexLookup).
template <typename T>
class IndexLookup : public Layer {
 public:
  using Options = IndexLookupOptions<T>;
  IndexLookup(Options options, const std::string& default_name);

  /// Replaces the vocabulary (and tf_idf weights; required in that mode).
  void set_vocabulary(std::vector<T> vocabulary, std::vector<double> idf_weights = {});
  /// Special tokens then the vocabulary, in index order (include_special_tokens false: the
  /// vocabulary alone).
  std::vector<T> get_vocabulary(bool include_special_tokens = true) const;
  /// Number of indices: vocabulary + OOV slots + mask.
  int64_t vocabulary_size() const;
  const std::vector<double>& idf_weights() const { return idf_; }

  /// Builds the vocabulary from the tokens of `data` (every element; tf_idf: each row of a
  /// rank-2 tensor, or each element of a rank-1 one, is a document).
  void adapt(const Tensor& data);
  /// The same over every element's first component.
  void adapt(const data::Dataset& data);
  /// adapt from token lists: one list per document.
  void adapt_documents(const std::vector<std::vector<T>>& documents);

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

  Options options_;

 private:
  void rebuild_tables();
  T oov() const;
  std::vector<double> idf_;
  Tensor vocab_tensor_, mask_tensor_, full_vocab_tensor_, idf_tensor_;
};

/// String tokens -> indices (Keras' StringLookup).
class StringLookup : public IndexLookup<std::string> {
  TFCC_KERAS_LAYER(StringLookup)
  TFCC_KERAS_CONFIG(StringLookup)
 public:
  explicit StringLookup(Options options = {}) : IndexLookup(std::move(options), "string_lookup") {}
};

/// Integer tokens (any integer dtype, as int64) -> indices (Keras' IntegerLookup).
class IntegerLookup : public IndexLookup<int64_t> {
  TFCC_KERAS_LAYER(IntegerLookup)
  TFCC_KERAS_CONFIG(IntegerLookup)
 public:
  explicit IntegerLookup(Options options = {})
      : IndexLookup(std::move(options), "integer_lookup") {}
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
