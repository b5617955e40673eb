// A small Transformer text classifier trained with fit, end to end on string tensors:
// text_dataset_from_directory -> TextVectorization (adapted on the training texts, applied in
// Dataset::map) -> Embedding -> MultiHeadAttention block -> mean over tokens -> Dense.
// Python it mirrors:
//
//   train = keras.utils.text_dataset_from_directory(d, batch_size=16, seed=1,
//                                                    validation_split=0.25, subset="training")
//   vectorize = keras.layers.TextVectorization(max_tokens=64, output_sequence_length=8)
//   vectorize.adapt(train.map(lambda x, y: x))
//   train = train.map(lambda x, y: (vectorize(x), y))
//   x = keras.layers.Embedding(64, 16)(inputs)
//   x = keras.layers.LayerNormalization()(x + keras.layers.MultiHeadAttention(2, 8)(x, x))
//   outputs = keras.layers.Dense(2)(keras.ops.mean(x, axis=1))
//   model.compile(optimizer="adam", loss=SparseCategoricalCrossentropy(from_logits=True),
//                 metrics=["accuracy"]);  model.fit(train, epochs=8)
//
// The texts are synthetic (written to a temporary folder): class "pos" uses words of one set,
// class "neg" of another, with shared filler words, so the model must find the telling words.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace {

class TextClassifier : public Model {
 public:
  TextClassifier(int64_t vocabulary, int64_t dim) {
    embed_ = track_layer(std::make_shared<layers::Embedding>(vocabulary, dim));
    attention_ = track_layer(std::make_shared<layers::MultiHeadAttention>(2, dim / 2));
    norm_ = track_layer(std::make_shared<layers::LayerNormalization>());
    out_ = track_layer(std::make_shared<layers::Dense>(2));
  }

 protected:
  tf::Tensor call(const tf::Tensor& ids, bool training) override {
    tf::Tensor x = (*embed_)(ids);
    tf::Tensor a = attention_->attend(x, x, {}, {.training = training}).first;
    x = (*norm_)(tf::add(x, a));
    return (*out_)(tf::reduce_mean(x, {1}));  // GlobalAveragePooling1D
  }

 private:
  std::shared_ptr<layers::Embedding> embed_;
  std::shared_ptr<layers::MultiHeadAttention> attention_;
  std::shared_ptr<layers::LayerNormalization> norm_;
  std::shared_ptr<layers::Dense> out_;
};

// 200 short texts per class in dir/pos and dir/neg.
void write_texts(const std::filesystem::path& dir) {
  const std::vector<std::string> pos = {"great", "loved", "wonderful", "superb", "fun"};
  const std::vector<std::string> neg = {"awful", "boring", "terrible", "dull", "waste"};
  const std::vector<std::string> filler = {"the", "movie", "was", "a", "plot", "and", "it"};
  std::mt19937 rng(7);
  for (const char* label : {"pos", "neg"}) {
    std::filesystem::create_directories(dir / label);
    const auto& words = std::string(label) == "pos" ? pos : neg;
    for (int i = 0; i < 200; ++i) {
      std::string text;
      for (int k = 0; k < 6; ++k) {
        const auto& pick = (rng() % 3 == 0) ? words : filler;
        if (k) text += ' ';
        text += pick[rng() % pick.size()];
      }
      std::string file = "t";  // (not "t" + std::to_string(i): GCC 12's -Wrestrict false alarm)
      file += std::to_string(i) + ".txt";
      std::ofstream(dir / label / file) << text << ".";
    }
  }
}

}  // namespace

static int example_main(int, char**) {
  tf::random::set_seed(1);
  const auto dir = std::filesystem::temp_directory_path() / "tfcc_text_classifier_example";
  std::filesystem::remove_all(dir);
  write_texts(dir);

  utils::TextDatasetOptions options{
      .batch_size = 16, .seed = 1, .validation_split = 0.25, .subset = "training"};
  auto train = utils::text_dataset_from_directory(dir.string(), options);
  options.subset = "validation";
  auto validation = utils::text_dataset_from_directory(dir.string(), options);
  std::printf("classes: %s, %s\n", train.class_names[0].c_str(), train.class_names[1].c_str());

  layers::TextVectorization vectorize({.max_tokens = 64, .output_sequence_length = 8});
  vectorize.adapt(train.dataset);
  std::printf("vocabulary: %lld tokens, most frequent '%s'\n",
              static_cast<long long>(vectorize.vocabulary_size()),
              vectorize.get_vocabulary()[2].c_str());
  auto to_ids = [&vectorize](tf::Tensor text, tf::Tensor label) {
    return std::tuple{vectorize(text), label};
  };

  TextClassifier model(64, 16);
  model.compile({.optimizer = "adam",
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(train.dataset.map(to_ids), {.epochs = 8, .verbose = 0});
  auto results = model.evaluate(validation.dataset.map(to_ids));
  std::printf("validation loss %.4f, accuracy %.4f\n", results[0], results[1]);
  std::filesystem::remove_all(dir);
  return results[1] > 0.8 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
