// The typed results view of the report (issue 47): results_view.hpp's ResultsView over the typed model instead of
// the file's JSON. The host's facts (context.machine as HostFacts), the targets measured (context.targets, the CPU
// first, synthesized from the host's facts when not listed) and each target's part of the document: its benchmark
// entries and roofline records alone, the document itself when it holds nothing of another target (every file
// before targets), so the CPU's report of such a file is exactly what it was. Private to roofline::report; it
// follows ResultsView's rules one for one, and belongs in the model once the model's readers are typed.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/results_view.hpp"  // HostFacts, TargetView, kCpuTargetId

namespace roofline::report_detail {

// context.machine as the analysis reads it (host_facts_from_machine's rules over the typed record).
HostFacts host_facts(const ResultsContext& context);

// Which target an entry or a record belongs to: the model's target_of (results_targets.hpp), one rule for both views.

class ReportView {
 public:
  // `doc` must outlive the view.
  explicit ReportView(const ResultsDocument& doc);
  ReportView(const ResultsDocument&&) = delete;

  [[nodiscard]] const HostFacts& host() const { return host_; }
  [[nodiscard]] const std::vector<TargetView>& targets() const { return targets_; }
  // The targets after the host's, in the file's order.
  [[nodiscard]] std::span<const TargetView> devices() const { return std::span(targets_).subspan(1); }
  [[nodiscard]] bool has_entries(const std::string& target) const { return entry_counts_.count(target) > 0; }
  [[nodiscard]] const ResultsDocument& target_document(const std::string& target) const;
  [[nodiscard]] const ResultsDocument& host_document() const { return target_document(targets_.front().id); }

 private:
  const ResultsDocument* doc_;
  HostFacts host_;
  std::vector<TargetView> targets_;
  std::map<std::string, std::size_t> entry_counts_;
  std::map<std::string, ResultsDocument> restricted_;
};

}  // namespace roofline::report_detail
