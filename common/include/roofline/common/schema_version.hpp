// The results file's schema version (context.schema_version, roofline.schema_version): written by the measuring
// side (bench/harness's run context), checked by every reader (analysis/model's results.hpp). One constant below both
// (issue 47: moved from analysis/model's results.hpp).
#pragma once

namespace roofline {

inline constexpr int kSchemaVersion = 1;

}  // namespace roofline
