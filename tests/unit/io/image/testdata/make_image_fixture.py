"""Writes the image decoder fixture: small PNG/JPEG/GIF/BMP files and what TensorFlow decodes.

Run with TensorFlow 2.21 (e.g. /work/tf-venv/bin/python make_image_fixture.py) from this folder.
Each source file <name>.<ext> gets <name>.npz with one array per decode variant:
  c<N>            tf.io.decode_* with channels=N (uint16 results are stored as int32)
  c<N>_r<R>       decode_jpeg with ratio=R
  c<N>_u16        decode_png with dtype=uint16 (stored as int32)
  c<N>_if         decode_jpeg with dct_method="INTEGER_ACCURATE"
  frames          decode_gif (all frames, RGB)
PNG and JPEG files are written by TensorFlow's encoders; GIF and BMP (TensorFlow has no encoder)
by the small writers below, following the GIF89a and BMP formats.
"""
import struct

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(25)


def smooth(h, w, c, hi=255, dtype=np.uint8):
  y, x = np.mgrid[0:h, 0:w]
  planes = [((np.sin(x / (3 + k) + y / (5 + 2 * k)) + 1) / 2 * hi) for k in range(c)]
  img = np.stack(planes, -1) + rng.integers(0, max(2, hi // 25), (h, w, c))
  return np.clip(img, 0, hi).astype(dtype)


def save(name, contents):
  with open(name, "wb") as f:
    f.write(contents)


def as_saved(t):
  a = t.numpy()
  return a.astype(np.int32) if a.dtype == np.uint16 else a


# ---- PNG (TensorFlow's encoder) ----
pngs = {
    "png_gray8": smooth(9, 13, 1),
    "png_ga8": smooth(8, 7, 2),
    "png_rgb8": smooth(11, 10, 3),
    "png_rgba8": smooth(6, 12, 4),
    "png_rgb16": smooth(7, 9, 3, hi=65535, dtype=np.uint16),
    "png_gray16": smooth(5, 6, 1, hi=65535, dtype=np.uint16),
}
for name, img in pngs.items():
  save(name + ".png", tf.io.encode_png(img).numpy())
# A palette PNG with transparency and a 1-bit gray PNG, built by hand (TensorFlow's encoder
# writes only 8/16-bit gray/GA/RGB/RGBA).
import zlib


def chunk(kind, data):
  return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_raw(w, h, bit_depth, color_type, rows, extra=b""):
  ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 0)
  raw = b"".join(b"\x00" + r for r in rows)
  return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw))
          + chunk(b"IEND", b""))


palette = bytes(rng.integers(0, 256, 3 * 16, dtype=np.uint8))
trns = bytes([255, 0, 128] + [255] * 13)
idx = rng.integers(0, 16, (5, 7), dtype=np.uint8)
save("png_palette.png", png_raw(7, 5, 8, 3, [bytes(r) for r in idx],
                                chunk(b"PLTE", palette) + chunk(b"tRNS", trns)))
bits = rng.integers(0, 2, (6, 10), dtype=np.uint8)
save("png_gray1.png", png_raw(10, 6, 1, 0, [bytes(np.packbits(r)) for r in bits]))

for name in list(pngs) + ["png_palette", "png_gray1"]:
  data = open(name + ".png", "rb").read()
  out = {}
  for c in (0, 1, 3, 4):
    out[f"c{c}"] = as_saved(tf.io.decode_png(data, channels=c))
    out[f"c{c}_u16"] = as_saved(tf.io.decode_png(data, channels=c, dtype=tf.uint16))
  out["image_c0"] = as_saved(tf.io.decode_image(data))
  out["image_f32"] = tf.io.decode_image(data, dtype=tf.float32).numpy()
  np.savez(name + ".npz", **out)

# ---- JPEG (TensorFlow's encoder) ----
jpegs = {
    "jpeg_rgb": (smooth(24, 30, 3), dict(quality=90)),
    "jpeg_gray": (smooth(17, 19, 1), dict(quality=75)),
    "jpeg_prog": (smooth(33, 21, 3), dict(quality=85, progressive=True)),
    "jpeg_444": (smooth(16, 16, 3), dict(quality=95, chroma_downsampling=False)),
}
for name, (img, opts) in jpegs.items():
  save(name + ".jpg", tf.io.encode_jpeg(img, **opts).numpy())
  data = open(name + ".jpg", "rb").read()
  out = {}
  for c in (0, 1, 3):
    out[f"c{c}"] = tf.io.decode_jpeg(data, channels=c).numpy()
    out[f"c{c}_ia"] = tf.io.decode_jpeg(data, channels=c, dct_method="INTEGER_ACCURATE").numpy()
    out[f"c{c}_nofancy"] = tf.io.decode_jpeg(data, channels=c, fancy_upscaling=False).numpy()
    for r in (2, 4, 8):
      out[f"c{c}_r{r}"] = tf.io.decode_jpeg(data, channels=c, ratio=r).numpy()
  out["image_c0"] = tf.io.decode_image(data).numpy()
  out["image_f32"] = tf.io.decode_image(data, dtype=tf.float32).numpy()
  np.savez(name + ".npz", **out)


