// The typed view of a results file (issue 47; the one view since issue 61 deleted the JSON one, ResultsView)
// (results_document.hpp) instead of the file's JSON. The host's facts (context.machine as HostFacts), the targets
// measured (context.targets, the CPU first, synthesized from the host's facts when not listed: ordered_targets) and
// each target's part of the document: its benchmark entries and roofline records alone, or the document itself when
// it holds nothing of another target (every file before targets), so the CPU's part of such a file is exactly the
// file. Its rules are results_view.hpp's free functions (ordered_targets, the target facts' reader); the
// report and the advertised comparison read through it, so that no renderer says which target is the CPU.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_view.hpp"  // HostFacts, TargetView

namespace roofline {

// context.machine as the analysis reads it (host_facts_from_machine's rules over the typed record).
HostFacts host_facts(const ResultsContext& context);

class DocumentView {
 public:
  // `doc` must outlive the view.
  explicit DocumentView(const ResultsDocument& doc);
  DocumentView(const ResultsDocument&&) = delete;

  [[nodiscard]] const HostFacts& host() const { return host_; }
  [[nodiscard]] const std::vector<TargetView>& targets() const { return targets_; }
  // The target of that id, or nullptr.
  [[nodiscard]] const TargetView* target(const std::string& id) const;
  // The targets after the host's, in the file's order.
  [[nodiscard]] std::span<const TargetView> devices() const { return std::span(targets_).subspan(1); }
  [[nodiscard]] bool has_entries(const std::string& target) const { return entry_counts_.count(target) > 0; }
  // The target's entries and roofline records alone (the whole document when it holds one target only).
  [[nodiscard]] const ResultsDocument& target_document(const std::string& target) const;
  [[nodiscard]] const ResultsDocument& host_document() const { return target_document(targets_.front().id); }

 private:
  const ResultsDocument* doc_;
  HostFacts host_;
  std::vector<TargetView> targets_;
  std::map<std::string, std::size_t> entry_counts_;
  std::map<std::string, ResultsDocument> restricted_;
};

}  // namespace roofline
