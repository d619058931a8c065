// The collectives of collectives.h on multi-HCA hosts (rail_layout.h): what NCCL puts on the fabric when a
// job runs on H whole hosts of R HCAs, one rank per GPU and one GPU per HCA (n = H x R ranks, rank
// h x R + i on host h's rail-i HCA).
//
// Traffic between the ranks of one host goes over NVLink and is free here: it never touches the fabric,
// and NVLink's bandwidth (450-900 GB/s per GPU) is many times an HCA's. What is left on the fabric:
//   ring collectives  NCCL builds one ring per NIC (channel), each entering and leaving every host through
//                     the same rail, so the only cable hop of ring i is host h's rail-i HCA -> host h+1's
//                     rail-i HCA (mod H). Each ring carries S/R of the buffer over n ranks: all-reduce is
//                     2(n-1) steps of S/(R n) per inter-host flow, all-gather / reduce-scatter n-1 steps.
//                     All R rings run at once, so a phase holds H x R flows, one per HCA.
//   tree all-reduce   NCCL's inter-node double binary tree over the hosts, one per NIC: the tree of
//                     collectives.h over the hosts on every rail at once, S/(2R) per flow.
//   all-to-all        NCCL >= 2.12 with PXN (PCI x NVLink, on by default: NVIDIA technical blog "Doubling
//                     all2all Performance with NVIDIA Collective Communication Library 2.12", 2022): a GPU
//                     hands a message for rank (h', i) over NVLink to the GPU of its own host on rail i,
//                     whose NIC sends the R messages of the host for (h', i) together. The cable flows are
//                     therefore the all-to-all among hosts within each rail: H(H-1) R flows of R S / n.
//                     (Without PXN each GPU would send through its own NIC across rails: more flows through
//                     the spines, not what NCCL does by default.)
//   moe all-to-all:G  the same within expert groups of G consecutive ranks; G must be a multiple of R
//                     (groups of whole hosts: G/R hosts a group, flows of R S / G), or at most R and a
//                     divisor of R (every group inside one host: nothing on the fabric, no phases).
//   pipeline          pipeline stages are hosts (tensor parallelism inside, over NVLink): GPU i of host h
//                     sends S to GPU i of host h+1, rail to rail.
// The ideal time (collective_eval.h: the most flows a host cable carries) counts HCA cables, so a ring's
// ideal bus bandwidth is R x line rate: a GPU's busBw as NCCL reports it on such hosts, where the R NICs
// of a host carry the ring's inter-host hops together (nccl-tests on 8-NIC hosts report busBw near 8x one
// NIC's rate).
#pragma once

#include <cstdint>
#include <span>

#include "routing/base/status.h"
#include "routing/roce/collectives.h"
#include "routing/roce/rail_layout.h"

namespace smd::roce {

/// The collective `spec` of a job on `hosts` (indices into layout, in rank order) with the fabric flows
/// above; ranks = hosts x rails, bus_factor over those ranks. An empty `phases` means every flow stays
/// inside a host. Errors: kInvalidInput for fewer than 2 hosts, a host twice, or moe:G with G neither a
/// multiple of R nor a divisor of R.
Result<Collective> make_rail_collective(const CollectiveSpec& spec, const RailLayout& layout,
                                        std::span<const std::uint32_t> hosts);

}  // namespace smd::roce
