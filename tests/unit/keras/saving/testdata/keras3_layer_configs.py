"""Writes keras3_layer_configs.json: one layer of each class tfcc has, and one optimizer of each
class (each learning-rate schedule used once), with settings other than the defaults, serialized
by Keras 3 as config.json holds them (keras.saving.serialize_keras_object).
layer_config_test.cc reads each entry into a tfcc layer or optimizer and checks that tfcc's
config of it (Keras 3 form) says what Keras' does.

  /work/tf-venv/bin/python keras3_layer_configs.py    # rewrites the .json next to this file
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402

L = keras.layers
R = keras.regularizers


def layers():
    return [
        keras.layers.InputLayer(shape=(5, 3), batch_size=2, name="inp"),
        L.Dense(7, activation="relu", use_bias=False, kernel_initializer="he_normal",
                kernel_regularizer=R.L2(0.02), activity_regularizer=R.L1(0.01), name="dense_k"),
        L.Activation("tanh"),
        L.Flatten(),
        L.Reshape((3, -1)),
        L.Dropout(0.3, noise_shape=(None, 1, 4), seed=5),
        L.Conv1D(4, 3, strides=2, padding="causal", activation="elu",
                 bias_regularizer=R.L1L2(0.01, 0.02)),
        L.Conv2D(6, (3, 2), strides=(2, 1), padding="same", groups=2, activation="relu",
                 bias_initializer="ones"),
        L.Conv2DTranspose(3, 3, strides=2, padding="same", use_bias=False),
        L.DepthwiseConv2D(3, depth_multiplier=2, padding="same", activation="relu6",
                          depthwise_initializer="glorot_normal"),
        L.ZeroPadding2D(((1, 2), (3, 0))),
        L.MaxPooling2D((3, 3), strides=2, padding="same"),
        L.AveragePooling2D(2, strides=1),
        L.GlobalAveragePooling2D(keepdims=True),
        L.GlobalMaxPooling2D(),
        L.BatchNormalization(momentum=0.9, epsilon=1e-5, center=False,
                             gamma_initializer="random_normal", beta_regularizer=R.L2(0.1)),
        L.LayerNormalization(epsilon=1e-5, scale=False, beta_initializer="ones"),
        L.Add(),
        L.Multiply(),
        L.Concatenate(axis=1),
        L.ReLU(max_value=6.0, negative_slope=0.1, threshold=0.5),
        L.Softmax(axis=1),
        L.Embedding(30, 5, embeddings_regularizer=R.L2(0.01)),
        L.SimpleRNNCell(4, activation="relu"),
        L.LSTMCell(3, recurrent_activation="hard_sigmoid", unit_forget_bias=False),
        L.GRUCell(3, reset_after=False),
        L.RNN(L.LSTMCell(3), return_sequences=True, go_backwards=True),
        L.SimpleRNN(4, return_sequences=True, recurrent_initializer="glorot_uniform"),
        L.LSTM(5, return_state=True, activation="relu"),
        L.GRU(3, reset_after=False, go_backwards=True),
        L.Rescaling(1.0 / 255, offset=-0.5),
        L.Normalization(mean=[0.5, -1.0, 2.0], variance=[4.0, 1.0, 0.25], invert=True),
        L.EinsumDense("ab,bc->ac", output_shape=6, activation="relu", bias_axes="c"),
        L.MultiHeadAttention(2, 3, value_dim=4, output_shape=5, seed=7),
        L.Attention(use_scale=True, score_mode="concat"),
        L.AdditiveAttention(use_scale=False),
        L.LeakyReLU(negative_slope=0.1),
        L.PReLU(alpha_initializer="ones", alpha_regularizer=R.L2(0.01), shared_axes=[1]),
        L.ELU(alpha=0.5),
        L.Subtract(),
        L.Average(),
        L.Maximum(),
        L.Minimum(),
        L.Dot(axes=(2, 2), normalize=True),
        L.Permute((2, 1)),
        L.RepeatVector(3),
        L.UpSampling1D(3),
        L.UpSampling2D((2, 3)),
        L.UpSampling3D((1, 2, 2)),
        L.Cropping1D((1, 2)),
        L.Cropping2D(((1, 0), (2, 1))),
        L.Cropping3D(((1, 1), (0, 1), (2, 0))),
        L.ZeroPadding1D((1, 2)),
        L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))),
        L.MaxPooling1D(3, strides=2, padding="same"),
        L.AveragePooling1D(2, strides=1),
        L.GlobalAveragePooling1D(keepdims=True),
        L.GlobalMaxPooling1D(),
        L.GroupNormalization(groups=2, epsilon=1e-5, center=False,
                             gamma_initializer="random_normal", gamma_regularizer=R.L2(0.1)),
        L.UnitNormalization(axis=[1, 2]),
        L.SpatialDropout1D(0.3, seed=4),
        L.SpatialDropout2D(0.2),
        L.GaussianNoise(0.2, seed=1),
        L.GaussianDropout(0.4),
        L.AlphaDropout(0.1, noise_shape=(None, 1, 4)),
        L.ActivityRegularization(l1=0.01, l2=0.02),
        L.Lambda(keras.ops.square),
        L.SeparableConv2D(4, (3, 2), padding="same", depth_multiplier=2, activation="relu",
                          pointwise_initializer="he_normal", depthwise_regularizer=R.L2(0.01),
                          pointwise_constraint=keras.constraints.MaxNorm(2.0, axis=[0, 1, 2])),
        L.SeparableConv1D(3, 3, strides=2, use_bias=False,
                          depthwise_constraint=keras.constraints.NonNeg()),
        L.Conv1DTranspose(3, 3, strides=2, padding="same",
                          kernel_constraint=keras.constraints.UnitNorm(),
                          bias_constraint=keras.constraints.MinMaxNorm(0.1, 0.9, rate=0.5)),
        L.Masking(mask_value=-1.0),
        L.Bidirectional(L.LSTM(3, return_sequences=True), merge_mode="sum"),
        L.TimeDistributed(L.Dense(4, activation="relu", activity_regularizer=R.L1(0.01))),
        L.Resizing(4, 5, interpolation="bicubic", crop_to_aspect_ratio=True),
        L.CenterCrop(3, 4),
        L.RandomFlip(mode="horizontal", seed=3),
        L.RandomContrast((0.1, 0.4), value_range=(0, 1), seed=5),
        L.RandomCrop(3, 4, seed=9),
    ]


def optimizers():
    O = keras.optimizers
    S = keras.optimizers.schedules
    return [
        O.SGD(learning_rate=S.ExponentialDecay(0.05, 3, 0.5, staircase=True), momentum=0.8,
              nesterov=True, clipnorm=0.5),
        O.Adam(learning_rate=S.PiecewiseConstantDecay([2, 5], [0.01, 0.005, 0.001]), beta_1=0.8,
               beta_2=0.99, epsilon=1e-5, amsgrad=True, global_clipnorm=1.0, name="my_adam"),
        O.AdamW(learning_rate=S.CosineDecay(0.01, 20, alpha=0.1, warmup_target=0.02,
                                            warmup_steps=3),
                weight_decay=0.05, beta_1=0.85, clipvalue=0.1),
        O.Adamax(learning_rate=S.PolynomialDecay(0.02, 10, end_learning_rate=0.001, power=2,
                                                 cycle=True),
                 beta_2=0.95, epsilon=1e-4),
        O.Nadam(learning_rate=0.003, beta_1=0.7, beta_2=0.9, weight_decay=0.01),
        O.RMSprop(learning_rate=0.002, rho=0.8, momentum=0.5, epsilon=1e-6, centered=True),
        O.Adagrad(learning_rate=0.05, initial_accumulator_value=0.3, epsilon=1e-5),
        O.Adadelta(learning_rate=0.5, rho=0.8, epsilon=1e-5),
        O.Ftrl(learning_rate=0.05, learning_rate_power=-0.6, initial_accumulator_value=0.2,
               l1_regularization_strength=0.001, l2_regularization_strength=0.002,
               l2_shrinkage_regularization_strength=0.003, beta=0.1),
    ]


def main():
    entries = [keras.saving.serialize_keras_object(layer) for layer in layers()]
    opts = [keras.saving.serialize_keras_object(o) for o in optimizers()]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras3_layer_configs.json")
    with open(out, "w") as f:
        json.dump({"keras_version": keras.__version__, "layers": entries, "optimizers": opts}, f,
                  indent=1)
        f.write("\n")
    print(f"wrote {len(entries)} layers and {len(opts)} optimizers to {out}")


if __name__ == "__main__":
    main()
