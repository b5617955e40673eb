// TextVectorization, as Keras 3: strings -> standardize -> split -> n-grams -> vocabulary ids,
// encoded as padded id sequences (int) or per-text multi_hot / count / tf_idf vectors.
//
//   layers::TextVectorization tv({.max_tokens = 1000, .output_sequence_length = 8});
//   tv.adapt(text_dataset);                       // a Dataset of string batches (or a tensor)
//   Tensor ids = tv(Tensor::from_strings({"The cat sat."}));   // (1, 8) int64
//
// Vocabulary: in int mode index 0 is the padding/mask token "" and 1 the OOV token "[UNK]";
// adapt orders tokens by frequency, ties in descending token order (Keras' rule), and keeps
// max_tokens indices in all. Standardize "lower_and_strip_punctuation" lower-cases (ASCII) and
// removes Keras' punctuation set; split "whitespace" splits at runs of whitespace.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <optional>
#include <string>
#include <vector>

#include "tfcc/keras/layers/lookup.h"

namespace tfcc::keras::layers {

/// Options of TextVectorization.
struct TextVectorizationOptions {
  std::optional<int64_t> max_tokens;
  /// "lower_and_strip_punctuation", "lower", "strip_punctuation" or "" (none).
  std::string standardize = "lower_and_strip_punctuation";
  /// "whitespace", "character" or "" (none: each string is one token).
  std::string split = "whitespace";
  /// N-gram widths to emit (Keras' ngrams=2 is {1, 2}; (2,) is {2}); empty: the tokens.
  std::vector<int64_t> ngrams;
  /// "int", "multi_hot", "count" or "tf_idf".
  std::string output_mode = "int";
  /// int mode: pad or cut every sequence to this length (none: the longest in the batch).
  std::optional<int64_t> output_sequence_length;
  bool pad_to_max_tokens = false;
  std::vector<std::string> vocabulary;
  std::vector<double> idf_weights;
  std::string name;
  bool trainable = true;
  std::vector<int64_t> input_shape;
  DType dtype = float32;
};

/// Text -> token ids or bag-of-words vectors (Keras' TextVectorization).
class TextVectorization : public Layer {
  TFCC_KERAS_LAYER(TextVectorization)
  TFCC_KERAS_CONFIG(TextVectorization)
 public:
  using Options = TextVectorizationOptions;
  explicit TextVectorization(Options options = {});

  /// Builds the vocabulary from the texts of `data` (a string tensor of rank <= 2: each string
  /// is a document). get_config then holds the vocabulary (and tf_idf's weights), so a saved
  /// model loads adapted.
  void adapt(const Tensor& data);
  /// The same over every element's first component (batches of strings).
  void adapt(const data::Dataset& data);
  std::vector<std::string> get_vocabulary(bool include_special_tokens = true) const {
    return lookup_.get_vocabulary(include_special_tokens);
  }
  int64_t vocabulary_size() const { return lookup_.vocabulary_size(); }
  /// Replaces the vocabulary (and tf_idf weights); the config then carries them.
  void set_vocabulary(std::vector<std::string> vocabulary, std::vector<double> idf = {});

 protected:
  Tensor call(const Tensor& inputs, bool training) override;

 private:
  /// Standardized, split and n-grammed tokens of the 1-D (or (n, 1)) `texts`.
  std::pair<Tensor, Tensor> tokens(const Tensor& texts) const;
  /// Copies the lookup's vocabulary and weights into options_ (what get_config writes).
  void sync_vocabulary();
  Options options_;
  StringLookup lookup_;
};

}  // namespace tfcc::keras::layers
#pragma GCC visibility pop
