// Python's repr/str of a float (shortest round-trip digits; fixed notation for exponents in
// [-4, 16), else "1e-05" style), used where Keras prints or writes Python floats (CSVLogger rows,
// the learning-rate callbacks' messages).
#pragma once

#include <string>

namespace tfcc::keras::callbacks {

/// repr(x) of a Python float: "0.001", "1e-05", "2.0", "nan", "inf".
std::string python_float_repr(double x);
/// str() of a numpy float32 holding x (shortest digits that round-trip as float32).
std::string python_float32_repr(float x);

}  // namespace tfcc::keras::callbacks
