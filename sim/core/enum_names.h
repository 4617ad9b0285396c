#pragma once
// One name table per enum, and the four things every front end asks of it: the name of a
// value, the value of a name (with an error that lists the names), the names joined for a help
// text, and the names one after another (a CLI check, a combo box).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.h"

namespace plab::sim {

template <typename E>
struct EnumName {
    E value;
    std::string_view name;
};

// "?" for a value the table lacks (a table missing a row is a bug, not an input error).
template <typename E>
std::string_view enum_name(std::span<const EnumName<E>> table, E value) {
    for (const auto& row : table)
        if (row.value == value) return row.name;
    return "?";
}

// "a, b or c"; with `last` = ", ", "a, b, c".
inline std::string choice_list(std::span<const std::string_view> names,
                               std::string_view last = " or ") {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
        s += std::string(i == 0 ? "" : i + 1 == names.size() ? last : ", ") + std::string(names[i]);
    return s;
}

template <typename E>
std::string enum_choices(std::span<const EnumName<E>> table, std::string_view last = " or ") {
    std::vector<std::string_view> names;
    for (const auto& row : table) names.push_back(row.name);
    return choice_list(names, last);
}

template <typename E>
std::vector<std::string> enum_names(std::span<const EnumName<E>> table) {
    std::vector<std::string> names;
    for (const auto& row : table) names.emplace_back(row.name);
    return names;
}

// The value named `name`; nothing for a name the table lacks.
template <typename E>
std::optional<E> find_enum(std::span<const EnumName<E>> table, std::string_view name) {
    for (const auto& row : table)
        if (row.name == name) return row.value;
    return std::nullopt;
}

// Throws plab::Error "unknown <what> '<name>'; use <choices>".
template <typename E>
E parse_enum(std::span<const EnumName<E>> table, std::string_view name, std::string_view what) {
    if (const std::optional<E> value = find_enum(table, name)) return *value;
    throw Error("unknown " + std::string(what) + " '" + std::string(name) + "'; use " +
                enum_choices(table));
}

}  // namespace plab::sim
