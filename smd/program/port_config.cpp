#include "smd/program/port_config.h"

#include <algorithm>
#include <string>

#include "mad/codec/port_info.h"
#include "smd/program/port_fields_plan.h"
#include "smd/program/port_plan.h"
#include "smd/program/smp_failure.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// A PortInfo answer into the sweep's view: always for a state transition (the answer is the state the
// port is in, whatever it is), only when echoed for the LID Set (a port that did not take its LID keeps
// what discovery read, and the problem says so).
// With `fields`, the Sets carry the SM-owned fields (endports, switch port fields) and what each believed
// one carried and got back is remembered for the next sweeps' diff (applied_port_fields.h); the state
// transitions carry back what the port reported and are not remembered.
class PortRecorder final : public WriteRecorder {
 public:
  PortRecorder(SweepFabric& fabric, unsigned& ok, std::vector<Guid>* reregistered = nullptr,
               AppliedPortFields* fields = nullptr)
      : fabric_(fabric), ok_(ok), reregistered_(reregistered), fields_(fields) {}
  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override {
    if (believed) ++ok_;
    if (believed && fields_ != nullptr) {
      fields_->record(w.guid, w.port, mad::PortInfo::decode(w.request.data), mad::PortInfo::decode(reply));
    }
    if (believed && reregistered_ != nullptr && mad::PortInfo::decode(w.request.data).client_reregister) {
      reregistered_->push_back(fabric_.topo().node(w.node).ports[w.port].guid);
    }
    if (believed || w.echo == EchoRule::kPortState)
      fabric_.acknowledge_port(w.node, w.port, mad::PortInfo::decode(reply));
  }
  void unanswered(const TableWrite&) override {}

 private:
  SweepFabric& fabric_;
  unsigned& ok_;
  std::vector<Guid>* reregistered_;
  AppliedPortFields* fields_;
};

// A transition Set that did not end kOk: read the port to learn what it did.
struct Unsure {
  NodeIndex node;
  PortNum port;
  std::string failure;
};

void read_back_states(SmpBatch& batch, SweepFabric& fabric, const std::vector<Unsure>& unsure, PortState to,
                      PhaseCounts& counts, std::vector<SweepProblem>& problems) {
  const Topology& topo = fabric.topo();
  const std::string wanted = to_string(to);
  for (const Unsure& u : unsure) {
    ++counts.read_back;
    batch.submit(
        mad::smp_get(fabric.port_path(u.node, u.port), mad::attr::kPortInfo, fabric.port_info_mod(u.node, u.port)), [&, u](const mad::SmpReply& r) {
          const Guid guid = topo.node(u.node).guid;
          const std::string path = fabric.port_path(u.node, u.port).to_string();
          const std::string attribute = "PortInfo Set " + std::to_string(u.port) + " " + wanted;
          if (r.outcome != mad::SmpOutcome::kOk) {
            fabric.forget_port(u.node, u.port);
            problems.push_back(
                {failure_code(r), guid, path, attribute, u.failure + "; read-back " + mad::describe_failure(r)});
            return;
          }
          const auto pi = mad::PortInfo::decode(r.data);
          fabric.acknowledge_port(u.node, u.port, pi);
          if (pi.port_state == static_cast<std::uint8_t>(to)) {
            ++counts.ok;  // done; only its answer was lost
            return;
          }
          problems.push_back(
              {ProblemCode::kNotActive, guid, path, attribute,
               u.failure + "; port is " + to_string(static_cast<PortState>(std::min<unsigned>(pi.port_state, 4)))});
        });
  }
  batch.wait();
}

