"""Writes image_folder/ (a small class-per-folder image set) and image_folder.npz: what Keras
3's keras.utils.image_dataset_from_directory (TensorFlow 2.21) makes of it.

Run from this folder: /work/tf-venv/bin/python make_image_folder_fixture.py
Keys: <case>_paths (file paths relative to image_folder, one per element in the order Keras
lists them, "\n"-joined as uint8), <case>_x / <case>_y (all elements, unshuffled cases only).
"""
import os
import shutil

import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(4)
root = "image_folder"
shutil.rmtree(root, ignore_errors=True)


def img(h, w, c=3):
  return rng.integers(0, 256, (h, w, c), dtype=np.uint8)


def put(rel, data):
  path = os.path.join(root, rel)
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path, "wb") as f:
    f.write(data)


put("cats/c1.png", tf.io.encode_png(img(9, 12)).numpy())
put("cats/c2.PNG", tf.io.encode_png(img(14, 7)).numpy())
put("cats/sub/c3.jpg", tf.io.encode_jpeg(img(16, 16), quality=90).numpy())
put("cats/b0.png", tf.io.encode_png(img(6, 6, 1)).numpy())
put("dogs/d1.png", tf.io.encode_png(img(10, 10, 4)).numpy())
put("dogs/d2.jpeg", tf.io.encode_jpeg(img(12, 20), quality=80).numpy())
put("dogs/a/d3.png", tf.io.encode_png(img(5, 11)).numpy())
put("dogs/a/b/d4.png", tf.io.encode_png(img(8, 8)).numpy())
put("zebra/z1.png", tf.io.encode_png(img(7, 9)).numpy())
put("zebra/z2.jpg", tf.io.encode_jpeg(img(9, 13), quality=95).numpy())
put("zebra/readme.txt", b"not an image")
put(".hidden/h1.png", tf.io.encode_png(img(4, 4)).numpy())

out = {}


def rel_paths(ds):
  return "\n".join(os.path.relpath(p, root) for p in ds.file_paths)


def paths_array(s):
  return np.frombuffer(s.encode(), dtype=np.uint8)


for subset in ("training", "validation"):
  ds = keras.utils.image_dataset_from_directory(root, seed=123, validation_split=0.34,
                                                subset=subset, image_size=(8, 10))
  out[f"split_{subset}_paths"] = paths_array(rel_paths(ds))
ds = keras.utils.image_dataset_from_directory(root, seed=7, image_size=(8, 10))
out["seed7_paths"] = paths_array(rel_paths(ds))

cases = {
    "plain": dict(image_size=(8, 10)),
    "categorical": dict(image_size=(6, 5), label_mode="categorical", color_mode="grayscale",
                        interpolation="bicubic"),
    "crop": dict(image_size=(7, 7), crop_to_aspect_ratio=True,
                 interpolation="area"),
    "nearest": dict(image_size=(5, 9), interpolation="nearest", class_names=["zebra", "cats"]),
}
for name, kw in cases.items():
  ds = keras.utils.image_dataset_from_directory(root, shuffle=False, batch_size=None, **kw)
  out[f"{name}_paths"] = paths_array(rel_paths(ds))
  xs, ys = zip(*[(x.numpy(), y.numpy()) for x, y in ds])
  out[f"{name}_x"] = np.stack(xs)
  out[f"{name}_y"] = np.stack(ys)
np.savez("image_folder.npz", **out)
print("ok")
