"""Writes attention_fixtures.json: Keras 3 (TensorFlow 2.21) attention layers with random weights,
their inputs, weights (in layer.weights order, with names and shapes) and outputs, which
tests/unit/keras/layers/attention_test.cc reproduces with tfcc's layers.

    /work/tf-venv/bin/python attention_fixtures.py  # rewrites attention_fixtures.json beside it
"""
import json
import os

import numpy as np
import keras

rng = np.random.default_rng(7)


def rand(*shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def record(name, layer, inputs, call_kwargs=None, ctor=None, masks=None):
    call_kwargs = dict(call_kwargs or {})
    tensors = [keras.ops.convert_to_tensor(x) for x in inputs]
    kwargs = dict(call_kwargs)
    if masks is not None:
        kwargs["mask"] = [None if m is None else keras.ops.convert_to_tensor(m) for m in masks]
    if isinstance(layer, keras.layers.MultiHeadAttention):
        args = {"query": tensors[0], "value": tensors[1]}
        if len(tensors) > 2:
            args["key"] = tensors[2]
        out = layer(**args, **kwargs)
    else:
        out = layer(tensors, **kwargs)
    for w in layer.weights:
        w.assign(rng.uniform(-0.5, 0.5, size=w.shape).astype(np.float32))
    if isinstance(layer, keras.layers.MultiHeadAttention):
        out = layer(**args, **kwargs)
    else:
        out = layer(tensors, **kwargs)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return {
        "name": name,
        "class_name": type(layer).__name__,
        "ctor": ctor or {},
        "call": {k: v for k, v in call_kwargs.items() if not hasattr(v, "shape")},
        "inputs": [{"shape": list(x.shape), "values": x.ravel().tolist()} for x in inputs],
        "attention_mask": None if "attention_mask" not in call_kwargs else {
            "shape": list(call_kwargs["attention_mask"].shape),
            "values": call_kwargs["attention_mask"].astype(np.float32).ravel().tolist()},
        "masks": None if masks is None else [
            None if m is None else {"shape": list(m.shape),
                                    "values": m.astype(np.float32).ravel().tolist()}
            for m in masks],
        "weights": [{"path": w.path, "shape": list(w.shape),
                     "values": np.asarray(w.numpy()).ravel().tolist()} for w in layer.weights],
        "outputs": [{"shape": list(o.shape), "values": np.asarray(o).ravel().tolist()}
                    for o in outs],
        "config": layer.get_config(),
    }


def mha(**kw):
    return keras.layers.MultiHeadAttention(**kw)


cases = []
x = rand(2, 5, 8)
y = rand(2, 6, 8)
cases.append(record("mha self", mha(num_heads=2, key_dim=3), [x, x],
                    ctor={"num_heads": 2, "key_dim": 3}))
cases.append(record("mha cross key value_dim output_shape",
                    mha(num_heads=3, key_dim=2, value_dim=4, output_shape=5),
                    [x, y, rand(2, 6, 7)],
                    ctor={"num_heads": 3, "key_dim": 2, "value_dim": 4, "output_shape": [5]}))
cases.append(record("mha causal", mha(num_heads=2, key_dim=4), [x, x],
                    {"use_causal_mask": True}, ctor={"num_heads": 2, "key_dim": 4}))
mask = rng.uniform(size=(2, 5, 6)) < 0.7
mask[0, 0, :] = False
cases.append(record("mha mask no bias", mha(num_heads=2, key_dim=3, use_bias=False), [x, y],
                    {"attention_mask": mask},
                    ctor={"num_heads": 2, "key_dim": 3, "use_bias": False}))
cases.append(record("mha scores", mha(num_heads=2, key_dim=3), [x, y],
                    {"return_attention_scores": True, "attention_mask": mask},
                    ctor={"num_heads": 2, "key_dim": 3}))
cases.append(record("mha 2d attention axes", mha(num_heads=2, key_dim=2, attention_axes=(1, 2)),
                    [rand(2, 3, 4, 5), rand(2, 3, 4, 5)],
                    ctor={"num_heads": 2, "key_dim": 2, "attention_axes": [1, 2]}))
q, v = rand(2, 4, 3), rand(2, 5, 3)
vmask = rng.uniform(size=(2, 5)) < 0.7
vmask[:, 0] = True
qmask = np.array([[True, True, False, True], [True, False, True, True]])
cases.append(record("attention dot", keras.layers.Attention(), [q, v]))
cases.append(record("attention scale concat", keras.layers.Attention(use_scale=True,
                                                                   score_mode="concat"),
                    [q, v, rand(2, 5, 3)], ctor={"use_scale": True, "score_mode": "concat"}))
cases.append(record("attention masks causal", keras.layers.Attention(use_scale=True),
                    [q, v], {"use_causal_mask": True, "return_attention_scores": True},
                    ctor={"use_scale": True}, masks=[qmask, vmask]))
cases.append(record("additive attention", keras.layers.AdditiveAttention(), [q, v],
                    masks=[None, vmask]))
cases.append(record("additive attention no scale", keras.layers.AdditiveAttention(use_scale=False),
                    [q, v, rand(2, 5, 3)], ctor={"use_scale": False}))

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "attention_fixtures.json"), "w") as f:
    json.dump({"keras_version": keras.__version__, "cases": cases}, f, default=str)
