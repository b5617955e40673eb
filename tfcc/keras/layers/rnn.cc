#include "tfcc/keras/layers/rnn.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/saving/layer_registry.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/nn/nn.h"

namespace tfcc::keras::layers {

RNNCell::RNNCell(int64_t units, RNNCellOptions options, const std::string& default_name)
    : Layer({options.name, options.trainable, {}, options.dtype}, default_name),
      units_(units),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(units > 0,
                 "Received an invalid value for argument `units`, expected a positive "
                 "integer, got ",
                 units);
}

Tensors RNNCell::get_initial_state(int64_t batch_size) const {
  Tensors out;
  for (int64_t s : state_size()) out.push_back(zeros({batch_size, s}, dtype()));
  return out;
}

std::pair<Tensor, Tensors> RNNCell::step(const Tensor& inputs, const Tensors& states,
                                         CallOptions options) {
  Tensors args = {inputs};
  args.insert(args.end(), states.begin(), states.end());
  Tensors out = (*this)(args, options);
  return {out[0], Tensors(out.begin() + 1, out.end())};
}

void RNNCell::build_n(const std::vector<PartialShape>& input_shapes) {
  TFCC_CHECK_ARG(!input_shapes.empty(), "Cell '", name(), "' needs an input");
  build_cell(input_shapes[0]);
}

Tensors RNNCell::call_n(const Tensors& inputs, bool) {
  const size_t n_states = state_size().size();
  TFCC_CHECK_ARG(inputs.size() == 1 + n_states, "Cell '", name(), "' expects an input and ",
                 n_states, " state tensors, got ", inputs.size(), " tensors");
  for (size_t i = 0; i < n_states; ++i) {
    const Tensor& s = inputs[1 + i];
    TFCC_CHECK_ARG(s.rank() == 2 && s.partial_shape().dim(1) == state_size()[i], "Cell '", name(),
                   "': state ", i, " must have shape (batch, ", state_size()[i], "), got ",
                   s.partial_shape().to_string());
  }
  auto [out, states] = cell_call(inputs[0], Tensors(inputs.begin() + 1, inputs.end()));
  Tensors result = {out};
  result.insert(result.end(), states.begin(), states.end());
  return result;
}

void RNNCell::build_gates(const PartialShape& s, int64_t gates) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == 2 && s.dim(1) != PartialShape::kUnknown, "Cell '",
                 name(), "' expects inputs of shape (batch, features), got ", s.to_string());
  const int64_t in = s.dim(1);
  kernel_ = add_weight(
      "kernel", Shape{in, gates * units_},
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  recurrent_kernel_ = add_weight("recurrent_kernel", Shape{units_, gates * units_},
                                 {.initializer = options_.recurrent_initializer,
                                  .regularizer = options_.recurrent_regularizer});
}

SimpleRNNCell::SimpleRNNCell(int64_t units, RNNCellOptions options)
    : RNNCell(units, std::move(options), "simple_rnn_cell") {}

