#pragma once
// Python values to the text `--set name=value` takes, so a value from Python is checked by the
// same parser and range check, and an error names it as Python wrote it; and Python values to
// the whole numbers and names the calls take. Booleans are refused wherever a number is
// expected (Python's True is an int of 1, which would otherwise pass as one).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::app::py {

namespace detail {

inline std::string type_name(const pybind11::handle& value) {
    return Py_TYPE(value.ptr())->tp_name;
}

// True for Python's bool and numpy's (numpy.bool_, numpy.bool).
inline bool is_bool(const pybind11::handle& value) {
    if (PyBool_Check(value.ptr())) return true;
    const std::string t = type_name(value);
    return t == "numpy.bool_" || t == "numpy.bool";
}

// A numpy scalar or 0-d array as the Python scalar it holds (its .item()); any other value as
// it is. An array of more than one number is refused: `what` is one number.
inline pybind11::object scalar_of(const pybind11::handle& value, const std::string& what) {
    namespace pyb = pybind11;
    auto object = pyb::reinterpret_borrow<pyb::object>(value);
    if (!pyb::hasattr(value, "dtype") || !pyb::hasattr(value, "ndim") ||
        !pyb::hasattr(value, "item"))
        return object;
    const int ndim = pyb::getattr(value, "ndim").cast<int>();
    PLAB_REQUIRE(ndim == 0, what + ": an array of shape " +
                                pyb::str(pyb::getattr(value, "shape")).cast<std::string>() +
                                " is not one number");
    return object.attr("item")();
}

// The value as Python writes it, with its type when that is not plain bool, int or float.
inline std::string shown(const pybind11::handle& value, const std::string& original_type) {
    const std::string text = pybind11::repr(value).cast<std::string>();
    if (original_type == "bool" || original_type == "int" || original_type == "float") return text;
    return text + " (" + original_type + ")";
}

}  // namespace detail

// A str as it is; an integer (int, numpy integer, a 0-d integer array) as its decimal digits;
// any other real number (float, numpy float, a 0-d float array, anything float() takes) as the
// shortest text that reads back as the same double (Python's repr of float(value)). Throws
// plab::Error naming `name` for a bool, an array of several numbers or a value of a type that
// is no number.
inline std::string value_text(const pybind11::handle& value, const std::string& name) {
    namespace pyb = pybind11;
    if (pyb::isinstance<pyb::str>(value)) return value.cast<std::string>();
    const std::string original_type = detail::type_name(value);
    const pyb::object v = detail::scalar_of(value, name);
    PLAB_REQUIRE(!detail::is_bool(v),
                 name + ": " + detail::shown(v, original_type) + " is a bool, not a number");
    if (PyIndex_Check(v.ptr())) {
        if (PyObject* index = PyNumber_Index(v.ptr()))
            return pyb::str(pyb::reinterpret_steal<pyb::object>(index));
        PyErr_Clear();  // e.g. a float that offers __index__ only to refuse it
    }
    // float() reads bytes as text (float(b'1') is 1.0): they are no number.
    PLAB_REQUIRE(!PyBytes_Check(v.ptr()) && !PyByteArray_Check(v.ptr()),
                 name + ": a value of type '" + original_type + "' is not a number");
    if (PyObject* number = PyNumber_Float(v.ptr()))
        return pyb::repr(pyb::reinterpret_steal<pyb::object>(number));
    PyErr_Clear();
    throw Error(name + ": a value of type '" + original_type + "' is not a number");
}

// A whole number (int, numpy integer, a 0-d integer array) in [lo, hi]. Throws plab::Error
// naming `what` for a bool, a float, any other type or a value out of range.
inline std::int64_t whole_number(const pybind11::handle& value, const std::string& what,
                                 std::int64_t lo, std::int64_t hi) {
    namespace pyb = pybind11;
    const std::string original_type = detail::type_name(value);
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    const pyb::object v = detail::scalar_of(value, what);
    PLAB_REQUIRE(!detail::is_bool(v), what + " must be a whole number in " + range + "; " +
                                          detail::shown(v, original_type) + " is a bool");
    PyObject* index = PyIndex_Check(v.ptr()) ? PyNumber_Index(v.ptr()) : nullptr;
    if (!index) {
        PyErr_Clear();
        throw Error(what + " must be a whole number in " + range + ", not " +
                    detail::shown(v, original_type));
    }
    const auto number = pyb::reinterpret_steal<pyb::object>(index);
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    if (overflow != 0 || n < lo || n > hi)
        throw Error(what + " must be a whole number in " + range + ", not " +
                    pyb::str(number).cast<std::string>());
    return n;
}

// A finite real number (int, float, numpy scalar, a 0-d array) in [lo, hi]. Throws
// plab::Error naming `what` and the range for a bool, NaN, any other type or a value out of
// range; `unit` follows the range in the message.
inline double real_number(const pybind11::handle& value, const std::string& what, double lo,
                          double hi, const std::string& unit) {
    namespace pyb = pybind11;
    const std::string original_type = detail::type_name(value);
    const std::string range = sim::format_numbers("[%g, %g]", lo, hi) + " " + unit;
    const pyb::object v = detail::scalar_of(value, what);
    PLAB_REQUIRE(!detail::is_bool(v), what + " must be a number in " + range + "; " +
                                          detail::shown(v, original_type) + " is a bool");
    // float() also reads text ('1.5', b'1'): a str or bytes is no number here.
    const bool text =
        PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr()) || PyByteArray_Check(v.ptr());
    PyObject* number = text ? nullptr : PyNumber_Float(v.ptr());
    if (!number) {
        PyErr_Clear();
        throw Error(what + " must be a number in " + range + ", not a value of type '" +
                    original_type + "'");
    }
    const double x = PyFloat_AsDouble(number);
    Py_DECREF(number);
    PLAB_REQUIRE(x >= lo && x <= hi,
                 what + " must be a number in " + range + ", not " + sim::format_numbers("%g", x));
    return x;
}

}  // namespace plab::app::py
