// Model.summary(): the table tf.keras 2 prints (tf_keras/utils/layer_utils.py print_summary):
// 65 columns with positions (29, 55, 65) for sequential-like models, 98 columns with positions
// (33, 55, 67, 98) and a "Connected to" column otherwise; a blank row after each layer.
#include <sstream>

#include "tfcc/keras/models/model.h"

namespace tfcc::keras {
namespace {

std::string with_commas(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return n < 0 ? "-" + out : out;
}

// Keras' print_row: each field is cut to its column, breaking after "),", "},", "]," or "',"
// when one occurs, and continued on the next lines.
void print_row(std::ostream& os, std::vector<std::string> fields,
               const std::vector<int>& positions) {
  auto any_left = [&] {
    for (const auto& f : fields) {
      if (!f.empty()) return true;
    }
    return false;
  };
  while (any_left()) {
    std::string line;
    for (size_t col = 0; col < fields.size(); ++col) {
      const int start = col > 0 ? positions[col - 1] : 0;
      const int end = positions[col];
      const int space = col != positions.size() - 1 ? 2 : 0;
      size_t cutoff = static_cast<size_t>(std::max(0, end - start - space));
      std::string fit = fields[col].substr(0, cutoff);
      size_t best = std::string::npos;
      for (const char* cond : {"),", "},", "],", "',"}) {
        size_t p = fit.find(cond);
        if (p != std::string::npos) best = std::min(best, p + 2);
      }
      if (best != std::string::npos) {
        cutoff = best;
        fit = fit.substr(0, cutoff);
      }
      if (col == 0) line.append(" ");
      line.append(fit);
      line.append(static_cast<size_t>(space), ' ');
      fields[col] = cutoff < fields[col].size() ? fields[col].substr(cutoff) : "";
      if (static_cast<int>(line.size()) < positions[col]) {
        line.append(static_cast<size_t>(positions[col]) - line.size(), ' ');
      }
    }
    os << line << "\n";
  }
}

std::string shapes_string(const std::vector<PartialShape>& shapes, bool as_list) {
  if (shapes.empty()) return "multiple";
  if (shapes.size() == 1 && !as_list) return shapes[0].to_string();
  std::string s = "[";
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i) s.append(", ");
    s.append(shapes[i].to_string());
  }
  return s.append("]");
}

}  // namespace

void Model::summary(std::ostream& os) const {
  const bool seq = sequential_like();
  const int line_length = seq ? 65 : 98;
  const std::vector<int> positions =
      seq ? std::vector<int>{29, 55, 65} : std::vector<int>{32, 53, 65, 98};
  std::vector<std::string> header = {"Layer (type)", "Output Shape", "Param #"};
  if (!seq) header.push_back("Connected to");

  auto model_layers = layers();
  TFCC_CHECK_ARG(is_graph_network() || built(),
                 "This model has not yet been built. Build the "
                 "model first by calling `build()` or by calling the model on a batch of data.");
  os << "Model: \"" << name() << "\"\n";
  os << std::string(static_cast<size_t>(line_length), '_') << "\n";
  print_row(os, header, positions);
  os << std::string(static_cast<size_t>(line_length), '=') << "\n";
  for (const auto& layer : model_layers) {
    // An InputLayer's output is a list in Keras, so it prints as [(None, 784)].
    const bool is_input = std::dynamic_pointer_cast<InputLayer>(layer) != nullptr;
    std::vector<std::string> fields = {
        internal::str_cat(layer->name(), " (", layer->class_name(), ")"),
        shapes_string(layer->output_shapes(), is_input), std::to_string(layer->count_params())};
    if (!seq) {
      std::string conn = "[";
      if (graph_) {
        for (const auto& n : graph_->nodes) {
          if (n->layer != layer) continue;
          for (const auto& in : n->inputs) {
            if (conn.size() > 1) conn.append(", ");
            conn.append(internal::str_cat("'", in.node()->layer->name(), "[", in.node()->node_index,
                                          "][", in.index(), "]'"));
          }
        }
      }
      fields.push_back(conn.append("]"));
    }
    print_row(os, fields, positions);
    os << std::string(static_cast<size_t>(line_length), ' ') << "\n";
  }
  os << std::string(static_cast<size_t>(line_length), '=') << "\n";
  int64_t trainable = 0, non_trainable = 0;
  for (const auto& v : trainable_variables()) trainable += v.shape().num_elements();
  for (const auto& v : non_trainable_variables()) non_trainable += v.shape().num_elements();
  os << "Total params: " << with_commas(trainable + non_trainable) << "\n";
  os << "Trainable params: " << with_commas(trainable) << "\n";
  os << "Non-trainable params: " << with_commas(non_trainable) << "\n";
  os << std::string(static_cast<size_t>(line_length), '_') << "\n";
}

std::string Model::summary_string() const {
  std::ostringstream os;
  summary(os);
  return os.str();
}

}  // namespace tfcc::keras
