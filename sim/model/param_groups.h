#pragma once
// How the panel (and anyone listing parameters) groups the parameter table, and which of them
// the running model and contact law actually read. A parameter the run does not read is still
// editable (a later switch of law or model will read it) but is shown apart, with the reason.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/enum_names.h"
#include "sim/model/params.h"

namespace plab::sim {

enum class ParamGroup { Time, Material, Contact, Liquid, Gravity, Geometry };

// time, material, contact, liquid, gravity, geometry: in the panel's order.
std::span<const EnumName<ParamGroup>> param_group_names();
// The group's heading in the panel ("Time and neighbours", ...).
std::string_view param_group_title(ParamGroup group);

// The group of a row of param_table(); every row has one.
ParamGroup param_group(const ParamInfo& info);

// "" when a run with `p` reads `info`; else why it does not, naming what would read it
// ("only the frictional contact law reads it; this run's law is classic").
std::string param_unused_reason(const ParamInfo& info, const Params& p);

struct UnusedParam {
    const ParamInfo* info;
    std::string reason;
};

// One group's rows for a run with `p`, in the panel's order: those it reads and those it does
// not.
struct ParamGroupRows {
    ParamGroup group;
    std::vector<const ParamInfo*> used;
    std::vector<UnusedParam> unused;
};

// Every group (in ParamGroup's order, which param_group_names() follows) with its rows; each
// table row appears once.
std::vector<ParamGroupRows> grouped_params(const Params& p);

}  // namespace plab::sim
