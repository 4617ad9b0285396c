#include "app/viewer/session_export.h"

#include "app/lab/export_series.h"
#include "sim/core/error.h"

namespace plab::app {

std::filesystem::path export_session_frame(sim::Run& session, const std::string& folder) {
    PLAB_REQUIRE(!folder.empty(), "export: no folder given");
    // A series per click, read back from the folder: the app keeps no export state, and a
    // folder filled by an earlier run (or another app) is continued, not overwritten.
    ExportSeries series(folder, ExportSeries::Mode::Append);
    const std::filesystem::path frame =
        series.write(session.simulator().download(), session.params(), session.time());
    series.finish();
    return frame;
}

}  // namespace plab::app
