// What the derivations' json overloads read (issue 61, step 3): a hand-made document of the tests taken as the
// lenient typed reader takes a file, without the schema's validation (a fragment without a context or a roofline
// section derives as it did). The derivations themselves read the typed document; these overloads go when the
// tests hand them typed documents. Private to roofline::model.
#pragma once

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"

namespace roofline {

ResultsDocument derivation_input(const nlohmann::json& results);

}  // namespace roofline
