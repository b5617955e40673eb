"""A tensorflow_datasets-like loader for the data sets tfcc reads (tfcc::keras::datasets):

    import tfcc.tfds as tfds
    datasets, info = tfds.load(name="fashion_mnist", with_info=True, as_supervised=True)
    train, test = datasets["train"], datasets["test"]   # (image uint8 (28, 28, 1), label int64)

The files are found as tfcc::datasets::load finds them (data_dir, $TFCC_DATASETS_DIR, Debian's
/usr/share/datasets); nothing is downloaded.
"""

import types

import numpy as np

from tfcc import _tfcc
from tfcc import data as _data


def _split(x, y, as_supervised):
    images = np.ascontiguousarray(x[..., np.newaxis])   # TFDS' (28, 28, 1)
    labels = y.astype(np.int64)                          # TFDS' ClassLabel is int64
    if as_supervised:
        return _data.Dataset.from_tensor_slices((images, labels))
    raise NotImplementedError("tfds.load: dict elements (as_supervised=False) are not supported "
                              "yet; pass as_supervised=True")


def load(name, split=None, data_dir=None, batch_size=None, shuffle_files=False,
         as_supervised=False, with_info=False, **kwargs):
    """tfds.load for "mnist" and "fashion_mnist" (splits "train" and "test")."""
    del shuffle_files, kwargs
    (xtr, ytr), (xte, yte) = _tfcc.load_data(name, data_dir or "")
    arrays = {"train": (xtr.numpy(), ytr.numpy()), "test": (xte.numpy(), yte.numpy())}

    def make(s):
        if s not in arrays:
            raise ValueError(f"tfds.load: unknown split '{s}' (have 'train', 'test')")
        ds = _split(*arrays[s], as_supervised)
        return ds.batch(batch_size) if batch_size else ds

    if split is None:
        result = {s: make(s) for s in arrays}
    elif isinstance(split, (list, tuple)):
        result = [make(s) for s in split]
    else:
        result = make(split)
    if not with_info:
        return result
    info = types.SimpleNamespace(
        name=name,
        splits={s: types.SimpleNamespace(num_examples=len(a[1])) for s, a in arrays.items()},
        features={"image": types.SimpleNamespace(shape=(28, 28, 1), dtype="uint8"),
                  "label": types.SimpleNamespace(num_classes=10)})
    return result, info
