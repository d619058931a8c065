#include "smd/program/table_writer.h"

#include "smd/program/smp_failure.h"

namespace smd {

namespace {

// Writes handed to the transport ahead of their answers. Above the transport's window (mad.window, at
// most 64), so the window refills from the transport's own queue the moment an answer frees a slot; far
// below a plan's size (a first bring-up of 1728 hosts arms 10,000 ports), so a plan is not copied whole
// into that queue.
constexpr std::size_t kAhead = 128;

class PlanSender {
 public:
  PlanSender(SmpBatch& batch, const std::vector<TableWrite>& plan, WriteRecorder& recorder,
             std::vector<SweepProblem>& problems)
      : batch_(batch), plan_(plan), recorder_(recorder), problems_(problems) {}

  WriteReport run() {
    fill();
    batch_.wait();
    return report_;
  }

 private:
  // Iterative even when the transport answers inside submit() (a failed send): a fill() reached from
  // an answer given during another fill() leaves the sending to the loop already running.
  void fill() {
    if (filling_) return;
    filling_ = true;
    while (next_ < plan_.size() && batch_.outstanding() < kAhead) send(next_++);
    filling_ = false;
  }

  void send(std::size_t i) {
    ++report_.sent;
    batch_.submit(plan_[i].request, [this, i](const mad::SmpReply& r) {
      answered(plan_[i], i, r);
      fill();
    });
  }

  void answered(const TableWrite& w, std::size_t i, const mad::SmpReply& r) {
    // A Set that moves a port's state is not idempotent: its caller reads the port back before a failure
    // counts. An answer that does not show the LID is a problem all the same.
    const bool read_back = w.echo == EchoRule::kPortState || w.echo == EchoRule::kPortLidLmcArmed;
    const bool reported = w.echo != EchoRule::kPortState;
    if (r.outcome != mad::SmpOutcome::kOk) {
      ++report_.failed;
      report_.failures.emplace_back(i, r);
      recorder_.unanswered(w);
      if (!read_back) {
        problems_.push_back(
            {failure_code(r), w.guid, w.request.path.to_string(), describe_write(w), mad::describe_failure(r)});
      }
      return;
    }
    const bool believed = echoed(w, r.data);
    recorder_.answered(w, r.data, believed);
    if (believed) {
      ++report_.believed;
      return;
    }
    ++report_.not_echoed;
    if (reported) {
      problems_.push_back({ProblemCode::kNotTaken, w.guid, w.request.path.to_string(), describe_write(w),
                           not_echoed_reason(w, r.data)});
    }
  }

  SmpBatch& batch_;
  const std::vector<TableWrite>& plan_;
  WriteRecorder& recorder_;
  std::vector<SweepProblem>& problems_;
  WriteReport report_;
  std::size_t next_ = 0;
  bool filling_ = false;
};

}  // namespace

WriteReport write_plan(SmpBatch& batch, const std::vector<TableWrite>& plan, WriteRecorder& recorder,
                       std::vector<SweepProblem>& problems) {
  return PlanSender(batch, plan, recorder, problems).run();
}

}  // namespace smd
