"""Writes image_ops.npz: inputs and TensorFlow 2.21's tf.image results for tests/unit/ops/image_ops_test.cc.

Run from this folder with TensorFlow 2.21: /work/tf-venv/bin/python make_image_ops_fixture.py
"""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(19)
out = {}
f = rng.random((2, 7, 9, 3), dtype=np.float32)
u8 = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
g = rng.random((2, 5, 4, 3), dtype=np.float32)  # upstream gradient for the (5, 4) resizes
out["f"] = f
out["u8"] = u8
out["g"] = g

methods = ["bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic"]
for m in methods:
  for aa in (False, True):
    for (h, w) in ((5, 4), (11, 13), (7, 20)):
      out[f"resize_{m}_{int(aa)}_{h}x{w}"] = tf.image.resize(f, (h, w), method=m,
                                                             antialias=aa).numpy()
  out[f"resize_u8_{m}"] = tf.image.resize(u8, (4, 11), method=m).numpy()
out["resize_preserve"] = tf.image.resize(f, (14, 14), preserve_aspect_ratio=True).numpy()
for m in ("bilinear", "nearest", "bicubic", "lanczos3"):
  x = tf.constant(f)
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.image.resize(x, (5, 4), method=m, antialias=(m == "lanczos3"))
    loss = tf.reduce_sum(y * g)
  out[f"grad_{m}"] = tape.gradient(loss, x).numpy()

img = f[0]
out["crop"] = tf.image.crop_to_bounding_box(f, 1, 2, 4, 5).numpy()
out["pad"] = tf.image.pad_to_bounding_box(img, 2, 1, 10, 12).numpy()
out["crop_or_pad_a"] = tf.image.resize_with_crop_or_pad(f, 4, 12).numpy()
out["crop_or_pad_b"] = tf.image.resize_with_crop_or_pad(img, 10, 5).numpy()
out["central"] = tf.image.central_crop(img, 0.6).numpy()
out["central_b"] = tf.image.central_crop(f, 0.33).numpy()
out["flip_lr"] = tf.image.flip_left_right(f).numpy()
out["flip_ud"] = tf.image.flip_up_down(img).numpy()
for k in (1, 2, 3):
  out[f"rot90_{k}"] = tf.image.rot90(f, k).numpy()
out["transpose"] = tf.image.transpose(img).numpy()
out["brightness_f"] = tf.image.adjust_brightness(f, 0.1).numpy()
out["brightness_u8"] = tf.image.adjust_brightness(u8, 0.1).numpy()
out["contrast_f"] = tf.image.adjust_contrast(f, 1.7).numpy()
out["contrast_u8"] = tf.image.adjust_contrast(u8, 0.6).numpy()
out["gamma_f"] = tf.image.adjust_gamma(f, 0.8, 1.2).numpy()
out["gamma_u8"] = tf.image.adjust_gamma(u8, 1.5).numpy()
out["saturation_f"] = tf.image.adjust_saturation(f, 0.6).numpy()
out["saturation_f2"] = tf.image.adjust_saturation(f, 1.8).numpy()
out["saturation_u8"] = tf.image.adjust_saturation(u8, 1.3).numpy()
out["hue_f"] = tf.image.adjust_hue(f, 0.23).numpy()
out["hue_f2"] = tf.image.adjust_hue(f, -0.4).numpy()
out["hue_u8"] = tf.image.adjust_hue(u8, 0.1).numpy()
out["gray_f"] = tf.image.rgb_to_grayscale(f).numpy()
out["gray_u8"] = tf.image.rgb_to_grayscale(u8).numpy()
out["gray_to_rgb"] = tf.image.grayscale_to_rgb(tf.constant(out["gray_f"])).numpy()
out["hsv"] = tf.image.rgb_to_hsv(f).numpy()
out["rgb"] = tf.image.hsv_to_rgb(out["hsv"]).numpy()
out["std_f"] = tf.image.per_image_standardization(f).numpy()
out["std_u8"] = tf.image.per_image_standardization(u8).numpy()
out["convert_u8_f32"] = tf.image.convert_image_dtype(u8, tf.float32).numpy()
out["convert_f32_u8"] = tf.image.convert_image_dtype(f * 1.2 - 0.1, tf.uint8, saturate=True).numpy()
out["convert_f32_u8_nosat"] = tf.image.convert_image_dtype(f, tf.uint8).numpy()
out["convert_u8_i32"] = tf.image.convert_image_dtype(u8, tf.int32).numpy()
out["convert_i32_u8"] = tf.image.convert_image_dtype(
    tf.image.convert_image_dtype(u8, tf.int32), tf.uint8).numpy()
np.savez("image_ops.npz", **out)
print("ok", len(out))
