"""TensorFlow 2.21's Keras 3 side of keras_file_interop.sh.

  keras_file_interop.py write WORK NAME   builds model NAME with random weights, saves
                                          WORK/NAME.keras, WORK/NAME.npy (Keras' output) and the
                                          inputs WORK/NAME_x<i>.npy; saves other random weights
                                          as WORK/NAME_b.weights.h5 and their output NAME_b.npy
  keras_file_interop.py check WORK NAME   compares tfcc's outputs (NAME_tfcc.npy,
                                          NAME_b_tfcc.npy) with Keras', then loads tfcc's
                                          NAME_tfcc.keras and NAME_tfcc.weights.h5 in Keras and
                                          compares their outputs with NAME.npy
  keras_file_interop.py built WORK NAME...  loads NAME_built.keras, written by tfcc's
                                          keras::applications model NAME, in Keras: same layer
                                          names, classes and parameter counts as
                                          keras.applications' model, and its output on
                                          NAME_built_x.npy equal to tfcc's NAME_built_y.npy
Exit status 0 when all agree within 1e-4 (relative to the largest output).
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import keras  # noqa: E402

RTOL = 1e-4


def seed_cnn():
    return keras.Sequential([
        keras.Input((28, 28, 1)),
        keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.MaxPooling2D(),
        keras.layers.Flatten(),
        keras.layers.Dropout(0.1),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.BatchNormalization(),
        keras.layers.Dense(10),
    ])


def lstm_classifier():
    return keras.Sequential([
        keras.Input((12,), dtype="int32"),
        keras.layers.Embedding(50, 8),
        keras.layers.LSTM(16),
        keras.layers.Dense(3, activation="softmax"),
    ])


def functional():
    a = keras.Input((6,), name="a")
    b = keras.Input((6,), name="b")
    d = keras.layers.Dense(6, activation="tanh")(a)
    s = keras.layers.Add()([d, b])
    c = keras.layers.Concatenate()([s, a])
    return keras.Model([a, b], keras.layers.Dense(2)(c))


# Logits (no softmax), so that a difference in any weight shows in the output.
def mobilenet_v2():
    return keras.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3), classes=10,
                                          classifier_activation=None)


def resnet50():
    return keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=10,
                                       classifier_activation=None)


def transformer():
    tokens = keras.Input((10, 16))
    att = keras.layers.MultiHeadAttention(num_heads=2, key_dim=8)(tokens, tokens)
    x = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([tokens, att]))
    ff = keras.layers.Dense(16)(keras.layers.Dense(32, activation="relu")(x))
    x = keras.layers.LayerNormalization(epsilon=1e-6)(keras.layers.Add()([x, ff]))
    return keras.Model(tokens, keras.layers.Dense(4)(keras.layers.Flatten()(x)))


# Masks: Embedding(mask_zero) into Bidirectional recurrent layers and TimeDistributed; the inputs
# are padded with zeros (write()).
def bilstm():
    ids = keras.Input((12,), dtype="int32")
    h = keras.layers.Embedding(50, 8, mask_zero=True)(ids)
    h = keras.layers.Bidirectional(keras.layers.LSTM(8, return_sequences=True))(h)
    h = keras.layers.TimeDistributed(keras.layers.Dense(4))(h)
    h = keras.layers.Bidirectional(keras.layers.GRU(4), merge_mode="sum")(h)
    return keras.Model(ids, keras.layers.Dense(3)(h))


MODELS = {"cnn": seed_cnn, "lstm": lstm_classifier, "functional": functional,
          "mobilenet_v2": mobilenet_v2, "resnet50": resnet50, "transformer": transformer,
          "bilstm": bilstm}


def inputs_for(model, rng):
    xs = []
    for t in model.inputs:
        shape = (2,) + tuple(t.shape[1:])
        if "int" in str(t.dtype):
            xs.append(rng.integers(0, 50, size=shape).astype(np.int32))
        else:
            xs.append(rng.uniform(-1, 1, size=shape).astype(np.float32))
    return xs


def randomize(model, rng):
    """New random values for every weight, at the scale of Keras' initialisation (kernels scaled
    element-wise by 0.5..1.5; biases, beta and moving means in -0.5..0.5; gammas and moving
    variances in 0.5..1.5), so that every weight shows in the output."""
    for w in model.weights:
        shape = tuple(w.shape)
        if len(shape) >= 2:
            value = np.asarray(w) * rng.uniform(0.5, 1.5, size=shape)
        elif "gamma" in w.path or "variance" in w.path:
            value = rng.uniform(0.5, 1.5, size=shape)
        else:
            value = rng.uniform(-0.5, 0.5, size=shape)
        w.assign(value.astype(w.dtype))


def predict(model, xs):
    return np.asarray(model(xs if len(xs) > 1 else xs[0], training=False))


def close(name, got, want):
    scale = max(float(np.max(np.abs(want))), 1e-6)
    err = float(np.max(np.abs(got - want))) / scale if got.shape == want.shape else float("inf")
    print(f"{name}: shape {got.shape} vs {want.shape}, max relative difference {err:.2e}")
    return err <= RTOL


def write(work, name):
    rng = np.random.default_rng(7)
    model = MODELS[name]()
    randomize(model, rng)
    if name == "cnn":
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    xs = inputs_for(model, rng)
    if name == "bilstm":  # padded sequences of lengths 12 and 5
        xs[0][1, 5:] = 0
    for i, x in enumerate(xs):
        np.save(os.path.join(work, f"{name}_x{i}.npy"), x)
    np.save(os.path.join(work, f"{name}.npy"), predict(model, xs))
    model.save(os.path.join(work, f"{name}.keras"))
    randomize(model, rng)
    np.save(os.path.join(work, f"{name}_b.npy"), predict(model, xs))
    model.save_weights(os.path.join(work, f"{name}_b.weights.h5"))


def check(work, name):
    path = lambda f: os.path.join(work, f)  # noqa: E731
    xs = [np.load(path(f"{name}_x{i}.npy")) for i in range(8) if os.path.exists(path(f"{name}_x{i}.npy"))]
    want, want_b = np.load(path(f"{name}.npy")), np.load(path(f"{name}_b.npy"))
    ok = close(f"{name}: tfcc load_model(.keras)", np.load(path(f"{name}_tfcc.npy")), want)
    ok &= close(f"{name}: tfcc load_weights(.weights.h5)", np.load(path(f"{name}_b_tfcc.npy")),
                want_b)
    loaded = keras.models.load_model(path(f"{name}_tfcc.keras"))
    ok &= close(f"{name}: Keras load_model(tfcc .keras)", predict(loaded, xs), want)
    other = keras.models.load_model(path(f"{name}.keras"))
    randomize(other, np.random.default_rng(11))
    other.load_weights(path(f"{name}_tfcc.weights.h5"))
    ok &= close(f"{name}: Keras load_weights(tfcc .weights.h5)", predict(other, xs), want)
    return ok


# The models tfcc's keras::applications builds for `built` (tests/integration/applications_models.h).
BUILT = {
    "mobilenet_v2": lambda: keras.applications.MobileNetV2(
        weights=None, input_shape=(96, 96, 3), classifier_activation=None),
    "resnet50": lambda: keras.applications.ResNet50(
        weights=None, input_shape=(64, 64, 3), classifier_activation=None),
}


def check_built(work, name):
    keras.backend.clear_session()
    reference = BUILT[name]()
    loaded = keras.models.load_model(os.path.join(work, f"{name}_built.keras"))
    layers = lambda m: [(l.name, type(l).__name__, l.count_params()) for l in m.layers]  # noqa
    ok = layers(loaded) == layers(reference) and loaded.name == reference.name
    print(f"{name}: tfcc-built .keras has {len(loaded.layers)} layers, "
          f"{loaded.count_params()} params, named {loaded.name!r}: "
          f"{'as' if ok else 'NOT as'} keras.applications")
    if not ok:
        diff = [(a, b) for a, b in zip(layers(loaded), layers(reference)) if a != b]
        print(f"  first differences: {diff[:5]}")
    x = np.load(os.path.join(work, f"{name}_built_x.npy"))
    want = np.load(os.path.join(work, f"{name}_built_y.npy"))
    return close(f"{name}: Keras load_model(tfcc-built .keras)", predict(loaded, [x]), want) and ok


if __name__ == "__main__":
    command, work, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    if command == "write":
        write(work, names[0])
    elif command == "built":
        if not all([check_built(work, name) for name in names]):
            sys.exit(1)
    elif not check(work, names[0]):
        sys.exit(1)
