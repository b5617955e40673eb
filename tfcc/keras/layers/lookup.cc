#include "tfcc/keras/layers/lookup.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/adapt_util.h"
#include "tfcc/keras/layers/preprocessing_config.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/strings/lookup.h"

namespace tfcc::keras::layers {
namespace {

template <typename T>
Tensor tokens_tensor(const std::vector<T>& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return Tensor::from_strings(v);
  } else {
    return Tensor::from_vector<int64_t>(v);
  }
}

template <typename T>
std::vector<T> tokens_of(const Tensor& t) {
  if constexpr (std::is_same_v<T, std::string>) {
    return t.to_vector<std::string>();
  } else {
    return t.to_vector<int64_t>();
  }
}

}  // namespace

template <typename T>
IndexLookup<T>::IndexLookup(Options options, const std::string& default_name)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, default_name),
      options_(std::move(options)) {
  // class_name() is not the subclass's yet inside this constructor.
  const std::string who = default_name == "string_lookup" ? "StringLookup" : "IntegerLookup";
  const std::string& m = options_.output_mode;
  TFCC_CHECK_ARG(m == "int" || m == "one_hot" || m == "multi_hot" || m == "count" || m == "tf_idf",
                 who,
                 ": output_mode must be one of 'int', 'one_hot', 'multi_hot', "
                 "'count', 'tf_idf'; got '",
                 m, "'");
  TFCC_CHECK_ARG(options_.num_oov_indices >= 0, who, ": num_oov_indices must be >= 0, got ",
                 options_.num_oov_indices);
  TFCC_CHECK_ARG(!options_.invert || m == "int", who,
                 ": invert is only supported with output_mode 'int'");
  TFCC_CHECK_ARG(!options_.pad_to_max_tokens || options_.max_tokens, who,
                 ": pad_to_max_tokens needs max_tokens");
  options_.oov_token = oov();  // canonical: the config shows the token in use, as Keras'
  set_vocabulary(options_.vocabulary, options_.idf_weights);
}

template <typename T>
T IndexLookup<T>::oov() const {
  if (options_.oov_token) return *options_.oov_token;
  if constexpr (std::is_same_v<T, std::string>) {
    return "[UNK]";
  } else {
    return -1;
  }
}

template <typename T>
void IndexLookup<T>::set_vocabulary(std::vector<T> vocabulary, std::vector<double> idf_weights) {
  std::set<T> seen;
  for (const T& t : vocabulary) {
    TFCC_CHECK_ARG(seen.insert(t).second, class_name(), ": the vocabulary holds a token twice");
    TFCC_CHECK_ARG(!options_.mask_token || t != *options_.mask_token, class_name(),
                   ": the vocabulary must not hold the mask token");
  }
  if ((options_.output_mode == "tf_idf" && !vocabulary.empty()) || !idf_weights.empty()) {
    TFCC_CHECK_ARG(idf_weights.size() == vocabulary.size(), class_name(),
                   ": tf_idf needs one idf weight per vocabulary token; got ", idf_weights.size(),
                   " for ", vocabulary.size());
  }
  options_.vocabulary = std::move(vocabulary);
  idf_ = std::move(idf_weights);
  // The config carries the vocabulary (and tf_idf's weights) in use, adapted or given.
  options_.idf_weights = options_.output_mode == "tf_idf" ? idf_ : std::vector<double>{};
  rebuild_tables();
}

template <typename T>
void IndexLookup<T>::rebuild_tables() {
  vocab_tensor_ = tokens_tensor(options_.vocabulary);
  mask_tensor_ =
      options_.mask_token ? tokens_tensor(std::vector<T>{*options_.mask_token}) : Tensor();
  full_vocab_tensor_ = tokens_tensor(get_vocabulary(true));
  if (options_.output_mode == "tf_idf" && !idf_.empty()) {
    // Index order: mask (0), OOV slots (the mean weight), vocabulary.
    double mean = 0;
    for (double w : idf_) mean += w;
    mean /= static_cast<double>(idf_.size());
    std::vector<float> full;
    if (options_.mask_token) full.push_back(0.f);
    for (int64_t i = 0; i < options_.num_oov_indices; ++i) full.push_back(static_cast<float>(mean));
    for (double w : idf_) full.push_back(static_cast<float>(w));
    if (options_.pad_to_max_tokens) full.resize(static_cast<size_t>(*options_.max_tokens), 0.f);
    idf_tensor_ = Tensor::from_vector(full);
  }
}

template <typename T>
std::vector<T> IndexLookup<T>::get_vocabulary(bool include_special_tokens) const {
  std::vector<T> out;
  if (include_special_tokens) {
    if (options_.mask_token) out.push_back(*options_.mask_token);
    for (int64_t i = 0; i < options_.num_oov_indices; ++i) out.push_back(oov());
  }
  out.insert(out.end(), options_.vocabulary.begin(), options_.vocabulary.end());
  return out;
}

template <typename T>
int64_t IndexLookup<T>::vocabulary_size() const {
  return static_cast<int64_t>(options_.vocabulary.size()) + options_.num_oov_indices +
         (options_.mask_token ? 1 : 0);
}

