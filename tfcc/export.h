// What libtfcc.so exports. The library is compiled with -fvisibility=hidden
// -fvisibility-inlines-hidden, so only what is marked is visible to programs of a shared build
// (-DBUILD_SHARED_LIBS=ON):
//   - every declaration in a public header (tfcc/tfcc.h and the headers it includes, the ones
//     `cmake --install` installs), each of which opens and closes an export region:
//
//       #pragma once
//       #pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)
//       ...includes, declarations...
//       #pragma GCC visibility pop
//
//     so a new class or function in a public header needs nothing more, and a new public header
//     needs those two lines (the public_headers_export test names a header that lacks them);
//   - a single declaration in an internal header that a tool must reach, marked TFCC_API:
//
//       TFCC_API int internal_helper();          class TFCC_API Helper { ... };
//
// Everything else (kernels, the op registry, the executor, ...) stays inside the library. The
// static build (the default) compiles the same way, but an archive's objects are linked into the
// program whatever their visibility, so there these marks change nothing a program sees.
#pragma once

#if defined(__GNUC__)
/// Exports one declaration from libtfcc.so (see above).
#define TFCC_API __attribute__((visibility("default")))
#else
#define TFCC_API
#endif
