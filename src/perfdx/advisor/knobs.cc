#include "perfdx/advisor/knobs.h"

namespace perfdx::advisor {
namespace {

using enum FixTarget;

// Documentation pages the catalogue cites more than once.
constexpr std::string_view kTorchDataLoaderDoc =
    "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader";
constexpr std::string_view kTorchTuningGuide =
    "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html";
constexpr std::string_view kTorchDdpDoc =
    "https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html";
constexpr std::string_view kTorchCompileDoc =
    "https://pytorch.org/docs/stable/generated/torch.compile.html";
constexpr std::string_view kTorchCheckpointDoc = "https://pytorch.org/docs/stable/checkpoint.html";
constexpr std::string_view kPythonQueueHandlerDoc =
    "https://docs.python.org/3/library/logging.handlers.html#queuehandler";
constexpr std::string_view kHcclBuffsizeDoc =
    "https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/envvar/"
    "envref_07_0080.html";

// The same snippets serve torch_npu and CUDA PyTorch where the API is stock torch.
constexpr std::string_view kDataLoaderSnippet =
    "loader = DataLoader(dataset, batch_size=bs, num_workers=8, pin_memory=True,\n"
    "                    persistent_workers=True, prefetch_factor=2)";
constexpr std::string_view kAsyncLoggingText =
    "Log through a queue: QueueHandler only enqueues the record on the training thread and a "
    "QueueListener thread formats and writes it, so slow log I/O no longer stalls the step.";
constexpr std::string_view kAsyncLoggingSnippet =
    "import logging, logging.handlers, queue\n"
    "q = queue.SimpleQueue()\n"
    "listener = logging.handlers.QueueListener(q, logging.FileHandler(\"train.log\"))\n"
    "listener.start()  # call listener.stop() at exit to flush\n"
    "logging.getLogger().addHandler(logging.handlers.QueueHandler(q))";
constexpr std::string_view kHostSyncSnippet =
    "running = running + loss.detach()  # stays on the device, no sync\n"
    "if step % 100 == 0:\n"
    "    print(f\"loss {running.item() / 100:.4f}\")  # one sync per 100 steps\n"
    "    running.zero_()";
constexpr std::string_view kCheckpointSnippet =
    "from torch.utils.checkpoint import checkpoint\n"
    "h = checkpoint(block, h, use_reentrant=False)  # in forward(), per large block";
constexpr std::string_view kNoSyncSnippet =
    "for i, (x, y) in enumerate(loader):\n"
    "    last = (i + 1) % accum == 0\n"
    "    with contextlib.nullcontext() if last else ddp.no_sync():\n"
    "        (loss_fn(ddp(x), y) / accum).backward()\n"
    "    if last:\n"
    "        opt.step(); opt.zero_grad()";
constexpr std::string_view kPythonGcText =
    "Python's cyclic garbage collector stops the training thread while it runs; freeze the "
    "long-lived objects after setup and collect at a point you choose instead of inside the "
    "step.";
constexpr std::string_view kPythonGcSnippet =
    "import gc\n"
    "gc.freeze()   # after building the model: exempt long-lived objects\n"
    "gc.disable()  # no automatic collections inside the step ...\n"
    "# ... and in the loop: if step % 100 == 0: gc.collect()";
constexpr std::string_view kPythonGcDoc = "https://docs.python.org/3/library/gc.html";
constexpr std::string_view kLogLevelText =
    "Debug or info logging of CANN can slow training down by its log traffic; keep the "
    "default error level.";
constexpr std::string_view kLogLevelSnippet = "export ASCEND_GLOBAL_LOG_LEVEL=3  # ERROR";
constexpr std::string_view kLogLevelDoc =
    "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/envvar/"
    "envref_07_0122.html";
constexpr std::string_view kHcclAlgoText =
    "A fixed HCCL_ALGO turns off HCCL's adaptive choice of the inter-server algorithm by "
    "product, server count and data size; unset it unless a measurement shows the fixed "
    "algorithm faster.";
constexpr std::string_view kHcclAlgoSnippet = "unset HCCL_ALGO";
constexpr std::string_view kHcclAlgoDoc =
    "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/envvar/"
    "envref_07_0079.html";
constexpr std::string_view kNpuHealthText =
    "The AI Core clock dropped below its rated frequency: check the NPU's temperature, power "
    "and health while training (cooling, power capping).";
constexpr std::string_view kNpuHealthSnippet =
    "asys info -r=\"status\" -d=0  # temperature, health, AI Core state of device 0\n"
    "npu-smi info                 # power and temperature of every NPU";
constexpr std::string_view kNpuHealthDoc =
    "https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/maintenref/"
    "troubleshooting/troubleshooting_0503.html";
constexpr std::string_view kHcclBuffsizeText =
    "Size the HCCL buffer (default 200 MB per communicator) above the largest collective "
    "payload; collectives larger than the buffer may run slower. For LLMs the CANN guide "
    "suggests micro_batch * seq_len * hidden * dtype_bytes / 2^20 MB.";

}  // namespace

// Each entry: fix id, framework, what to change, a snippet, the page it comes
// from. Every knob was checked against that page (or, where a page is lacking,
// the framework's source); docs/recommendations.md lists the same catalogue
// with the verification notes, and knobs_test keeps the two in step.
const std::vector<Knob>& AllKnobs() {
  static const std::vector<Knob> kKnobs = {
      // --- data pipeline ------------------------------------------------------
      {"dataloader_parallel", kMindSpore,
       "Decode and augment in parallel: raise num_parallel_workers on the source dataset and on "
       "map(); python_multiprocessing=True runs Python transforms in processes, not threads.",
       "data = mindspore.dataset.GeneratorDataset(source, [\"image\", \"label\"],\n"
       "    num_parallel_workers=8, python_multiprocessing=True)\n"
       "data = data.map(operations=transforms, input_columns=\"image\", num_parallel_workers=8)",
       "https://mindspore.cn/docs/en/master/api_python/dataset/"
       "mindspore.dataset.GeneratorDataset.html"},
      {"dataloader_parallel", kTorchNpu,
       "torch_npu trains with the stock torch.utils.data.DataLoader: load batches in worker "
       "processes, keep them alive between epochs and prefetch ahead.",
       kDataLoaderSnippet, kTorchDataLoaderDoc},
      {"dataloader_parallel", kPytorchCuda,
       "Load and augment batches in worker processes, keep them alive between epochs and "
       "prefetch ahead.",
       kDataLoaderSnippet, kTorchDataLoaderDoc},

      {"pinned_memory", kTorchNpu,
       "Pin host batches and copy them asynchronously: torch_npu has a pinned host allocator, so "
       "pin_memory=True with non_blocking=True overlaps the host-to-device copy with compute.",
       "loader = DataLoader(dataset, batch_size=bs, num_workers=8, pin_memory=True)\n"
       "for x, y in loader:\n"
       "    x = x.to(\"npu\", non_blocking=True)\n"
       "    y = y.to(\"npu\", non_blocking=True)",
       "https://gitcode.com/ascend/pytorch/blob/master/test/allocator/test_hostallocator.py"},
      {"pinned_memory", kPytorchCuda,
       "Pin host batches and copy them asynchronously: copies from pinned memory are faster and "
       "non_blocking=True lets them overlap with compute.",
       "loader = DataLoader(dataset, batch_size=bs, num_workers=8, pin_memory=True)\n"
       "for x, y in loader:\n"
       "    x = x.to(\"cuda\", non_blocking=True)\n"
       "    y = y.to(\"cuda\", non_blocking=True)",
       "https://pytorch.org/docs/stable/notes/cuda.html#use-pinned-memory-buffers"},

      {"data_sinking", kMindSpore,
       "Sink the dataset to the device: data transfer and steps then run as a pipeline without a "
       "host round trip per step; sink_size sets the steps per sink (-1: the whole dataset).",
       "model.train(epochs, dataset, callbacks=callbacks,\n"
       "            dataset_sink_mode=True, sink_size=-1)",
       "https://www.mindspore.cn/docs/en/r2.4.1/model_train/train_process/optimize/"
       "sink_mode.html"},

      // --- host work on the step path -----------------------------------------
      {"avoid_host_sync", kMindSpore,
       "asnumpy() and print(tensor) copy a device tensor to the host and wait for the queued "
       "device work; read the loss every N steps (LossMonitor does) instead of every step.",
       "model.train(epochs, dataset, callbacks=[LossMonitor(per_print_times=100)])\n"
       "# custom loop: if step % 100 == 0: print(loss.asnumpy())",
       "https://www.mindspore.cn/docs/en/br_base/api_python/train/"
       "mindspore.train.LossMonitor.html"},
      {"avoid_host_sync", kTorchNpu,
       ".item(), print(tensor), .cpu() and Python branches on NPU tensors wait for the device "
       "queue to drain; keep metrics on the device and read them every N steps.",
       kHostSyncSnippet, kTorchTuningGuide},
      {"avoid_host_sync", kPytorchCuda,
       ".item(), print(tensor), .cpu(), nonzero() and Python branches on CUDA tensors "
       "synchronize; keep metrics on the device, read them every N steps, and find the "
       "remaining syncs with torch.cuda.set_sync_debug_mode(\"warn\").",
       kHostSyncSnippet, kTorchTuningGuide},

      {"async_logging", kMindSpore, kAsyncLoggingText, kAsyncLoggingSnippet,
       kPythonQueueHandlerDoc},
      {"async_logging", kTorchNpu, kAsyncLoggingText, kAsyncLoggingSnippet,
       kPythonQueueHandlerDoc},
      {"async_logging", kPytorchCuda, kAsyncLoggingText, kAsyncLoggingSnippet,
       kPythonQueueHandlerDoc},

      {"launch_blocking_off", kMindSpore,
       "Do not force synchronous execution outside debugging: remove "
       "mindspore.runtime.launch_blocking() (older releases: "
       "set_context(pynative_synchronize=True)).",
       "# delete: ms.runtime.launch_blocking()",
       "https://mindspore.cn/docs/en/master/api_python/runtime/"
       "mindspore.runtime.launch_blocking.html"},
      {"launch_blocking_off", kTorchNpu,
       "ASCEND_LAUNCH_BLOCKING=1 runs every operator synchronously and turns off the task queue; "
       "it is a debugging switch, unset it for training.",
       "unset ASCEND_LAUNCH_BLOCKING",
       "https://www.hiascend.com/document/detail/zh/Pytorch/600/apiref/Envvariables/"
       "Envir_006.html"},
      {"launch_blocking_off", kPytorchCuda,
       "CUDA_LAUNCH_BLOCKING=1 makes every kernel launch synchronous; it is a debugging switch, "
       "unset it for training.",
       "unset CUDA_LAUNCH_BLOCKING",
       "https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution"},

      {"cpu_binding", kMindSpore,
       "Turn on MindSpore's thread-level core binding: its main, runtime, PyNative and dataset "
       "threads get CPUs affine to the device and are not preempted (MindSpore 2.5+).",
       "import mindspore as ms\n"
       "ms.runtime.set_cpu_affinity(True)",
       "https://www.mindspore.cn/docs/zh-CN/r2.7.0/api_python/runtime/"
       "mindspore.runtime.set_cpu_affinity.html"},
      {"cpu_binding", kTorchNpu,
       "Bind each NPU process's threads to its own CPU cores (1: coarse, 2: fine-grained, main "
       "threads get a core each) so dispatch is not slowed by migration or contention.",
       "export CPU_AFFINITY_CONF=1\n"
       "# or per card: export CPU_AFFINITY_CONF=1,npu0:0-15,npu1:16-31",
       "https://www.hiascend.com/document/detail/en/mindstudio/830/practicalcases/"
       "GeneralPerformanceIssue/toolsample6_058.html"},
      {"cpu_binding", kPytorchCuda,
       "Run each rank on the CPU socket and memory node local to its GPU, so host threads and "
       "pinned buffers avoid remote-NUMA access.",
       "numactl --cpunodebind=0 --membind=0 python train.py  # node local to the GPU",
       "https://manpages.ubuntu.com/manpages/oracular/man8/numactl.8.html"},

      // --- compute efficiency ---------------------------------------------------
      {"mixed_precision", kMindSpore,
       "Train in float16/bfloat16 with the built-in lists: amp_level=\"O2\" casts all but "
       "BatchNorm-like cells and uses dynamic loss scaling.",
       "model = mindspore.train.Model(net, loss_fn, optimizer, amp_level=\"O2\")\n"
       "# custom loop: net = mindspore.amp.auto_mixed_precision(net, amp_level=\"O2\")",
       "https://www.mindspore.cn/docs/zh-CN/br_base/api_python/amp/"
       "mindspore.amp.auto_mixed_precision.html"},
      {"mixed_precision", kTorchNpu,
       "Run matrix work in float16/bfloat16 under torch.autocast on the npu device; with float16 "
       "scale the loss with torch_npu's GradScaler.",
       "scaler = torch_npu.npu.amp.GradScaler()\n"
       "with torch.autocast(device_type=\"npu\", dtype=torch.float16):\n"
       "    loss = model(x).loss\n"
       "scaler.scale(loss).backward()\n"
       "scaler.step(optimizer); scaler.update()",
       "https://www.hiascend.com/document/detail/zh/Pytorch/60RC2/apiref/apilist/"
       "ptaoplist_000009.html"},
      {"mixed_precision", kPytorchCuda,
       "Run matrix work in bfloat16 (or float16 with a GradScaler) under autocast so it uses "
       "tensor cores.",
       "with torch.autocast(device_type=\"cuda\", dtype=torch.bfloat16):\n"
       "    loss = model(x).loss\n"
       "loss.backward()",
       "https://pytorch.org/docs/stable/amp.html"},

      {"tf32", kMindSpore,
       "Let float32 MatMul run in HF32 on Ascend (CANN keeps it off by default; experimental "
       "API, MindSpore 2.5+).",
       "import mindspore as ms\n"
       "ms.device_context.ascend.op_precision.matmul_allow_hf32(True)",
       "https://mindspore.cn/docs/en/r2.5.0/api_python/device_context/"
       "mindspore.device_context.ascend.op_precision.matmul_allow_hf32.html"},
      {"tf32", kTorchNpu,
       "Let float32 matmuls run in HF32, the Ascend counterpart of TF32 (off by default; "
       "convolutions already allow it).",
       "torch_npu.npu.matmul.allow_hf32 = True",
       "https://hiascend.com/document/detail/zh/Pytorch/60RC3/apiref/apilist/"
       "ptaoplist_000848.html"},
      {"tf32", kPytorchCuda,
       "Let float32 matmuls use TF32 tensor cores (Ampere and later); convolutions are "
       "controlled by torch.backends.cudnn.allow_tf32.",
       "torch.set_float32_matmul_precision(\"high\")",
       "https://pytorch.org/docs/stable/generated/torch.set_float32_matmul_precision.html"},

      {"reduce_launch_overhead", kMindSpore,
       "Compile the step as a graph instead of dispatching operator by operator: GRAPH_MODE, or "
       "@mindspore.jit on the train step; with data sinking the loop stays on the device.",
       "ms.set_context(mode=ms.GRAPH_MODE)\n"
       "# or only the step: @ms.jit above def train_step(data, label)",
       "https://mindspore.cn/tutorials/en/r2.2/beginner/accelerate_with_static_graph.html"},
      {"reduce_launch_overhead", kTorchNpu,
       "TASK_QUEUE_ENABLE=2 splits operator dispatch over two pipelined host threads and moves "
       "workspace work off the main thread (may raise peak memory); for static shapes, TorchAir "
       "graph mode (torch.compile with torchair.get_npu_backend()) removes per-op launches.",
       "export TASK_QUEUE_ENABLE=2",
       "https://www.hiascend.com/document/detail/zh/Pytorch/600/apiref/Envvariables/"
       "Envir_019.html"},
      {"reduce_launch_overhead", kPytorchCuda,
       "Capture the step in CUDA graphs so one launch replays all kernels: torch.compile with "
       "mode=\"reduce-overhead\" (works best with static shapes).",
       "model = torch.compile(model, mode=\"reduce-overhead\")",
       kTorchCompileDoc},

      {"operator_fusion", kMindSpore,
       "Turn on automatic operator fusion: jit_level=\"O1\" (MindSpore 2.6+; on 2.3-2.5 use "
       "net.set_jit_config(JitConfig(jit_level=\"O1\"))).",
       "@mindspore.jit(jit_level=\"O1\")\n"
       "def train_step(data, label):\n"
       "    ...",
       "https://mindspore.cn/docs/en/master/api_python/mindspore/mindspore.jit.html"},
      {"operator_fusion", kTorchNpu,
       "Replace chains of small torch ops with torch_npu fused operators (the msprof-analyze "
       "affinity-API rule names the patterns): RMSNorm, attention, SwiGLU, rotary embedding.",
       "y = torch_npu.npu_rms_norm(x, weight, epsilon=eps)[0]\n"
       "out = torch_npu.npu_fusion_attention(q, k, v, head_num, \"BSH\",\n"
       "                                     scale=head_dim ** -0.5)[0]",
       "https://gitcode.com/Ascend/msprof-analyze/blob/master/docs/en/"
       "fused_operator_api_replacement_example.md"},
      {"operator_fusion", kPytorchCuda,
       "Let torch.compile fuse pointwise and reduction chains into generated kernels.",
       "model = torch.compile(model)",
       kTorchCompileDoc},

      {"memory_layout", kTorchNpu,
       "There is no channels_last switch on Ascend: CANN picks layouts (private formats), and "
       "allow_internal_format decides whether tensors may keep them between operators. Keep it "
       "True for static shapes, set it False for dynamic shapes (see jit_compile_off).",
       "torch_npu.npu.config.allow_internal_format = True  # static shapes\n"
       "# dynamic shapes: False, together with set_compile_mode(jit_compile=False)",
       "https://www.hiascend.com/doc_center/source/zh/Pytorch/600/apiref/apilist/"
       "ptaoplist_000573.html"},
      {"memory_layout", kPytorchCuda,
       "Store convolutional models and their inputs channels-last (NHWC) so cuDNN uses tensor "
       "core kernels without layout transposes.",
       "model = model.to(memory_format=torch.channels_last)\n"
       "x = x.to(\"cuda\", memory_format=torch.channels_last)",
       "https://pytorch.org/tutorials/intermediate/memory_format_tutorial.html"},

      {"fused_optimizer", kTorchNpu,
       "Use the fused AdamW of torch_npu: one fused update over all parameters instead of "
       "several small kernels per tensor.",
       "optimizer = torch_npu.optim.NpuFusedAdamW(model.parameters(), lr=lr,\n"
       "                                          weight_decay=weight_decay)",
       "https://www.hiascend.com/document/detail/zh/Pytorch/600/apiref/apilist/"
       "ptaoplist_000631.html"},
      {"fused_optimizer", kPytorchCuda,
       "Use the fused optimizer implementation: fused=True updates all parameters in a few "
       "kernels, usually faster than the default foreach path.",
       "optimizer = torch.optim.AdamW(model.parameters(), lr=lr, fused=True)",
       "https://pytorch.org/docs/stable/generated/torch.optim.AdamW.html"},

      {"jit_compile_off", kTorchNpu,
       "All operators are dynamic-shape or compile at run time: use the precompiled binary "
       "kernels and no private formats, as the msprof-analyze advisor recommends.",
       "torch_npu.npu.set_compile_mode(jit_compile=False)\n"
       "torch_npu.npu.config.allow_internal_format = False",
       "https://www.hiascend.com/document/detail/zh/Pytorch/700/apiref/apilist/"
       "ptaoplist_000610.html"},

      {"aicpu_avoid", kMindSpore,
       "Operators on the AI CPU are slow: change the dtype so they run on AI Core (no float64; "
       "cast Cast/Equal-style inputs to float32/float16/int32).",
       "x = mindspore.ops.cast(x, mindspore.float32)  # instead of float64",
       "https://www.hiascend.com/document/detail/en/mindstudio/500/msug/msug_000292.html"},
      {"aicpu_avoid", kTorchNpu,
       "Operators on the AI CPU are slow: change the dtype so they run on AI Core (no float64), "
       "or replace the op as shown in the msprof-analyze examples.",
       "x = x.float()  # float64 -> float32 keeps the op on AI Core",
       "https://gitcode.com/Ascend/msprof-analyze/blob/master/docs/zh/"
       "aicpu_operator_replacement_example.md"},

      {"cudnn_benchmark", kPytorchCuda,
       "With fixed input shapes, let cuDNN benchmark the convolution algorithms once and reuse "
       "the fastest.",
       "torch.backends.cudnn.benchmark = True",
       "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
       "#enable-cudnn-auto-tuner"},

      // --- communication --------------------------------------------------------
      {"ddp_bucket", kMindSpore,
       "Fuse gradient AllReduce into larger messages (semi/auto parallel): mode \"size\" packs "
       "gradients into buckets of `config` MB.",
       "ms.set_auto_parallel_context(comm_fusion={\"allreduce\": {\"mode\": \"size\",\n"
       "                                                          \"config\": 32}})",
       "https://mindspore.cn/docs/en/r2.2/api_python/mindspore/"
       "mindspore.set_auto_parallel_context.html"},
      {"ddp_bucket", kTorchNpu,
       "Tune DDP's gradient bucket size (default 25 MB) on the HCCL backend: larger buckets mean "
       "fewer, larger collectives.",
       "ddp = DistributedDataParallel(model, device_ids=[local_rank], bucket_cap_mb=100)\n"
       "# process group: torch.distributed.init_process_group(backend=\"hccl\")",
       kTorchDdpDoc},
      {"ddp_bucket", kPytorchCuda,
       "Tune DDP's gradient bucket size (default 25 MB): larger buckets mean fewer, larger "
       "all-reduces.",
       "ddp = DistributedDataParallel(model, device_ids=[local_rank], bucket_cap_mb=100)",
       kTorchDdpDoc},

      {"overlap_communication", kMindSpore,
       "In PyNative mode wrap the network in MindSpore's DistributedDataParallel: gradients are "
       "bucketed and all-reduced while backward still runs (experimental, MindSpore 2.7+).",
       "from mindspore.parallel.distributed import DistributedDataParallel\n"
       "net = DistributedDataParallel(net, bucket_cap_mb=25, static_graph=True)",
       "https://www.mindspore.cn/docs/en/stable/api_python/parallel/"
       "mindspore.parallel.distributed.DistributedDataParallel.html"},
      {"overlap_communication", kTorchNpu,
       "DDP already overlaps all-reduce with backward; gradient_as_bucket_view=True drops the "
       "bucket copies and static_graph=True lets DDP reorder buckets to the real gradient order.",
       "ddp = DistributedDataParallel(model, device_ids=[local_rank],\n"
       "                              gradient_as_bucket_view=True, static_graph=True)",
       kTorchDdpDoc},
      {"overlap_communication", kPytorchCuda,
       "DDP already overlaps all-reduce with backward; gradient_as_bucket_view=True drops the "
       "bucket copies and static_graph=True reorders buckets. With FSDP, prefetch the next "
       "all-gather (backward_prefetch, forward_prefetch).",
       "ddp = DistributedDataParallel(model, device_ids=[local_rank],\n"
       "                              gradient_as_bucket_view=True, static_graph=True)\n"
       "# FSDP: FSDP(model, backward_prefetch=BackwardPrefetch.BACKWARD_PRE,\n"
       "#            forward_prefetch=True)",
       kTorchDdpDoc},

      {"gradient_accumulation", kMindSpore,
       "Accumulate gradients over micro-batches and communicate once per step "
       "(static graph, semi/auto parallel).",
       "from mindspore.parallel.nn import GradAccumulation\n"
       "net = GradAccumulation(net, micro_size=4)",
       "https://www.mindspore.cn/docs/en/stable/api_python/parallel/"
       "mindspore.parallel.nn.GradAccumulation.html"},
      {"gradient_accumulation", kTorchNpu,
       "When accumulating gradients, skip DDP's all-reduce on all but the last micro-batch with "
       "no_sync().",
       kNoSyncSnippet, kTorchTuningGuide},
      {"gradient_accumulation", kPytorchCuda,
       "When accumulating gradients, skip DDP's all-reduce on all but the last micro-batch with "
       "no_sync().",
       kNoSyncSnippet, kTorchTuningGuide},

      {"hccl_env", kMindSpore, kHcclBuffsizeText, "export HCCL_BUFFSIZE=400  # MB",
       kHcclBuffsizeDoc},
      {"hccl_env", kTorchNpu, kHcclBuffsizeText, "export HCCL_BUFFSIZE=400  # MB",
       kHcclBuffsizeDoc},

      // --- data parallelism -------------------------------------------------------
      {"use_ddp", kPytorchCuda,
       "Replace nn.DataParallel (one process driving every GPU, scattering inputs and gathering "
       "outputs each step) with DistributedDataParallel: one process per GPU.",
       "dist.init_process_group(backend=\"nccl\")\n"
       "model = DistributedDataParallel(model.to(local_rank), device_ids=[local_rank])",
       "https://pytorch.org/docs/stable/notes/cuda.html#cuda-nn-ddp-instead"},
      {"use_ddp", kTorchNpu,
       "Replace nn.DataParallel with DistributedDataParallel over the HCCL process group, one "
       "process per NPU.",
       "dist.init_process_group(backend=\"hccl\")\n"
       "model = DistributedDataParallel(model.to(f\"npu:{local_rank}\"), device_ids=[local_rank])",
       "https://www.hiascend.com/doc_center/source/zh/Pytorch/700/apiref/apilist/ptaoplist_001442.html"},
      {"collective_backend", kPytorchCuda,
       "Use the NCCL backend for GPU collectives; Gloo moves GPU tensors through host memory.",
       "dist.init_process_group(backend=\"nccl\")",
       "https://pytorch.org/docs/stable/distributed.html#which-backend-to-use"},
      {"collective_backend", kTorchNpu,
       "Use the HCCL backend (torch_npu's ProcessGroupHCCL) for NPU collectives.",
       "dist.init_process_group(backend=\"hccl\")",
       "https://www.hiascend.com/doc_center/source/zh/Pytorch/700/apiref/apilist/ptaoplist_001442.html"},

      // --- memory ---------------------------------------------------------------
      {"memory_fragmentation", kMindSpore,
       "Use static memory reuse (SOMAS, planned at graph compile time, least fragmentation) and "
       "keep the virtual-memory pool of MS_ALLOC_CONF on (default where the driver supports it).",
       "ms.runtime.set_memory(optimize_level=\"O1\")",
       "https://www.mindspore.cn/docs/zh-CN/br_base/features/runtime/memory_manager.html"},
      {"memory_fragmentation", kTorchNpu,
       "Let the caching allocator grow segments in place (virtual memory) instead of splitting "
       "fixed blocks; helps when shapes change from step to step.",
       "export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True",
       "https://hiascend.com/document/detail/zh/Pytorch/600/apiref/Envvariables/"
       "Envir_009.html"},
      {"memory_fragmentation", kPytorchCuda,
       "Let the caching allocator expand segments instead of allocating new fixed blocks; helps "
       "when allocation sizes change (e.g. variable batch or sequence length).",
       "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
       "https://pytorch.org/docs/stable/notes/cuda.html"
       "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf"},

      {"activation_recompute", kMindSpore,
       "Recompute activations of large cells in backward instead of keeping them: "
       "Cell.recompute() in graph mode, mindspore.recompute() in PyNative.",
       "block.recompute()  # graph mode, per large sub-cell\n"
       "# PyNative: y = mindspore.recompute(block, x)",
       "https://www.mindspore.cn/docs/zh-CN/r2.8.0/api_python/mindspore/"
       "mindspore.recompute.html"},
      {"activation_recompute", kTorchNpu,
       "Recompute activations of large blocks in backward instead of storing them "
       "(torch.utils.checkpoint works unchanged on NPU).",
       kCheckpointSnippet, kTorchCheckpointDoc},
      {"activation_recompute", kPytorchCuda,
       "Recompute activations of large blocks in backward instead of storing them.",
       kCheckpointSnippet, kTorchCheckpointDoc},

      {"reduce_memory_peak", kMindSpore,
       "Offload parameters to host memory (needs memory_optimize_level O0 and jit level O0 on "
       "Ascend; MindSpore 2.6 marks these APIs for removal).",
       "ms.set_context(memory_offload=\"ON\")\n"
       "ms.set_offload_context(offload_config={\"offload_param\": \"cpu\"})",
       "https://mindspore.cn/docs/en/r2.3.1/api_python/mindspore/"
       "mindspore.set_offload_context.html"},
      {"reduce_memory_peak", kTorchNpu,
       "Halve the micro-batch and accumulate gradients over two steps (with DDP, no_sync() on "
       "the first), keeping the global batch while lowering the activation peak.",
       kNoSyncSnippet, kTorchTuningGuide},
      {"reduce_memory_peak", kPytorchCuda,
       "Shard parameters, gradients and optimizer state with FSDP and offload parameters to CPU "
       "if still short; or halve the micro-batch and accumulate gradients.",
       "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, CPUOffload\n"
       "model = FSDP(model, cpu_offload=CPUOffload(offload_params=True))",
       "https://pytorch.org/docs/stable/fsdp.html"},

      {"avoid_empty_cache", kMindSpore,
       "Do not empty the memory pool inside the loop: the next step must allocate the memory "
       "again.",
       "# delete from the step: ms.runtime.empty_cache()",
       "https://www.mindspore.cn/docs/en/r2.6.0/api_python/hal/mindspore.hal.empty_cache.html"},
      {"avoid_empty_cache", kTorchNpu,
       "Remove torch.npu.empty_cache() from the loop: it frees cached blocks that the next step "
       "must allocate again (aclrtFree/aclMalloc time in the trace).",
       "# delete from the step: torch.npu.empty_cache()",
       "https://hiascend.com/doc_center/source/zh/canncommercial/700/modeldevpt/ptmigr/"
       "ptaoplist_000211.html"},
      {"avoid_empty_cache", kPytorchCuda,
       "Remove torch.cuda.empty_cache() from the loop: it does not give PyTorch more memory and "
       "the next step must cudaMalloc the blocks again.",
       "# delete from the step: torch.cuda.empty_cache()",
       "https://pytorch.org/docs/stable/notes/cuda.html#memory-management"},

      // --- Ascend advisor rules (issue #5) -----------------------------------
      {"aoe_tuning", kMindSpore,
       "Let AOE tune the operators' tiling on the device (operator tuning, job type 2); the "
       "tuned tiling is kept in the custom repository and used by later runs.",
       "ms.device_context.ascend.op_tuning.aoe_tune_mode(\"online\")\n"
       "ms.device_context.ascend.op_tuning.aoe_job_type(\"2\")",
       "https://mindspore.cn/docs/en/r2.5.0/model_train/optimize/aoe.html"},
      {"aoe_tuning", kTorchNpu,
       "Tune the operators' tiling with AOE: dump the operator graphs of one step, then run "
       "operator tuning (job type 2) on them; static-shape operators only.",
       "torch_npu.npu.set_aoe(\"./aoe_dump\")  # before the step; run one step\n"
       "# then: aoe --job_type=2 --model_path=./aoe_dump",
       "https://www.hiascend.com/document/detail/en/canncommercial/800/devaids/aoe/"
       "aoeep_16_043.html"},

      {"python_gc", kMindSpore, kPythonGcText, kPythonGcSnippet, kPythonGcDoc},
      {"python_gc", kTorchNpu, kPythonGcText, kPythonGcSnippet, kPythonGcDoc},
      {"python_gc", kPytorchCuda, kPythonGcText, kPythonGcSnippet, kPythonGcDoc},

      {"avoid_sync_batchnorm", kTorchNpu,
       "SyncBatchNorm synchronizes the statistics of every BatchNorm layer across devices and "
       "dispatches slowly; where each device's batch is large enough for its own statistics, "
       "keep plain BatchNorm.",
       "# model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)  # drop this line",
       "https://pytorch.org/docs/stable/generated/torch.nn.SyncBatchNorm.html"},
      {"avoid_sync_batchnorm", kPytorchCuda,
       "SyncBatchNorm synchronizes the statistics of every BatchNorm layer across GPUs; where "
       "each GPU's batch is large enough for its own statistics, keep plain BatchNorm.",
       "# model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)  # drop this line",
       "https://pytorch.org/docs/stable/generated/torch.nn.SyncBatchNorm.html"},

      {"aclnn_cache", kTorchNpu,
       "Cache more aclnn operator entries (workspace size, executor, tiling) on the host for "
       "dynamic shapes; each entry costs about 2 KB of host memory per thread (default 10000).",
       "export ACLNN_CACHE_LIMIT=100000",
       "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/envvar/"
       "envref_07_0030.html"},

      {"host_shape_cache", kTorchNpu,
       "Cache the host execution data of the most frequent input shapes of dynamic-shape "
       "execution (default 0: off); host memory grows with the value and the model size.",
       "export HOST_CACHE_CAPACITY=20",
       "https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/"
       "aclpythondevg_0045.html"},

      {"ascend_log_level", kMindSpore, kLogLevelText, kLogLevelSnippet, kLogLevelDoc},
      {"ascend_log_level", kTorchNpu, kLogLevelText, kLogLevelSnippet, kLogLevelDoc},

      {"hccl_algo_auto", kMindSpore, kHcclAlgoText, kHcclAlgoSnippet, kHcclAlgoDoc},
      {"hccl_algo_auto", kTorchNpu, kHcclAlgoText, kHcclAlgoSnippet, kHcclAlgoDoc},

      {"npu_health_check", kMindSpore, kNpuHealthText, kNpuHealthSnippet, kNpuHealthDoc},
      {"npu_health_check", kTorchNpu, kNpuHealthText, kNpuHealthSnippet, kNpuHealthDoc},
  };
  return kKnobs;
}

std::vector<Recommendation> RecommendationsFor(std::string_view fix_id) {
  std::vector<Recommendation> out;
  for (const Knob& k : AllKnobs()) {
    if (k.fix_id != fix_id) continue;
    out.push_back(
        {k.framework, std::string(k.text), std::string(k.snippet), std::string(k.doc_url)});
  }
  return out;
}

}  // namespace perfdx::advisor
