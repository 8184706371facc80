// The reports are built by the reports library (reports/reports.h); the
// command line's names for what it shares with the other commands.
#pragma once

#include "reports/reports.h"

namespace adjutant::cli {

using reports::EndOfTurn;
using reports::PlayerReportText;
using reports::RenderPlayerReports;

}  // namespace adjutant::cli
