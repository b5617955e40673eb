"""Writes masking_fixtures.json: small Keras 3 (TensorFlow 2.21) models whose layers carry masks
(Embedding(mask_zero), Masking, RNNs, Bidirectional, TimeDistributed, attention), each with its
config (serialize_keras_object, as config.json holds it), weights (model.weights order), inputs,
outputs and the outputs' Keras masks; and, for one model, the compiled loss and accuracy that
evaluate() reports with the mask. tests/unit/keras/layers/masking_test.cc reproduces them.

    /work/tf-venv/bin/python masking_fixtures.py  # rewrites masking_fixtures.json beside it
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import keras  # noqa: E402

L = keras.layers
rng = np.random.default_rng(11)

# Padded id sequences: lengths 6, 4, 1 and one with a zero inside (masked in the middle).
IDS = np.array([[3, 1, 4, 1, 5, 9],
                [2, 6, 5, 3, 0, 0],
                [7, 0, 0, 0, 0, 0],
                [8, 0, 9, 7, 0, 0]], dtype=np.int32)
# Float sequences whose padded steps are all zeros (Masking's default mask_value).
X = rng.uniform(-1, 1, size=(3, 5, 3)).astype(np.float32)
X[1, 3:] = 0.0
X[2, 1:] = 0.0


def tensor(a):
    a = np.asarray(a)
    return {"shape": list(a.shape), "dtype": str(a.dtype), "values": a.astype(np.float64).ravel().tolist()}


def record(name, model, x):
    for w in model.weights:
        w.assign(rng.uniform(-0.6, 0.6, size=w.shape).astype(np.float32))
    outs = model(x)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    masks = [getattr(o, "_keras_mask", None) for o in outs]
    return {
        "name": name,
        "model": keras.saving.serialize_keras_object(model),
        "weights": [{"path": w.path, **tensor(w.numpy())} for w in model.weights],
        "input": tensor(x),
        "outputs": [tensor(o) for o in outs],
        "output_masks": [None if m is None else tensor(np.asarray(m).astype(np.float32))
                         for m in masks],
    }


def ids_input():
    return keras.Input((6,), dtype="int32", name="ids")


def x_input():
    return keras.Input((5, 3), name="x")


cases = []

i = ids_input()
cases.append(record("embedding_lstm", keras.Model(
    i, L.LSTM(3)(L.Embedding(10, 4, mask_zero=True)(i))), IDS))

i = x_input()
cases.append(record("masking_gru_sequences_backwards", keras.Model(
    i, L.GRU(4, return_sequences=True, go_backwards=True)(L.Masking()(i))), X))

i = x_input()
h = L.SimpleRNN(3, return_sequences=True)(L.Masking()(i))
cases.append(record("masking_simple_rnn_dense", keras.Model(i, L.Dense(2)(h)), X))

i = x_input()
cases.append(record("lstm_return_state", keras.Model(
    i, L.LSTM(2, return_state=True)(L.Masking()(i))), X))

i = ids_input()
h = L.Embedding(10, 4, mask_zero=True)(i)
h = L.Bidirectional(L.LSTM(3, return_sequences=True))(h)
tagger = keras.Model(i, L.TimeDistributed(L.Dense(3, activation="softmax"))(h))
cases.append(record("bidirectional_concat_time_distributed", tagger, IDS))

i = ids_input()
h = L.Embedding(10, 4, mask_zero=True)(i)
cases.append(record("bidirectional_gru_sum", keras.Model(
    i, L.Bidirectional(L.GRU(3), merge_mode="sum")(h)), IDS))

i = x_input()
outs = L.Bidirectional(L.LSTM(2, return_sequences=True, return_state=True),
                       merge_mode=None)(L.Masking()(i))
cases.append(record("bidirectional_none_return_state", keras.Model(i, list(outs)), X))

i = x_input()
outs = L.Bidirectional(L.SimpleRNN(2, return_sequences=True), merge_mode="ave",
                       backward_layer=L.SimpleRNN(2, return_sequences=True, go_backwards=True,
                                                  activation="relu"))(L.Masking()(i))
cases.append(record("bidirectional_ave_backward_layer", keras.Model(i, outs), X))

i = x_input()
cases.append(record("bidirectional_mul_unmasked", keras.Model(
    i, L.Bidirectional(L.GRU(2), merge_mode="mul")(i)), X))

i = ids_input()
h = L.Embedding(10, 4, mask_zero=True)(i)
cases.append(record("multi_head_attention_masks", keras.Model(
    i, L.MultiHeadAttention(2, 3)(h, h)), IDS))

i = ids_input()
h = L.Embedding(10, 4, mask_zero=True)(i)
cases.append(record("attention_masks", keras.Model(i, L.Attention()([h, h])), IDS))

i = ids_input()
a = L.Embedding(10, 4, mask_zero=True)(i)
b = L.Dense(4)(a)
cases.append(record("add_concatenate_masks", keras.Model(
    i, L.LSTM(2)(L.Concatenate()([L.Add()([a, b]), b]))), IDS))

i = ids_input()
h = L.Embedding(10, 4, mask_zero=True)(i)
cases.append(record("global_average_pooling1d_masked", keras.Model(
    i, L.GlobalAveragePooling1D()(L.Dense(3)(h))), IDS))

# The tagger's compiled loss and accuracy with the output mask (Keras' apply_mask).
labels = rng.integers(0, 3, size=IDS.shape).astype(np.int32)
tagger.compile(loss="sparse_categorical_crossentropy", metrics=["accuracy"])
loss, acc = tagger.evaluate(IDS, labels, batch_size=len(IDS), verbose=0)
training = {"labels": tensor(labels), "loss": float(loss), "accuracy": float(acc)}

out = {"keras_version": keras.__version__, "cases": cases, "tagger_evaluate": training}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "masking_fixtures.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print("wrote", path, len(cases), "cases")
