// The seed's DynamicRNN (000_2f49370e33ffcc66.txt, "tf.function with Python control flow"): an
// LSTM cell of 13 units unrolled over time with for_range + TensorArray inside a traced function
// whose input signature leaves batch and time unknown. Python it mirrors:
//
//   class DynamicRNN(tf.keras.Model):
//     @tf.function(input_signature=[tf.TensorSpec(dtype=tf.float32, shape=[None, None, 3])])
//     def call(self, input_data):
//       input_data = tf.transpose(input_data, [1, 0, 2])      # [time, batch, features]
//       timesteps = tf.shape(input_data)[0]
//       batch_size = tf.shape(input_data)[1]
//       outputs = tf.TensorArray(tf.float32, timesteps)
//       state = self.cell.get_initial_state(batch_size=batch_size, dtype=tf.float32)
//       for i in tf.range(timesteps):
//         output, state = self.cell(input_data[i], state)
//         outputs = outputs.write(i, output)
//       return tf.transpose(outputs.stack(), [1, 0, 2]), state
//
//   my_rnn = DynamicRNN(tf.keras.layers.LSTMCell(units=13))
//   outputs, state = my_rnn(tf.random.normal(shape=[10, 20, 3]))
//   print(outputs.shape)                                        # (10, 20, 13)
#include <iostream>

#include "tfcc/platform/run_main.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;

// An LSTM cell written with primitives: gates = [x, h] @ kernel + bias, split in i, f, g, o.
struct LSTMCell {
  int64_t units;
  tf::Variable kernel, bias;

  LSTMCell(int64_t input_dim, int64_t units_)
      : units(units_),
        kernel(tf::random::normal({input_dim + units_, 4 * units_}, 0, 0.3), {.name = "kernel"}),
        bias(tf::zeros({4 * units_}), {.name = "bias"}) {}

  // (output, (h, c)) for one time step.
  std::tuple<tf::Tensor, tf::Tensor, tf::Tensor> operator()(const tf::Tensor& x,
                                                            const tf::Tensor& h,
                                                            const tf::Tensor& c) const {
    tf::Tensor z = tf::matmul(tf::concat({x, h}, 1), kernel) + bias;
    std::vector<tf::Tensor> g = tf::split(z, 4, 1);
    tf::Tensor i = tf::sigmoid(g[0]), f = tf::sigmoid(g[1] + 1.0f);  // forget bias 1, as Keras
    tf::Tensor cand = tf::tanh(g[2]), o = tf::sigmoid(g[3]);
    tf::Tensor c2 = f * c + i * cand;
    tf::Tensor h2 = o * tf::tanh(c2);
    return {h2, h2, c2};
  }

  // Zeros of [batch, units] for a batch known only at run time.
  tf::Tensor initial_state(const tf::Tensor& x_t) const {
    return tf::tile(tf::zeros_like(x_t(tf::all, tf::Slice(0, 1))), {1, units});
  }
};

static int example_main() {
  tf::random::set_seed(7);
  LSTMCell cell(3, 13);
  auto rnn = tf::function(
      [&](tf::Tensor input_data) {
        input_data = tf::transpose(input_data, {1, 0, 2});  // [time, batch, features]
        tf::Tensor timesteps = tf::shape(input_data)(0);
        tf::Tensor state = cell.initial_state(tf::gather(input_data, tf::constant(0)));
        auto [outputs, h, c] = tf::for_range(
            timesteps,
            [&](const tf::Tensor& i, tf::TensorArray out, const tf::Tensor& h,
                const tf::Tensor& c) {
              auto [output, h2, c2] = cell(tf::gather(input_data, i), h, c);
              return std::tuple{out.write(i, output), h2, c2};
            },
            std::tuple{tf::TensorArray(tf::float32, timesteps), state, state});
        return std::tuple{tf::transpose(outputs.stack(), {1, 0, 2}), h, c};
      },
      {.name = "DynamicRNN", .input_signature = {{tf::TensorSpec{tf::PartialShape({-1, -1, 3})}}}});

  auto [outputs, h, c] = rnn(tf::random::normal({10, 20, 3}));
  std::cout << outputs.shape() << "\n";  // (10, 20, 13)
  // The same graph serves other batch and time sizes without retracing.
  auto [outputs2, h2, c2] = rnn(tf::random::normal({4, 7, 3}));
  std::cout << outputs2.shape() << ", traced " << rnn.tracing_count() << " time(s)\n";
  return outputs.shape() == tf::Shape({10, 20, 13}) && rnn.tracing_count() == 1 ? 0 : 1;
}

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, example_main); }