void SimpleRNNCell::build_cell(const PartialShape& s) {
  build_gates(s, 1);
  if (options_.use_bias) {
    bias_ = add_weight(
        "bias", Shape{units_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
}

std::pair<Tensor, Tensors> SimpleRNNCell::cell_call(const Tensor& x, const Tensors& states) {
  Tensor h = matmul(x, kernel_);
  if (options_.use_bias) h = nn::bias_add(h, bias_);
  h = options_.activation(add(h, matmul(states[0], recurrent_kernel_)));
  return {h, {h}};
}

LSTMCell::LSTMCell(int64_t units, RNNCellOptions options)
    : RNNCell(units, std::move(options), "lstm_cell") {}

void LSTMCell::build_cell(const PartialShape& s) {
  build_gates(s, 4);
  if (!options_.use_bias) return;
  if (options_.unit_forget_bias) {
    // [b_i, b_f, b_c, b_o] with b_f = 1 and the others from bias_initializer.
    const auto& init = *options_.bias_initializer;
    const DType dt = dtype();
    Tensor b =
        concat({init(Shape{units_}, dt), ones({units_}, dt), init(Shape{2 * units_}, dt)}, 0);
    bias_ =
        add_weight("bias", Shape{4 * units_},
                   {.initializer = initializers::Spec(std::make_shared<initializers::Constant>(0)),
                    .regularizer = options_.bias_regularizer});
    bias_.assign(b);
  } else {
    bias_ = add_weight(
        "bias", Shape{4 * units_},
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
}

std::pair<Tensor, Tensors> LSTMCell::cell_call(const Tensor& x, const Tensors& states) {
  const Tensor& h_prev = states[0];
  const Tensor& c_prev = states[1];
  Tensor z = add(matmul(x, kernel_), matmul(h_prev, recurrent_kernel_));
  if (options_.use_bias) z = nn::bias_add(z, bias_);
  auto g = split(z, 4, 1);
  Tensor i = options_.recurrent_activation(g[0]);
  Tensor f = options_.recurrent_activation(g[1]);
  Tensor c = add(multiply(f, c_prev), multiply(i, options_.activation(g[2])));
  Tensor o = options_.recurrent_activation(g[3]);
  Tensor h = multiply(o, options_.activation(c));
  return {h, {h, c}};
}

GRUCell::GRUCell(int64_t units, RNNCellOptions options)
    : RNNCell(units, std::move(options), "gru_cell") {}

void GRUCell::build_cell(const PartialShape& s) {
  build_gates(s, 3);
  if (!options_.use_bias) return;
  // reset_after keeps separate input and recurrent biases: shape (2, 3 * units).
  Shape bias_shape = options_.reset_after ? Shape{2, 3 * units_} : Shape{3 * units_};
  bias_ = add_weight(
      "bias", bias_shape,
      {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
}

std::pair<Tensor, Tensors> GRUCell::cell_call(const Tensor& x, const Tensors& states) {
  const Tensor& h_prev = states[0];
  Tensor mx = matmul(x, kernel_);
  Tensor input_bias, recurrent_bias;
  if (options_.use_bias) {
    if (options_.reset_after) {
      auto b = unstack(bias_, 0);
      input_bias = b[0];
      recurrent_bias = b[1];
    } else {
      input_bias = bias_;
    }
    mx = nn::bias_add(mx, input_bias);
  }
  auto xg = split(mx, 3, 1);
  auto rk = split(recurrent_kernel_.read_value(), 3, 1);
  Tensor z, r, hh;
  if (options_.reset_after) {
    Tensor inner = matmul(h_prev, recurrent_kernel_);
    if (recurrent_bias.defined()) inner = nn::bias_add(inner, recurrent_bias);
    auto rg = split(inner, 3, 1);
    z = options_.recurrent_activation(add(xg[0], rg[0]));
    r = options_.recurrent_activation(add(xg[1], rg[1]));
    hh = options_.activation(add(xg[2], multiply(r, rg[2])));
  } else {
    z = options_.recurrent_activation(add(xg[0], matmul(h_prev, rk[0])));
    r = options_.recurrent_activation(add(xg[1], matmul(h_prev, rk[1])));
    hh = options_.activation(add(xg[2], matmul(multiply(r, h_prev), rk[2])));
  }
  // h = z * h_prev + (1 - z) * hh
  Tensor h = add(multiply(z, h_prev), multiply(subtract(1.0, z), hh));
  return {h, {h}};
}

RNN::RNN(std::shared_ptr<RNNCell> cell, Options options, const std::string& default_name)
    : Layer({options.name, options.trainable, options.input_shape, cell ? cell->dtype() : float32},
            default_name),
      cell_(std::move(cell)),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(cell_ != nullptr, "RNN needs a cell");
  set_supports_masking(true);
  track_module(cell_, "cell");  // Keras' attribute name: checkpoint keys "./cell/kernel"
}

Tensors RNN::compute_mask(const Tensors&, const Tensors& masks) const {
  Tensor mask = masks.empty() ? Tensor() : masks[0];
  Tensors out = {options_.return_sequences ? mask : Tensor()};
  if (options_.return_state) out.resize(1 + cell_->state_size().size());
  return out;
}

void RNN::build(const PartialShape& s) {
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == 3, "Input 0 of layer \"", name(),
                 "\" is incompatible with the layer: expected ndim=3, found ndim=",
                 s.rank_known() ? s.rank() : -1, ". Full shape received: ", s.to_string());
  cell_->maybe_build({PartialShape({s.dim(0), s.dim(2)})});
}

Tensors RNN::call_n(const Tensors& inputs, bool training) {
  TFCC_CHECK_ARG(!inputs.empty(), "RNN '", name(), "' needs an input");
  const Tensor& x = inputs[0];
  TFCC_CHECK_ARG(x.rank() == 3, "RNN '", name(), "' expects (batch, time, features), got ",
                 x.partial_shape().to_string());
  Tensors states;
  if (inputs.size() > 1) {
    states.assign(inputs.begin() + 1, inputs.end());  // initial_state passed as extra inputs
  } else if (x.partial_shape().dim(0) != PartialShape::kUnknown) {
    states = cell_->get_initial_state(x.shape()[0]);
  } else {
    // Traced with an unknown batch size (a serving signature): zero states of shape (batch, s)
    // computed from the input, (batch, 1) zeros times (1, s) zeros.
    Tensor column = zeros_like(slice(x, {0, 0, 0}, {-1, 1, 1}));
    column = reshape(column, {-1, 1});
    for (int64_t s : cell_->state_size()) {
      states.push_back(matmul(column, zeros({1, s}, x.dtype())));
    }
  }
  std::vector<Tensor> steps = unstack(x, 1);
  TFCC_CHECK_ARG(!steps.empty(), "RNN '", name(), "' received a sequence of length 0");
  // Keras' masked loop (backend rnn): a masked step keeps the previous states, and outputs the
  // previous output (zeros with zero_output_for_mask).
  std::vector<Tensor> step_masks;
  if (Tensor mask = input_mask(0); mask.defined()) {
    TFCC_CHECK_ARG(mask.rank() == 2, "RNN '", name(), "': the mask must be (batch, time), got ",
                   mask.partial_shape().to_string());
    step_masks = unstack(expand_dims(cast(mask, bool_), -1), 1);
    TFCC_CHECK_ARG(step_masks.size() == steps.size(), "RNN '", name(), "': the mask has ",
                   step_masks.size(), " steps, the input ", steps.size());
  }
  if (options_.go_backwards) {
    std::reverse(steps.begin(), steps.end());
    std::reverse(step_masks.begin(), step_masks.end());
  }
  std::vector<Tensor> outputs;
  Tensor last;
  for (size_t t = 0; t < steps.size(); ++t) {
    auto [out, next] = cell_->step(steps[t], states, {training});
    if (!step_masks.empty()) {
      const Tensor& m = step_masks[t];
      const bool zero = options_.zero_output_for_mask || !last.defined();
      out = where(m, out, zero ? zeros_like(out) : last);
      for (size_t i = 0; i < next.size(); ++i) next[i] = where(m, next[i], states[i]);
    }
    states = std::move(next);
    last = out;
    if (options_.return_sequences) outputs.push_back(out);
  }
  Tensors result = {options_.return_sequences ? stack(outputs, 1) : last};
  if (options_.return_state) result.insert(result.end(), states.begin(), states.end());
  return result;
}

namespace {
RNNCellOptions cell_options(const RecurrentOptions& o) {
  return {o.activation,
          o.recurrent_activation,
          o.use_bias,
          o.kernel_initializer,
          o.recurrent_initializer,
          o.bias_initializer,
          o.unit_forget_bias,
          o.reset_after,
          o.kernel_regularizer,
          o.recurrent_regularizer,
          o.bias_regularizer,
          "",
          o.trainable,
          o.dtype};
}
RNNOptions rnn_options(const RecurrentOptions& o) {
  return {o.return_sequences, o.return_state, o.go_backwards, o.zero_output_for_mask, o.name,
          o.trainable,        o.input_shape};
}
}  // namespace

SimpleRNN::SimpleRNN(int64_t units, RecurrentOptions options)
    : RNN(std::make_shared<SimpleRNNCell>(units, cell_options(options)), rnn_options(options),
          "simple_rnn"),
      units_(units),
      options_(std::move(options)) {}

LSTM::LSTM(int64_t units, RecurrentOptions options)
    : RNN(std::make_shared<LSTMCell>(units, cell_options(options)), rnn_options(options), "lstm"),
      units_(units),
      options_(std::move(options)) {}

GRU::GRU(int64_t units, RecurrentOptions options)
    : RNN(std::make_shared<GRUCell>(units, cell_options(options)), rnn_options(options), "gru"),
      units_(units),
      options_(std::move(options)) {}

namespace {

// A cell as its RNN's config holds it: {'class_name': ..., 'config': {...}}; read back through
// the layer registry, so a registered custom cell works too.
struct CellCodec {
  static std::string repr(const std::shared_ptr<RNNCell>& cell) {
    std::string out = "{'class_name': " + config::repr(cell->class_name()) + ", 'config': {";
    bool first = true;
    for (auto& [key, value] : cell->get_config()) {
      out += (first ? "" : ", ") + config::repr(key) + ": " + value;
      first = false;
    }
    return out + "}}";
  }
  static void read(const saving::Json& v, std::shared_ptr<RNNCell>& out, std::string_view) {
    const std::string cls = v.at("class_name", "RNN cell").as_string("cell.class_name");
    out = std::dynamic_pointer_cast<RNNCell>(
        saving::layer_from_config(cls, v.at("config", "RNN cell")));
    TFCC_CHECK_ARG(out != nullptr, "RNN config: the cell '", cls,
                   "' is not a recurrent cell (a layers::RNNCell)");
  }
};

// The keys of a cell (SimpleRNNCell: no recurrent activation; LSTMCell: unit_forget_bias;
// GRUCell: reset_after), after `units`, in Keras' order. `Builder` fills RNNCellOptions or
// RecurrentOptions.
template <typename O, typename Builder>
auto cell_keys(Builder b, bool recurrent_activation, bool unit_forget_bias, bool reset_after) {
  b = std::move(b).option("activation", &O::activation);
  if (recurrent_activation) {
    b = std::move(b).option("recurrent_activation", &O::recurrent_activation);
  }
  b = std::move(b)
          .option("use_bias", &O::use_bias)
          .option("kernel_initializer", &O::kernel_initializer)
          .option("recurrent_initializer", &O::recurrent_initializer)
          .option("bias_initializer", &O::bias_initializer);
  if (unit_forget_bias) b = std::move(b).option("unit_forget_bias", &O::unit_forget_bias);
  b = std::move(b)
          .option("kernel_regularizer", &O::kernel_regularizer)
          .option("recurrent_regularizer", &O::recurrent_regularizer)
          .option("bias_regularizer", &O::bias_regularizer);
  if (reset_after) b = std::move(b).option("reset_after", &O::reset_after);
  return b;
}

template <typename Cell>
config::LayerSchema cell_schema(RNNCellOptions Cell::*options, int64_t Cell::*units, bool gates,
                                bool lstm, bool gru) {
  return cell_keys<RNNCellOptions>(config::schema<Cell>(options).arg("units", units), gates, lstm,
                                   gru);
}

// SimpleRNN / LSTM / GRU: the RNN's keys, then the cell's at the top level, as Keras writes them.
template <typename L>
config::LayerSchema recurrent_schema(RecurrentOptions L::*options, int64_t L::*units, bool gates,
                                     bool lstm, bool gru) {
  return cell_keys<RecurrentOptions>(
      config::schema<L>(options)
          .option("return_sequences", &RecurrentOptions::return_sequences)
          .option("return_state", &RecurrentOptions::return_state)
          .option("go_backwards", &RecurrentOptions::go_backwards)
          .option("zero_output_for_mask", &RecurrentOptions::zero_output_for_mask)
          .arg("units", units),
      gates, lstm, gru);
}

}  // namespace

const config::LayerSchema& SimpleRNNCell::config_schema() {
  static const config::LayerSchema schema = cell_schema<SimpleRNNCell>(
      &SimpleRNNCell::options_, &SimpleRNNCell::units_, false, false, false);
  return schema;
}

const config::LayerSchema& LSTMCell::config_schema() {
  static const config::LayerSchema schema =
      cell_schema<LSTMCell>(&LSTMCell::options_, &LSTMCell::units_, true, true, false);
  return schema;
}

const config::LayerSchema& GRUCell::config_schema() {
  static const config::LayerSchema schema =
      cell_schema<GRUCell>(&GRUCell::options_, &GRUCell::units_, true, false, true);
  return schema;
}

const config::LayerSchema& RNN::config_schema() {
  static const config::LayerSchema schema =
      config::schema<RNN>(&RNN::options_)
          .option("return_sequences", &Options::return_sequences)
          .option("return_state", &Options::return_state)
          .option("go_backwards", &Options::go_backwards)
          .option("zero_output_for_mask", &Options::zero_output_for_mask)
          .arg<CellCodec>("cell", &RNN::cell_);
  return schema;
}

const config::LayerSchema& SimpleRNN::config_schema() {
  static const config::LayerSchema schema =
      recurrent_schema<SimpleRNN>(&SimpleRNN::options_, &SimpleRNN::units_, false, false, false);
  return schema;
}

const config::LayerSchema& LSTM::config_schema() {
  static const config::LayerSchema schema =
      recurrent_schema<LSTM>(&LSTM::options_, &LSTM::units_, true, true, false);
  return schema;
}

const config::LayerSchema& GRU::config_schema() {
  static const config::LayerSchema schema =
      recurrent_schema<GRU>(&GRU::options_, &GRU::units_, true, false, true);
  return schema;
}

}  // namespace tfcc::keras::layers
