"""tf.keras over tfcc::keras (python/src/keras.cc).

    model = tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(4,))])
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=2)          # the progress bar is tfcc's, on sys.stdout

A layer is made by the C++ layer registry from its Keras 3 config entry: the constructor's
arguments (positional ones named by _POSITIONAL) become the entry's "config", so every layer
class tfcc registers exists here (an unknown class or argument is the C++ side's error).
Optimizers, losses, regularizers, initializers and metrics are their serialized Keras 3 objects.
"""

import json
import re
import types

import numpy as np

from tfcc import _tfcc
from tfcc import data as _data
from tfcc._tensor import constant as _constant

# Constructor parameters that Keras accepts positionally, by class.
_CONV = ("filters", "kernel_size", "strides", "padding")
_POOL = ("pool_size", "strides", "padding")
_POSITIONAL = {
    "Dense": ("units", "activation"),
    "Conv1D": _CONV, "Conv2D": _CONV, "Conv3D": _CONV,
    "Conv1DTranspose": _CONV, "Conv2DTranspose": _CONV, "SeparableConv2D": _CONV,
    "DepthwiseConv2D": ("kernel_size", "strides", "padding"),
    "MaxPooling1D": _POOL, "MaxPooling2D": _POOL, "MaxPooling3D": _POOL,
    "AveragePooling1D": _POOL, "AveragePooling2D": _POOL, "AveragePooling3D": _POOL,
    "Dropout": ("rate",), "SpatialDropout2D": ("rate",), "GaussianNoise": ("stddev",),
    "Activation": ("activation",), "Reshape": ("target_shape",), "Permute": ("dims",),
    "RepeatVector": ("n",), "Embedding": ("input_dim", "output_dim"),
    "LSTM": ("units",), "GRU": ("units",), "SimpleRNN": ("units",),
    "BatchNormalization": ("axis",), "LayerNormalization": ("axis",),
    "ZeroPadding2D": ("padding",), "UpSampling2D": ("size",), "Cropping2D": ("cropping",),
    "LeakyReLU": ("negative_slope",), "Softmax": ("axis",), "Concatenate": ("axis",),
}
# Keras' defaults of parameters that tfcc's configs take as required constructor arguments.
_POOL_DEFAULTS = {"pool_size": 2, "padding": "valid"}
_CONV_DEFAULTS = {"strides": 1, "padding": "valid"}
_DEFAULTS = {cls: (_POOL_DEFAULTS if "Pooling" in cls and "Global" not in cls else
                   _CONV_DEFAULTS if "Conv" in cls else {}) for cls in _POSITIONAL}
# Arguments that Keras turns into an n-tuple for an nD layer.
_TUPLES = ("kernel_size", "strides", "pool_size", "dilation_rate", "size")


