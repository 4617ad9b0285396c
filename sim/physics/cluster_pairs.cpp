#include "sim/physics/cluster_pairs.h"

namespace plab::sim {

uint32_t initial_cluster_slots(const Params& p) { return initial_list_slots(p); }

uint32_t grown_cluster_slots(uint32_t found) { return grown_list_slots(found); }

}  // namespace plab::sim
