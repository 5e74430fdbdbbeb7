// What the device and the host were doing, as interval sets built once per
// trace; the per-step metrics, gaps and health numbers are all intersections
// of these with windows.
//
// The compute timeline is the device's work when the trace has device work.
// A CPU-only profile (the model computes on the host) uses its framework
// operators as the compute timeline instead, leaving out the operators that
// run inside data loading (they prepare input, they do not train) — so the
// same gap and stall analysis applies to both.
#pragma once

#include "perfdx/analysis/interval_set.h"
#include "perfdx/model/trace.h"

namespace perfdx::analysis {

struct Activity {
  bool cpu_only = false;  // no device work in the trace

  // Device side (empty for CPU-only traces).
  IntervalSet device_compute;        // compute kernels / AI Core tasks
  IntervalSet device_communication;  // collectives (NCCL kernels, HCCL ops)
  IntervalSet device_memcpy;         // all copies
  IntervalSet device_memcpy_h2d_pageable;
  IntervalSet device_memcpy_h2d_pinned;
  IntervalSet device_memset;
  IntervalSet device_busy;  // union of all of the above

  // What "the accelerator is working" means for this trace (device_busy, or
  // the host's training operators for a CPU-only trace, its collectives and
  // what runs inside them left out).
  IntervalSet compute_timeline;
  // Collectives: device_communication, or for a CPU-only trace the host's
  // collective calls (a gloo process group runs them on the CPU).
  IntervalSet communication;

  // Host side, over all host threads.
  IntervalSet host_framework;   // framework operators
  IntervalSet host_runtime;     // runtime / driver / task-queue calls
  IntervalSet host_dataloader;  // DataLoader iteration
  IntervalSet host_sync;        // calls that block on the device (see IsSyncCall)
  IntervalSet host_optimizer;   // optimizer.step() (record_function or torch/optim frames)
  IntervalSet host_any;         // any traced host slice (excluding step markers)

  // Derived, for the health metrics (metrics.md has the definitions).
  IntervalSet framework_overhead;  // host in framework/runtime code, compute idle, not loading data
  IntervalSet dataloader_stall;    // host loading data, compute idle
  IntervalSet communication_exposed;  // communication with no compute running

  IntervalSet device_memcpy_d2d;  // device-to-device copies (part of device_memcpy)
};

Activity BuildActivity(const model::Trace& trace);

// Host calls that wait for the device: aten::item, aten::_local_scalar_dense,
// cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, the
// synchronous cudaMemcpy, aclrtSynchronizeStream / aclrtSynchronizeDevice.
bool IsSyncCall(std::string_view name);

// Host calls that are collectives of a CPU backend or of the c10d
// dispatcher: gloo:all_reduce, gloo:broadcast, ... (ProcessGroupGloo's
// record_function names), c10d::allreduce_, c10d::broadcast_, ... and
// record_param_comms. Exact names.
bool IsHostCollectiveName(std::string_view name);

// optimizer.step(): Kineto's "Optimizer.step#SGD.step" annotation, or a
// Python frame in torch/optim/.
bool IsOptimizerStep(std::string_view name);

// Is slice i (a framework op) nested inside a data-loading slice?
bool InsideDataLoading(const model::Trace& trace, model::SliceId i);

}  // namespace perfdx::analysis