template <typename T>
void IndexLookup<T>::adapt_documents(const std::vector<std::vector<T>>& documents) {
  std::map<T, int64_t> count, docs;
  for (const std::vector<T>& doc : documents) {
    std::set<T> in_doc;
    for (const T& t : doc) {
      if (options_.mask_token && t == *options_.mask_token) continue;
      if (t == oov()) continue;
      ++count[t];
      in_doc.insert(t);
    }
    for (const T& t : in_doc) ++docs[t];
  }
  // Keras: most frequent first; equal counts in descending token order.
  std::vector<std::pair<int64_t, T>> order;
  for (const auto& [t, c] : count) order.emplace_back(c, t);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a > b; });
  int64_t keep = static_cast<int64_t>(order.size());
  if (options_.max_tokens) {
    keep = std::min(
        keep, *options_.max_tokens - options_.num_oov_indices - (options_.mask_token ? 1 : 0));
    keep = std::max<int64_t>(keep, 0);
  }
  std::vector<T> vocab;
  std::vector<double> idf;
  const double n = static_cast<double>(documents.size());
  for (int64_t i = 0; i < keep; ++i) {
    const T& t = order[static_cast<size_t>(i)].second;
    vocab.push_back(t);
    idf.push_back(std::log(1.0 + n / (1.0 + static_cast<double>(docs[t]))));
  }
  set_vocabulary(std::move(vocab), std::move(idf));
}

template <typename T>
void IndexLookup<T>::adapt(const Tensor& data) {
  Tensor d = data;
  if constexpr (!std::is_same_v<T, std::string>) {
    if (d.dtype() != int64) d = cast(d, int64);
  }
  std::vector<T> all = tokens_of<T>(d);
  std::vector<std::vector<T>> documents;
  const int64_t per_doc =
      d.rank() >= 2 ? d.num_elements() / std::max<int64_t>(d.shape().dim(0), 1) : 1;
  for (size_t i = 0; i < all.size(); i += static_cast<size_t>(std::max<int64_t>(per_doc, 1))) {
    documents.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(i),
                           all.begin() + static_cast<std::ptrdiff_t>(std::min(
                                             all.size(), i + static_cast<size_t>(per_doc))));
  }
  adapt_documents(documents);
}

template <typename T>
void IndexLookup<T>::adapt(const data::Dataset& data) {
  std::vector<Tensor> batches = internal::adapt_batches(data);
  TFCC_CHECK_ARG(!batches.empty(), class_name(), ": adapt needs a non-empty dataset");
  std::vector<Tensor> flat;
  for (const Tensor& b : batches)
    flat.push_back(reshape(b, {b.rank() >= 2 ? b.shape().dim(0) : -1, b.rank() >= 2 ? -1 : 1}));
  adapt(concat(flat, 0));
}

template <typename T>
Tensor IndexLookup<T>::call(const Tensor& inputs, bool) {
  if (options_.invert) {
    // index -> token; indices outside the table read the OOV token (or the mask's slot).
    const int64_t size = vocabulary_size();
    const int64_t oov_slot = options_.mask_token ? 1 : 0;
    Tensor idx = cast(inputs, int64);
    Tensor valid = logical_and(greater_equal(idx, int64_t{0}), less(idx, size));
    if (options_.num_oov_indices == 0) {
      return gather(full_vocab_tensor_, where(valid, idx, Tensor::scalar<int64_t>(0)));
    }
    return gather(full_vocab_tensor_, where(valid, idx, Tensor::scalar<int64_t>(oov_slot)));
  }
  Tensor x = inputs;
  if constexpr (std::is_same_v<T, std::string>) {
    TFCC_CHECK_ARG(x.dtype() == string, class_name(), " takes string inputs, got ",
                   dtype_name(x.dtype()));
  } else {
    if (x.dtype() != int64) x = cast(x, int64);
  }
  Tensor ids = strings::index_lookup(x, vocab_tensor_, mask_tensor_, options_.num_oov_indices);
  if (options_.output_mode == "int") return ids;
  const int64_t depth = options_.pad_to_max_tokens ? *options_.max_tokens : vocabulary_size();
  if (options_.output_mode == "tf_idf") {
    TFCC_CHECK_ARG(idf_tensor_.defined(), class_name(),
                   ": tf_idf needs a vocabulary with idf weights (adapt or set_vocabulary)");
    return multiply(internal::encode_ids(ids, depth, "count", float32, "StringLookup"),
                    idf_tensor_);
  }
  return internal::encode_ids(ids, depth, options_.output_mode, int64, "StringLookup");
}

template class IndexLookup<std::string>;
template class IndexLookup<int64_t>;

namespace {

// Keras' IndexLookup keys, in its order.
template <typename L, typename T>
keras::config::LayerSchema lookup_schema(IndexLookupOptions<T> IndexLookup<T>::*options) {
  using O = IndexLookupOptions<T>;
  return keras::config::schema<L>(options)
      .option("invert", &O::invert)
      .option("max_tokens", &O::max_tokens)
      .option("num_oov_indices", &O::num_oov_indices)
      .option("oov_token", &O::oov_token)
      .option("mask_token", &O::mask_token)
      .option("output_mode", &O::output_mode)
      .option("pad_to_max_tokens", &O::pad_to_max_tokens)
      .template option<internal::NumbersOrNone>("idf_weights", &O::idf_weights)
      .template option<internal::TokensOrNone<T>>("vocabulary", &O::vocabulary);
}

}  // namespace

const keras::config::LayerSchema& StringLookup::config_schema() {
  static const keras::config::LayerSchema schema =
      lookup_schema<StringLookup>(&StringLookup::options_);
  return schema;
}

const keras::config::LayerSchema& IntegerLookup::config_schema() {
  static const keras::config::LayerSchema schema =
      lookup_schema<IntegerLookup>(&IntegerLookup::options_);
  return schema;
}

}  // namespace tfcc::keras::layers
