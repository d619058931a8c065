#include "smd/program/table_writer.h"

#include "smd/program/smp_failure.h"

namespace smd {

WriteReport write_plan(SmpBatch& batch, const std::vector<TableWrite>& plan, WriteRecorder& recorder,
                       std::vector<SweepProblem>& problems) {
  WriteReport report;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    ++report.sent;
    batch.submit(plan[i].request, [&, i](const mad::SmpReply& r) {
      const TableWrite& w = plan[i];
      const bool reported = w.echo != EchoRule::kPortState;
      if (r.outcome != mad::SmpOutcome::kOk) {
        ++report.failed;
        report.failures.emplace_back(i, r);
        recorder.unanswered(w);
        if (reported) {
          problems.push_back(
              {failure_code(r), w.guid, w.request.path.to_string(), describe_write(w), mad::describe_failure(r)});
        }
        return;
      }
      const bool believed = echoed(w, r.data);
      recorder.answered(w, r.data, believed);
      if (believed) {
        ++report.believed;
        return;
      }
      ++report.not_echoed;
      if (reported) {
        problems.push_back({ProblemCode::kNotTaken, w.guid, w.request.path.to_string(), describe_write(w),
                            not_echoed_reason(w, r.data)});
      }
    });
  }
  batch.wait();
  return report;
}

}  // namespace smd
