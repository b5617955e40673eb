// What libtfcc.so exports. A shared build (-DBUILD_SHARED_LIBS=ON) compiles the library with
// -fvisibility=hidden -fvisibility-inlines-hidden, so only what is marked is visible to programs:
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
// static build (the default) exports everything, as archives do; these marks change nothing there.
#pragma once

#if defined(__GNUC__)
/// Exports one declaration from libtfcc.so (see above).
#define TFCC_API __attribute__((visibility("default")))
#else
#define TFCC_API
#endif