// Endport Sets that also armed their port (EchoRule::kPortLidLmcArmed) and did not end kOk: the first
// attempt may have been carried out with its answer lost, and then the retry is refused (the port is
// Armed already). Read back, such a Set was done when the port shows its LID and LMC and has left Init.
void read_back_endports(SmpBatch& batch, SweepFabric& fabric, const std::vector<TableWrite>& writes,
                        const WriteReport& report, PhaseCounts& counts, std::vector<SweepProblem>& problems,
                        std::vector<Guid>* reregistered) {
  const Topology& topo = fabric.topo();
  for (const auto& entry : report.failures) {
    const auto i = entry.first;  // not a binding: the answer's lambda captures it (clang < 16 cannot)
    const auto& failure = entry.second;
    const TableWrite& w = writes[i];
    if (w.echo != EchoRule::kPortLidLmcArmed) continue;
    ++counts.read_back;
    const std::string first = mad::describe_failure(failure);
    const ProblemCode code = failure_code(failure);
    batch.submit(mad::smp_get(fabric.port_path(w.node, w.port), mad::attr::kPortInfo, w.request.attr_mod),
                 [&, i, first, code](const mad::SmpReply& r) {
                   const TableWrite& tw = writes[i];
                   const std::string path = tw.request.path.to_string();
                   if (r.outcome != mad::SmpOutcome::kOk) {
                     problems.push_back(
                         {code, tw.guid, path, describe_write(tw), first + "; read-back " + mad::describe_failure(r)});
                     return;
                   }
                   const auto want = mad::PortInfo::decode(tw.request.data);
                   const auto pi = mad::PortInfo::decode(r.data);
                   fabric.acknowledge_port(tw.node, tw.port, pi);
                   if (pi.lid == want.lid && pi.lmc == want.lmc &&
                       pi.port_state != static_cast<std::uint8_t>(PortState::kInit)) {
                     ++counts.ok;  // done; only its answer was lost
                     if (reregistered != nullptr && want.client_reregister) {
                       reregistered->push_back(topo.node(tw.node).ports[tw.port].guid);
                     }
                     return;
                   }
                   problems.push_back({code, tw.guid, path, describe_write(tw),
                                       first + "; read-back shows LID " + std::to_string(pi.lid)});
                 });
  }
  batch.wait();
}

}  // namespace

PhaseCounts configure_endports(SmpBatch& batch, SweepFabric& fabric, const LidMap& lids, const EndportSettings& want,
                               AppliedPortFields& fields, std::vector<SweepProblem>& problems,
                               std::vector<Guid>* reregistered, const ArmCaPorts* arm) {
  PhaseCounts counts;
  const PortPlan plan = plan_endports(fabric, lids, want, arm, &fields);
  counts.skipped = plan.skipped;
  PortRecorder recorder(fabric, counts.ok, reregistered, &fields);
  const WriteReport report = write_plan(batch, plan.writes, recorder, problems);
  counts.sets = report.sent;
  read_back_endports(batch, fabric, plan.writes, report, counts, problems, reregistered);
  return counts;
}

PhaseCounts configure_switch_port_fields(SmpBatch& batch, SweepFabric& fabric, const PortFieldSettings& settings,
                                         AppliedPortFields& fields, std::vector<SweepProblem>& problems) {
  PhaseCounts counts;
  const PortPlan plan = plan_switch_port_fields(fabric, settings, fields);
  counts.skipped = plan.skipped;
  PortRecorder recorder(fabric, counts.ok, nullptr, &fields);
  counts.sets = write_plan(batch, plan.writes, recorder, problems).sent;
  return counts;
}

PhaseCounts transition_links(SmpBatch& batch, SweepFabric& fabric, PortState from, PortState to,
                             std::vector<SweepProblem>& problems, const QosSpec* qos) {
  PhaseCounts counts;
  const PortPlan plan = plan_link_transitions(fabric, from, to, qos);
  counts.skipped = plan.skipped;
  PortRecorder recorder(fabric, counts.ok);
  const WriteReport report = write_plan(batch, plan.writes, recorder, problems);
  counts.sets = report.sent;
  std::vector<Unsure> unsure;
  for (const auto& [i, reply] : report.failures) {
    unsure.push_back({plan.writes[i].node, plan.writes[i].port, mad::describe_failure(reply)});
  }
  read_back_states(batch, fabric, unsure, to, counts, problems);
  return counts;
}

std::vector<SweepProblem> ports_not_active(const SweepFabric& fabric) {
  std::vector<SweepProblem> out;
  const Topology& topo = fabric.topo();
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      const std::string path = fabric.port_path(n, p).to_string();
      const std::string attribute = "PortState " + std::to_string(p);
      const mad::PortInfo* pi = fabric.port_info(n, p);
      if (pi == nullptr) {
        out.push_back({ProblemCode::kNotActive, node.guid, path, attribute, "PortInfo unread, state unknown"});
        continue;
      }
      if (pi->port_state != static_cast<std::uint8_t>(PortState::kActive)) {
        out.push_back(
            {ProblemCode::kNotActive, node.guid, path, attribute,
             std::string(to_string(static_cast<PortState>(std::min<unsigned>(pi->port_state, 4)))) + ", not Active"});
      }
    }
  }
  return out;
}

}  // namespace smd
