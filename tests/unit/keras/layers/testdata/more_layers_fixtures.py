"""Writes more_layers_fixtures.json: Keras 3 (TensorFlow 2.21's Keras) layers of issue 19 item 5
(activations, merging, reshaping, 1-D pooling, group/unit normalization, regularization layers
in inference), each with its serialized config (as config.json holds it), inputs, weights (in
layer.weights order), outputs and losses. tests/unit/keras/layers/more_layers_test.cc builds
each tfcc layer from the config, gives it the weights and compares the outputs.

    /work/tf-venv/bin/python more_layers_fixtures.py  # rewrites more_layers_fixtures.json beside it
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import keras  # noqa: E402

L = keras.layers
rng = np.random.default_rng(19)


def rand(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def tensor(x):
    x = np.asarray(x, dtype=np.float32)
    return {"shape": list(x.shape), "values": x.ravel().tolist()}


def record(name, layer, inputs, mask=None):
    args = inputs if len(inputs) > 1 else inputs[0]
    call = (lambda: layer(args, mask=mask)) if mask is not None else (lambda: layer(args))
    call()
    for w in layer.weights:
        w.assign(rng.uniform(-1, 1, size=w.shape).astype(np.float32))
    out = call()
    outs = out if isinstance(out, (tuple, list)) else [out]
    return {
        "name": name,
        "layer": keras.saving.serialize_keras_object(layer),
        "inputs": [tensor(x) for x in inputs],
        "mask": None if mask is None else tensor(mask),
        "weights": [dict(tensor(w.numpy()), path=w.path) for w in layer.weights],
        "outputs": [tensor(o) for o in outs],
        "losses": [float(v) for v in layer.losses],
    }


cases = [
    record("leaky_relu", L.LeakyReLU(negative_slope=0.1), [rand(2, 3, 4)]),
    record("prelu shared", L.PReLU(shared_axes=[1]), [rand(2, 3, 4)]),
    record("prelu full", L.PReLU(), [rand(2, 2, 3)]),
    record("elu", L.ELU(alpha=0.5), [rand(2, 3, 4)]),
    record("elu 1", L.ELU(), [rand(2, 5)]),
    record("subtract", L.Subtract(), [rand(2, 3), rand(2, 3)]),
    record("average", L.Average(), [rand(2, 3, 2), rand(2, 3, 2), rand(2, 3, 2)]),
    record("maximum", L.Maximum(), [rand(2, 4), rand(2, 4), rand(2, 4)]),
    record("minimum", L.Minimum(), [rand(2, 4), rand(2, 4)]),
    record("dot 2d", L.Dot(axes=1), [rand(2, 5), rand(2, 5)]),
    record("dot 3d normalize", L.Dot(axes=(2, 2), normalize=True), [rand(2, 3, 4), rand(2, 5, 4)]),
    record("dot 3d mixed axes", L.Dot(axes=(1, 2)), [rand(2, 4, 3), rand(2, 5, 4)]),
    record("dot negative axis", L.Dot(axes=-1), [rand(2, 3, 4), rand(2, 2, 4)]),
    record("permute", L.Permute((2, 1)), [rand(2, 3, 4)]),
    record("permute 3", L.Permute((3, 1, 2)), [rand(2, 2, 3, 4)]),
    record("repeat_vector", L.RepeatVector(3), [rand(2, 4)]),
    record("upsampling1d", L.UpSampling1D(3), [rand(2, 4, 2)]),
    record("upsampling2d", L.UpSampling2D((2, 3)), [rand(2, 2, 3, 2)]),
    record("upsampling3d", L.UpSampling3D((1, 2, 3)), [rand(2, 2, 2, 2, 1)]),
    record("cropping1d", L.Cropping1D((1, 2)), [rand(2, 6, 2)]),
    record("cropping2d", L.Cropping2D(((1, 0), (2, 1))), [rand(2, 5, 6, 2)]),
    record("cropping3d", L.Cropping3D(((1, 1), (0, 1), (2, 0))), [rand(2, 4, 4, 4, 1)]),
    record("zero_padding1d", L.ZeroPadding1D((1, 2)), [rand(2, 3, 2)]),
    record("zero_padding3d", L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), [rand(2, 2, 2, 2, 1)]),
    record("max_pooling1d same", L.MaxPooling1D(3, strides=2, padding="same"), [rand(2, 7, 3)]),
    record("max_pooling1d", L.MaxPooling1D(), [rand(2, 7, 3)]),
    record("average_pooling1d", L.AveragePooling1D(2), [rand(2, 7, 3)]),
    record("average_pooling1d same", L.AveragePooling1D(3, strides=1, padding="same"),
           [rand(2, 5, 3)]),
    record("global_average_pooling1d", L.GlobalAveragePooling1D(), [rand(2, 5, 3)]),
    record("global_average_pooling1d keepdims", L.GlobalAveragePooling1D(keepdims=True),
           [rand(2, 5, 3)]),
    record("global_average_pooling1d mask", L.GlobalAveragePooling1D(), [rand(2, 5, 3)],
           mask=np.array([[1, 1, 0, 1, 0], [1, 0, 0, 0, 0]], dtype=bool)),
    record("global_max_pooling1d", L.GlobalMaxPooling1D(keepdims=True), [rand(2, 5, 3)]),
    record("group_normalization", L.GroupNormalization(groups=2), [rand(2, 3, 4)]),
    record("group_normalization instance", L.GroupNormalization(groups=-1, epsilon=1e-5,
                                                                center=False),
           [rand(2, 2, 2, 4)]),
    record("group_normalization 3 groups", L.GroupNormalization(groups=3, scale=False),
           [rand(2, 5, 6)]),
    record("unit_normalization", L.UnitNormalization(), [rand(2, 3, 4)]),
    record("unit_normalization axes", L.UnitNormalization(axis=[1, 2]), [rand(2, 3, 4)]),
    record("spatial_dropout1d inference", L.SpatialDropout1D(0.5), [rand(2, 3, 4)]),
    record("spatial_dropout2d inference", L.SpatialDropout2D(0.5), [rand(2, 2, 3, 4)]),
    record("gaussian_noise inference", L.GaussianNoise(0.5), [rand(2, 3)]),
    record("gaussian_dropout inference", L.GaussianDropout(0.3), [rand(2, 3)]),
    record("alpha_dropout inference", L.AlphaDropout(0.3), [rand(2, 3)]),
    record("activity_regularization", L.ActivityRegularization(l1=0.5, l2=0.25), [rand(3, 4)]),
    record("separable_conv2d", L.SeparableConv2D(4, (3, 2), padding="same", depth_multiplier=2),
           [rand(2, 5, 6, 3)]),
    record("separable_conv2d strided", L.SeparableConv2D(3, 3, strides=2, activation="relu"),
           [rand(2, 7, 7, 2)]),
    record("separable_conv1d", L.SeparableConv1D(3, 3, dilation_rate=2, padding="same"),
           [rand(2, 9, 2)]),
    record("conv1d_transpose same", L.Conv1DTranspose(3, 3, strides=2, padding="same"),
           [rand(2, 5, 2)]),
    record("conv1d_transpose valid", L.Conv1DTranspose(2, 4, strides=3), [rand(2, 4, 3)]),
    record("conv1d_transpose no bias", L.Conv1DTranspose(2, 2, use_bias=False, activation="tanh"),
           [rand(2, 6, 2)]),
]


# Constraints: each applied to a random weight, and one SGD step of a Dense layer whose kernel
# and bias are constrained (Keras projects the variables after the update).
constraints = []
for c in [keras.constraints.MaxNorm(0.8), keras.constraints.MaxNorm(1.5, axis=[0, 1]),
          keras.constraints.NonNeg(), keras.constraints.UnitNorm(axis=1),
          keras.constraints.MinMaxNorm(0.5, 1.0, rate=0.7)]:
    w = rand(3, 2, 4)
    constraints.append({"constraint": keras.saving.serialize_keras_object(c), "w": tensor(w),
                        "out": tensor(c(w))})
dense = L.Dense(3, kernel_constraint=keras.constraints.MaxNorm(0.5),
                bias_constraint=keras.constraints.NonNeg())
x, y = rand(4, 5), rand(4, 3)
dense(x)
start = [w.numpy() for w in dense.weights]
opt = keras.optimizers.SGD(learning_rate=0.5)
import tensorflow as tf  # noqa: E402
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(dense(x) - y))
opt.apply_gradients(zip(tape.gradient(loss, dense.trainable_variables), dense.trainable_variables))
dense_step = {"layer": keras.saving.serialize_keras_object(dense), "x": tensor(x), "y": tensor(y),
              "start": [tensor(w) for w in start],
              "after": [tensor(w.numpy()) for w in dense.weights]}

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "more_layers_fixtures.json"), "w") as f:
    json.dump({"keras_version": keras.__version__, "cases": cases, "constraints": constraints,
               "dense_step": dense_step}, f)
    f.write("\n")
print(f"wrote {len(cases)} cases")
