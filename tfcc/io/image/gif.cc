// GIF decoding through giflib, compositing frames as TensorFlow's DecodeGif does: each frame
// starts as a copy of the previous one (the first as black), pixels of the frame's transparent
// color keep what was there, and the disposal method is ignored.
//
// giflib's record-level API is used instead of DGifSlurp so that each frame's declared size is
// checked against the memory bound before its raster is allocated.
#include <gif_lib.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tfcc/io/image/image.h"
#include "tfcc/io/image/image_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io {
namespace {

struct Input {
  const unsigned char* data;
  size_t size;
  size_t pos = 0;
};

int on_read(GifFileType* gif, GifByteType* out, int n) {
  auto* in = static_cast<Input*>(gif->UserData);
  const size_t take = std::min(static_cast<size_t>(std::max(n, 0)), in->size - in->pos);
  std::memcpy(out, in->data + in->pos, take);
  in->pos += take;
  return static_cast<int>(take);
}

struct GifCloser {
  GifFileType* gif = nullptr;
  ~GifCloser() {
    int err = 0;
    if (gif) DGifCloseFile(gif, &err);
  }
};

}  // namespace

Tensor decode_gif(std::string_view contents, const std::string& source) {
  if (sniff_image_format(contents) != ImageFormat::kGif) {
    throw InvalidArgumentError("decode_gif: " + source +
                               " is not a GIF file (it does not start with GIF87a or GIF89a)");
  }
  auto bad = [&](const std::string& what) {
    throw DataLossError(tfcc::internal::str_cat("Invalid GIF file ", source, ": ", what));
  };
  Input in{reinterpret_cast<const unsigned char*>(contents.data()), contents.size()};
  int err = 0;
  GifCloser g;
  g.gif = DGifOpen(&in, on_read, &err);
  if (!g.gif) bad(GifErrorString(err) ? GifErrorString(err) : "cannot open");
  GifFileType* gif = g.gif;
  auto gif_error = [&] {
    const char* why = GifErrorString(gif->Error);
    bad(why ? why : "read error");
  };
  const int64_t height = gif->SHeight, width = gif->SWidth;
  image_internal::check_image_size(1, height, width, 3, 1, contents.size(), source, "GIF");
  const size_t frame_bytes = static_cast<size_t>(height * width * 3);
  std::vector<unsigned char> frames;
  std::vector<unsigned char> raster;
  int transparent = NO_TRANSPARENT_COLOR;
  int64_t count = 0;
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(gif, &type) == GIF_ERROR) gif_error();
    if (type == TERMINATE_RECORD_TYPE) break;
    if (type == EXTENSION_RECORD_TYPE) {
      int code = 0;
      GifByteType* ext = nullptr;
      if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) gif_error();
      if (code == GRAPHICS_EXT_FUNC_CODE && ext != nullptr && ext[0] >= 4) {
        GraphicsControlBlock gcb;
        if (DGifExtensionToGCB(ext[0], ext + 1, &gcb) == GIF_OK) transparent = gcb.TransparentColor;
      }
      while (ext != nullptr) {
        if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) gif_error();
      }
      continue;
    }
    if (type != IMAGE_DESC_RECORD_TYPE) continue;
    if (DGifGetImageDesc(gif) == GIF_ERROR) gif_error();
    const GifImageDesc& desc = gif->Image;
    const int64_t fw = desc.Width, fh = desc.Height;
    image_internal::check_image_size(count + 1, height, width, 3, 1, contents.size(), source,
                                     "GIF");
    if (fw > 0 && fh > 0) {
      image_internal::check_image_size(1, fh, fw, 1, 1, contents.size(), source, "GIF frame");
    }
    raster.assign(static_cast<size_t>(std::max<int64_t>(fw, 0) * std::max<int64_t>(fh, 0)), 0);
    if (desc.Interlace) {
      static const int kOffset[] = {0, 4, 2, 1}, kJump[] = {8, 8, 4, 2};
      for (int pass = 0; pass < 4; ++pass) {
        for (int64_t y = kOffset[pass]; y < fh; y += kJump[pass]) {
          if (DGifGetLine(gif, raster.data() + y * fw, static_cast<int>(fw)) == GIF_ERROR) {
            gif_error();
          }
        }
      }
    } else {
      for (int64_t y = 0; y < fh; ++y) {
        if (DGifGetLine(gif, raster.data() + y * fw, static_cast<int>(fw)) == GIF_ERROR) {
          gif_error();
        }
      }
    }
    const ColorMapObject* map = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
    if (map == nullptr) bad(tfcc::internal::str_cat("frame ", count, " has no color map"));
    frames.resize(frame_bytes * static_cast<size_t>(count + 1), 0);  // frame 0 starts black
    unsigned char* dst = frames.data() + frame_bytes * static_cast<size_t>(count);
    if (count > 0) std::memcpy(dst, dst - frame_bytes, frame_bytes);
    const int64_t top = std::max<int64_t>(desc.Top, 0), left = std::max<int64_t>(desc.Left, 0);
    const int64_t bottom = std::min<int64_t>(int64_t{desc.Top} + fh, height);
    const int64_t right = std::min<int64_t>(int64_t{desc.Left} + fw, width);
    for (int64_t y = top; y < bottom; ++y) {
      for (int64_t x = left; x < right; ++x) {
        const int index = raster[static_cast<size_t>((y - desc.Top) * fw + (x - desc.Left))];
        if (index == transparent) continue;
        if (index >= map->ColorCount) {
          bad(tfcc::internal::str_cat("frame ", count, " uses color index ", index,
                                      " outside its color map of ", map->ColorCount));
        }
        const GifColorType& color = map->Colors[index];
        unsigned char* p = dst + (y * width + x) * 3;
        p[0] = color.Red;
        p[1] = color.Green;
        p[2] = color.Blue;
      }
    }
    transparent = NO_TRANSPARENT_COLOR;
    ++count;
  }
  if (count == 0) bad("it holds no image");
  return Tensor::from_bytes(uint8, Shape{count, height, width, 3}, frames.data(), frames.size());
}

Tensor decode_gif(const Tensor& contents) {
  return decode_gif(image_internal::tensor_view(contents, "decode_gif"));
}

}  // namespace tfcc::io
