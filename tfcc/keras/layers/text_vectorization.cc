#include "tfcc/keras/layers/text_vectorization.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/adapt_util.h"
#include "tfcc/keras/layers/preprocessing_config.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/strings/lookup.h"
#include "tfcc/ops/strings/strings.h"

namespace tfcc::keras::layers {
namespace {

// Keras' DEFAULT_STRIP_REGEX: ASCII punctuation.
constexpr const char* kPunctuation = R"([!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~'])";

StringLookup::Options lookup_options(const TextVectorizationOptions& o) {
  StringLookup::Options l;
  l.max_tokens = o.max_tokens;
  l.num_oov_indices = 1;
  if (o.output_mode == "int") l.mask_token = std::string();
  l.vocabulary = o.vocabulary;
  l.idf_weights = o.idf_weights;
  l.output_mode = "int";  // ids; TextVectorization encodes them per text
  l.name = o.name.empty() ? "" : o.name + "_lookup";
  return l;
}

}  // namespace

TextVectorization::TextVectorization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "text_vectorization"),
      options_(std::move(options)),
      lookup_(lookup_options(options_)) {
  const std::string& m = options_.output_mode;
  TFCC_CHECK_ARG(m == "int" || m == "multi_hot" || m == "count" || m == "tf_idf",
                 "TextVectorization: output_mode must be one of 'int', 'multi_hot', 'count', "
                 "'tf_idf'; got '",
                 m, "'");
  const std::string& s = options_.standardize;
  TFCC_CHECK_ARG(
      s.empty() || s == "lower_and_strip_punctuation" || s == "lower" || s == "strip_punctuation",
      "TextVectorization: unknown standardize '", s, "'");
  TFCC_CHECK_ARG(
      options_.split.empty() || options_.split == "whitespace" || options_.split == "character",
      "TextVectorization: unknown split '", options_.split, "'");
  TFCC_CHECK_ARG(!options_.output_sequence_length || m == "int",
                 "TextVectorization: output_sequence_length applies to output_mode 'int' only");
  TFCC_CHECK_ARG(m != "tf_idf" || options_.vocabulary.empty() ||
                     options_.idf_weights.size() == options_.vocabulary.size(),
                 "TextVectorization: tf_idf needs one idf weight per vocabulary token");
}

std::pair<Tensor, Tensor> TextVectorization::tokens(const Tensor& texts) const {
  TFCC_CHECK_ARG(texts.dtype() == string, "TextVectorization takes string inputs, got ",
                 dtype_name(texts.dtype()));
  Tensor t = texts;
  if (t.rank() == 2 && t.partial_shape().dim(1) == 1) t = squeeze(t, {1});
  if (t.rank() == 0) t = reshape(t, {1});
  TFCC_CHECK_ARG(t.rank() == 1,
                 "TextVectorization takes a batch of strings of shape (n,) or "
                 "(n, 1), got ",
                 t.partial_shape().to_string());
  const std::string& s = options_.standardize;
  if (s == "lower_and_strip_punctuation" || s == "lower") t = strings::lower(t);
  if (s == "lower_and_strip_punctuation" || s == "strip_punctuation") {
    t = strings::regex_replace(t, kPunctuation, "");
  }
  strings::Ragged r;
  if (options_.split == "whitespace") {
    r = strings::split(t);
  } else if (options_.split == "character") {
    r = strings::bytes_split(t);
  } else {
    const int64_t n = t.partial_shape().dim(0);
    TFCC_REQUIRE(UnimplementedError, n >= 0,
                 "TextVectorization with split None needs a batch of known size");
    std::vector<int64_t> splits;
    for (int64_t i = 0; i <= n; ++i) splits.push_back(i);
    r = {t, Tensor::from_vector(splits)};
  }
  if (!options_.ngrams.empty()) r = strings::ngrams(r, options_.ngrams, " ");
  return {r.values, r.row_splits};
}

void TextVectorization::adapt(const Tensor& data) {
  auto [values, splits] = tokens(data);
  const std::vector<std::string> v = values.to_vector<std::string>();
  const std::vector<int64_t> s = splits.to_vector<int64_t>();
  std::vector<std::vector<std::string>> documents;
  for (size_t r = 0; r + 1 < s.size(); ++r) {
    documents.emplace_back(v.begin() + s[r], v.begin() + s[r + 1]);
  }
  lookup_.adapt_documents(documents);
  sync_vocabulary();
}

void TextVectorization::set_vocabulary(std::vector<std::string> vocabulary,
                                       std::vector<double> idf) {
  lookup_.set_vocabulary(std::move(vocabulary), std::move(idf));
  sync_vocabulary();
}

void TextVectorization::sync_vocabulary() {
  options_.vocabulary = lookup_.get_vocabulary(false);
  options_.idf_weights =
      options_.output_mode == "tf_idf" ? lookup_.idf_weights() : std::vector<double>{};
}

void TextVectorization::adapt(const data::Dataset& data) {
  std::vector<Tensor> batches = internal::adapt_batches(data);
  TFCC_CHECK_ARG(!batches.empty(), "TextVectorization: adapt needs a non-empty dataset");
  std::vector<Tensor> flat;
  for (const Tensor& b : batches) flat.push_back(reshape(b, {-1}));
  adapt(concat(flat, 0));
}

Tensor TextVectorization::call(const Tensor& inputs, bool) {
  auto [values, splits] = tokens(inputs);
  Tensor ids = lookup_(values);
  if (options_.output_mode == "int") {
    return strings::ragged_to_dense(ids, splits, options_.output_sequence_length.value_or(-1));
  }
  const int64_t depth = options_.pad_to_max_tokens && options_.max_tokens
                            ? *options_.max_tokens
                            : lookup_.vocabulary_size();
  Tensor counts = strings::ragged_bincount(ids, splits, depth, options_.output_mode == "multi_hot");
  if (options_.output_mode != "tf_idf") return counts;
  const std::vector<double>& idf = lookup_.idf_weights();
  TFCC_CHECK_ARG(!idf.empty(), "TextVectorization: tf_idf needs adapt() or idf_weights");
  double mean = 0;
  for (double w : idf) mean += w;
  mean /= static_cast<double>(idf.size());
  std::vector<float> full{static_cast<float>(mean)};  // index 0: OOV
  for (double w : idf) full.push_back(static_cast<float>(w));
  full.resize(static_cast<size_t>(depth), 0.f);
  return multiply(cast(counts, float32), Tensor::from_vector(full));
}

const keras::config::LayerSchema& TextVectorization::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<TextVectorization>(&TextVectorization::options_)
          .option("max_tokens", &Options::max_tokens)
          .option<internal::EmptyIsNone>("standardize", &Options::standardize)
          .option<internal::EmptyIsNone>("split", &Options::split)
          .option<internal::Ngrams>("ngrams", &Options::ngrams)
          .option("output_mode", &Options::output_mode)
          .option("output_sequence_length", &Options::output_sequence_length)
          .option("pad_to_max_tokens", &Options::pad_to_max_tokens)
          .option<internal::TokensOrNone<std::string>>("vocabulary", &Options::vocabulary)
          .option<internal::NumbersOrNone>("idf_weights", &Options::idf_weights);
  return schema;
}

}  // namespace tfcc::keras::layers
