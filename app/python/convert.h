#pragma once
// Python values to the text `--set name=value` takes, so a value from Python is checked by the
// same parser and range check, and an error names it as Python wrote it.
#include <pybind11/pybind11.h>

#include <string>

namespace plab::app::py {

// A str as it is; an integer (int, numpy integer) as its decimal digits; any other number as
// the shortest text that reads back as the same double (Python's repr of float(value)).
inline std::string value_text(const pybind11::handle& value) {
    namespace pyb = pybind11;
    if (pyb::isinstance<pyb::str>(value)) return value.cast<std::string>();
    if (PyIndex_Check(value.ptr()) && !PyBool_Check(value.ptr()))
        return pyb::str(pyb::reinterpret_steal<pyb::object>(PyNumber_Index(value.ptr())));
    return pyb::repr(pyb::float_(pyb::reinterpret_borrow<pyb::object>(value)));
}

}  // namespace plab::app::py