def _serialize(value):
    """A Python argument as Keras 3's config holds it."""
    if isinstance(value, _KerasObject):
        return value.serialize()
    if isinstance(value, tuple):
        return [_serialize(v) for v in value]
    if isinstance(value, list):
        return [_serialize(v) for v in value]
    if isinstance(value, dict):
        return {k: _serialize(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "name") and hasattr(value, "_enum"):  # a tf.DType
        return value.name
    return value


def _snake_case(name):
    """Keras' default object names: "SparseCategoricalCrossentropy" ->
    "sparse_categorical_crossentropy", "SGD" -> "sgd"."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


class _KerasObject:
    """An optimizer, loss, metric, regularizer or initializer: its Keras 3 serialization."""
    _module = ""
    _class = ""

    def __init__(self, **config):
        self._config = config

    def get_config(self):
        return dict(self._config)

    def serialize(self):
        config = dict(self._config)
        if self._module in ("keras.losses", "keras.optimizers", "keras.metrics"):
            config.setdefault("name", _snake_case(self._class))
        if self._module == "keras.losses":
            config.setdefault("reduction", "sum_over_batch_size")
        return {"module": self._module, "class_name": self._class,
                "config": _serialize(config), "registered_name": None}

    def __repr__(self):
        return f"<{self._module}.{self._class} {self._config}>"


def _namespace(module, spec):
    """Classes for `spec` {class name: positional parameter names} in Keras module `module`."""
    ns = types.SimpleNamespace()
    for cls, params in spec.items():
        def init(self, *args, _params=params, _cls=cls, **kwargs):
            if len(args) > len(_params):
                raise TypeError(f"{_cls}() takes at most {len(_params)} positional arguments")
            kwargs.update(zip(_params, args))
            _KerasObject.__init__(self, **kwargs)

        setattr(ns, cls, type(cls, (_KerasObject,), {"_module": module, "_class": cls,
                                                     "__init__": init}))
    return ns


optimizers = _namespace("keras.optimizers", {
    n: ("learning_rate",) for n in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta",
                                    "Adamax", "Nadam", "Ftrl", "Lion")})
losses = _namespace("keras.losses", {n: () for n in (
    "SparseCategoricalCrossentropy", "CategoricalCrossentropy", "BinaryCrossentropy",
    "MeanSquaredError", "MeanAbsoluteError", "Huber", "KLDivergence", "Hinge",
    "MeanSquaredLogarithmicError", "MeanAbsolutePercentageError", "CosineSimilarity",
    "Poisson", "LogCosh", "SquaredHinge", "CategoricalHinge")})
metrics = _namespace("keras.metrics", {n: () for n in (
    "Accuracy", "SparseCategoricalAccuracy", "CategoricalAccuracy", "BinaryAccuracy",
    "MeanSquaredError", "MeanAbsoluteError", "AUC", "Precision", "Recall",
    "SparseTopKCategoricalAccuracy", "TopKCategoricalAccuracy", "Mean")})
regularizers = _namespace("keras.regularizers", {"L1": ("l1",), "L2": ("l2",),
                                                 "L1L2": ("l1", "l2")})
regularizers.l1, regularizers.l2, regularizers.l1_l2 = (
    regularizers.L1, regularizers.L2, regularizers.L1L2)
initializers = _namespace("keras.initializers", {n: () for n in (
    "Zeros", "Ones", "Constant", "GlorotUniform", "GlorotNormal", "HeNormal", "HeUniform",
    "RandomNormal", "RandomUniform", "TruncatedNormal", "Orthogonal", "LecunNormal",
    "LecunUniform", "Identity")})


def _layer_config(cls, args, kwargs):
    params = _POSITIONAL.get(cls, ())
    if len(args) > len(params):
        raise TypeError(f"{cls}() takes at most {len(params)} positional arguments")
    config = dict(zip(params, args))
    for k in config:
        if k in kwargs:
            raise TypeError(f"{cls}() got multiple values for argument '{k}'")
    config.update(kwargs)
    for k, v in _DEFAULTS.get(cls, {}).items():
        config.setdefault(k, v)
    rank = next((int(c) for c in ("1", "2", "3") if cls.endswith(c + "D") or
                 cls.endswith(c + "DTranspose")), 0)
    for k in _TUPLES:
        if rank and isinstance(config.get(k), int):
            config[k] = (config[k],) * rank
    if cls.startswith("MaxPooling") or cls.startswith("AveragePooling"):
        if config.get("strides") is None and "pool_size" in config:
            config["strides"] = config["pool_size"]
    return {k: _serialize(v) for k, v in config.items()}


class Layer:
    """A tfcc layer made from its Keras 3 config entry; `input_shape=` is kept for Sequential."""
    _class = ""

    def __init__(self, *args, input_shape=None, **kwargs):
        self._input_shape = input_shape
        entry = {"module": "keras.layers", "class_name": self._class,
                 "config": _layer_config(self._class, args, kwargs), "registered_name": None}
        self._layer = _tfcc.layer_from_keras3(json.dumps(entry))

    @property
    def name(self):
        return self._layer.name

    @property
    def weights(self):
        return self._layer.weights

    @property
    def trainable_weights(self):
        return self._layer.trainable_weights

    def count_params(self):
        return self._layer.count_params()

    def get_config(self):
        return json.loads(self._layer.keras3_entry())["config"]

    def __call__(self, x, training=False):
        return self._layer(_constant(x), training)

    def __repr__(self):
        return f"<{self._class} name={self.name}>"


class _Layers(types.SimpleNamespace):
    """tf.keras.layers: any class name the C++ layer registry knows (errors come from it)."""

    def __getattr__(self, cls):
        if cls.startswith("_"):
            raise AttributeError(cls)
        t = type(cls, (Layer,), {"_class": cls})
        setattr(self, cls, t)
        return t


layers = _Layers()


class History:
    """What fit returns: `history` (metric -> one value per epoch), `epoch`, `params`."""

    def __init__(self, history, params):
        self.history = history
        self.epoch = list(range(len(next(iter(history.values()), []))))
        self.params = params


def _tensor(x):
    return None if x is None else _constant(np.ascontiguousarray(x) if isinstance(x, np.ndarray)
                                            else x)


def _verbose(v):
    return 1 if v == "auto" else int(v)


class Model:
    """A compiled-in-C++ Keras model (Sequential here; load_model returns this type too)."""

    def __init__(self, cpp=None, name=None):
        self._model = cpp
        self._name = name

    @property
    def name(self):
        return self._cpp().name

    @property
    def layers(self):
        return self._cpp().layers

    @property
    def weights(self):
        return self._cpp().weights

    @property
    def trainable_variables(self):
        return self._cpp().trainable_weights

    def _cpp(self):
        return self._model

    def count_params(self):
        return self._cpp().count_params()

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, run_eagerly=False, **kwargs):
        if kwargs:
            raise TypeError(f"compile(): arguments not supported yet: {sorted(kwargs)}")
        # A metric object is compiled by its class, then given its own name (Keras' rule:
        # the history key is the string as written, or the object's name).
        metrics = list(metrics or [])
        ids = [m if isinstance(m, str) else _snake_case(m._class) for m in metrics]
        names = ["" if isinstance(m, str) else m.get_config().get("name", "") for m in metrics]
        config = {"optimizer": _serialize(optimizer), "loss": _serialize(loss), "metrics": ids,
                  "run_eagerly": bool(run_eagerly)}
        self._cpp().compile(json.dumps(config), names)

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None):
        if callbacks:
            raise NotImplementedError("fit(callbacks=...) is not bound to Python yet")
        v = _verbose(verbose)
        if isinstance(x, _data.Dataset):
            val = validation_data
            if val is not None and not isinstance(val, _data.Dataset):
                val = _data.Dataset.from_tensor_slices(tuple(val[:2])).batch(batch_size or 32)
            h = self._cpp().fit_dataset(x._ds, epochs, v, None if val is None else val._ds,
                                        initial_epoch, steps_per_epoch, validation_steps)
        else:
            val = None
            if validation_data is not None:
                val = (_tensor(validation_data[0]), _tensor(validation_data[1]))
            h = self._cpp().fit(_tensor(x), _tensor(y), batch_size, epochs, v,
                                validation_split, val, shuffle, initial_epoch, steps_per_epoch,
                                validation_steps)
        return History(h, {"verbose": v, "epochs": epochs, "steps": steps_per_epoch})

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", steps=None,
                 return_dict=False):
        v = _verbose(verbose)
        if isinstance(x, _data.Dataset):
            return self._cpp().evaluate_dataset(x._ds, v, steps, return_dict)
        return self._cpp().evaluate(_tensor(x), _tensor(y), batch_size, v, return_dict)

    def predict(self, x, batch_size=None, verbose="auto", steps=None):
        del steps
        v = _verbose(verbose)
        if isinstance(x, _data.Dataset):
            return self._cpp().predict_dataset(x._ds, v).numpy()
        return self._cpp().predict(_tensor(x), batch_size, v).numpy()

    def __call__(self, x, training=False):
        return self._cpp()(_constant(x), training)

    def summary(self, print_fn=None):
        text = self._cpp().summary_string()
        (print_fn or print)(text.rstrip("\n"))

    def save(self, filepath):
        self._cpp().save(str(filepath))


class Sequential(Model):
    """tf.keras.Sequential: the C++ model is made at the first use, so add() may come first;
    a first layer given `input_shape` starts the model with an InputLayer."""

    def __init__(self, layers=None, name=None):
        super().__init__(None, name)
        self._layers = []
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if self._model is not None:
            raise NotImplementedError("Sequential.add after the model was used is not bound yet")
        self._layers.append(layer)

    def _cpp(self):
        if self._model is None:
            cpp_layers = [layer._layer for layer in self._layers]
            shape = self._layers[0]._input_shape if self._layers else None
            if shape is not None:
                entry = {"module": "keras.layers", "class_name": "InputLayer",
                         "config": {"batch_shape": [None] + list(shape)},
                         "registered_name": None}
                cpp_layers.insert(0, _tfcc.layer_from_keras3(json.dumps(entry)))
            self._model = _tfcc.sequential(cpp_layers, self._name or "")
        return self._model


class _Models(types.SimpleNamespace):
    pass


def load_model(filepath, compile=True):  # noqa: A002 - Keras' name
    return Model(_tfcc.load_model(str(filepath), compile))


models = _Models(Sequential=Sequential, Model=Model, load_model=load_model)


def _load_data(name):
    def load_data(path=""):
        (xtr, ytr), (xte, yte) = _tfcc.load_data(name, str(path))
        return (xtr.numpy(), ytr.numpy()), (xte.numpy(), yte.numpy())
    load_data.__doc__ = f"keras.datasets.{name}.load_data through tfcc::keras::datasets."
    return types.SimpleNamespace(load_data=load_data)


datasets = types.SimpleNamespace(mnist=_load_data("mnist"),
                                 fashion_mnist=_load_data("fashion_mnist"))
