#pragma once
// `particle-lab --list-params` and `--list-variants`: the two tables every surface is built
// from, printed with their units, ranges, defaults and where each entry applies.
#include <iosfwd>

namespace CLI {
class App;
}

namespace plab::app {

void print_param_table(std::ostream& out);
void print_variant_table(std::ostream& out);

class TableListing {
  public:
    explicit TableListing(CLI::App& top);
    bool chosen() const { return params_ || variants_; }
    int run(std::ostream& out) const;

  private:
    bool params_ = false, variants_ = false;
};

}  // namespace plab::app
