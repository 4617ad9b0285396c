#pragma once
// `particle-lab --list-params` and `--list-variants`: the two tables every surface is built
// from, printed with their units, ranges, defaults and where each entry applies; and
// `--list-scenes`: the shipped scene files this program finds (app/lab/scene_dirs.h).
#include <iosfwd>

namespace CLI {
class App;
}

namespace plab::app {

void print_param_table(std::ostream& out);
void print_variant_table(std::ostream& out);
// The folder the scene files were found in, then one line per file: name, model and the path.
void print_scene_list(std::ostream& out);

class TableListing {
  public:
    explicit TableListing(CLI::App& top);
    bool chosen() const { return params_ || variants_ || scenes_; }
    int run(std::ostream& out) const;

  private:
    bool params_ = false, variants_ = false, scenes_ = false;
};

}  // namespace plab::app