# ---- GIF (written here: GIF89a with 9-bit LZW codes and a clear code every 254 codes) ----
def gif_lzw(indices, min_code=8):
  clear, end = 1 << min_code, (1 << min_code) + 1
  codes, n = [clear], 0
  for v in indices:
    if n == 254:
      codes.append(clear)
      n = 0
    codes.append(int(v))
    n += 1
  codes.append(end)
  acc, nbits, out = 0, 0, bytearray()
  for c in codes:
    acc |= c << nbits
    nbits += 9
    while nbits >= 8:
      out.append(acc & 255)
      acc >>= 8
      nbits -= 8
  if nbits:
    out.append(acc)
  blocks = bytearray([min_code])
  for i in range(0, len(out), 255):
    part = out[i:i + 255]
    blocks += bytes([len(part)]) + part
  return bytes(blocks + b"\x00")


def gif_file(w, h, palette, frames, local=None):
  """frames: list of (x, y, fw, fh, indices, disposal, transparent or None)."""
  out = bytearray(b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + palette)
  for i, (x, y, fw, fh, ind, disposal, transparent) in enumerate(frames):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    out += b"\x21\xf9\x04" + bytes([flags]) + struct.pack("<H", 10) + bytes(
        [transparent or 0]) + b"\x00"
    out += b"\x2c" + struct.pack("<HHHHB", x, y, fw, fh, 0)
    out += gif_lzw(ind.ravel())
  return bytes(out + b"\x3b")


gpal = bytes(rng.integers(0, 256, 3 * 256, dtype=np.uint8))
save("gif_still.gif", gif_file(9, 7, gpal, [(0, 0, 9, 7, rng.integers(0, 256, (7, 9)), 0, None)]))
save("gif_anim.gif",
     gif_file(10, 8, gpal, [
         (0, 0, 10, 8, rng.integers(0, 256, (8, 10)), 1, None),
         (2, 1, 5, 4, rng.integers(0, 256, (4, 5)), 2, 7),
         (0, 3, 10, 5, np.full((5, 10), 7) * (rng.random((5, 10)) < 0.5) + rng.integers(
             8, 256, (5, 10)) * (rng.random((5, 10)) >= 0.5), 1, 7),
     ]))
for name in ("gif_still", "gif_anim"):
  data = open(name + ".gif", "rb").read()
  np.savez(name + ".npz", frames=tf.io.decode_gif(data).numpy(),
           image_c0=tf.io.decode_image(data).numpy(),
           image_noexpand=tf.io.decode_image(data, expand_animations=False).numpy())


# ---- BMP (written here: BITMAPINFOHEADER, 24/32-bit, bottom-up and top-down) ----
def bmp_file(img, top_down=False):
  h, w, c = img.shape
  row = w * c
  pad = (4 - row % 4) % 4 if c == 3 else 0
  pix = img[..., [2, 1, 0, 3][:c]] if c >= 3 else img
  rows = [bytes(pix[r].ravel()) + b"\x00" * pad for r in (range(h) if top_down else range(h - 1, -1, -1))]
  data = b"".join(rows)
  header = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, 8 * c, 0, len(data), 2835,
                       2835, 0, 0)
  return b"BM" + struct.pack("<IHHI", 14 + 40 + len(data), 0, 0, 54) + header + data


save("bmp_rgb24.bmp", bmp_file(smooth(5, 7, 3)))
save("bmp_rgba32.bmp", bmp_file(smooth(6, 5, 4)))
save("bmp_topdown24.bmp", bmp_file(smooth(4, 6, 3), top_down=True))
for name in ("bmp_rgb24", "bmp_rgba32", "bmp_topdown24"):
  data = open(name + ".bmp", "rb").read()
  out = {}
  for c in (0, 3, 4):
    try:
      out[f"c{c}"] = tf.io.decode_bmp(data, channels=c).numpy()
    except tf.errors.InvalidArgumentError:
      pass
  out["image_c0"] = tf.io.decode_image(data).numpy()
  np.savez(name + ".npz", **out)
print("ok")
