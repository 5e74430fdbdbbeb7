#include "perfdx/analysis/kernel_taxonomy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace perfdx::analysis {
namespace {

using Cat = KernelCategory;
using TC = TensorCoreUse;

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

// A kernel name cut into lowercase tokens. `head` is the kernel's own
// (qualified) name — the part before its template arguments and parameters —
// and `args` the rest; rows match the head, the precision grammars may read
// both. `first_arg` is the raw first template argument (CUTLASS wraps its
// kernels as cutlass::Kernel<TheKernel>).
struct Parsed {
  std::vector<std::string> head;
  std::vector<std::string> args;
  std::string first_arg;
};

void AppendTokens(std::string_view text, std::vector<std::string>* out) {
  std::string cur;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c)) {
      cur.push_back(static_cast<char>(std::tolower(c)));
    } else if (!cur.empty()) {
      out->push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out->push_back(std::move(cur));
}

// The source-name identifiers of an Itanium-mangled name (_ZN17cutlass__5x_
// cudnn6KernelI...): <length><identifier>. Literals (Li64E), substitutions
// (S1M_) and template parameters (T0_) carry digits that are not lengths.
std::vector<std::string> MangledIdentifiers(std::string_view s) {
  std::vector<std::string> ids;
  size_t i = 2;
  while (i < s.size()) {
    const char c = s[i];
    if ((c == 'S' || c == 'T') && i + 1 < s.size() &&
        (s[i + 1] == '_' || std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
         std::isupper(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i + 1;
      while (j < s.size() && s[j] != '_' &&
             (std::isdigit(static_cast<unsigned char>(s[j])) ||
              std::isupper(static_cast<unsigned char>(s[j]))))
        ++j;
      i = (j < s.size() && s[j] == '_') ? j + 1 : i + 1;
      continue;
    }
    if (c == 'L' && i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]))) {
      size_t j = i + 2;  // L<builtin type><value>E
      while (j < s.size() && s[j] != 'E') ++j;
      i = j + 1;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      size_t len = 0;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) && len < 100000) {
        len = len * 10 + static_cast<size_t>(s[j] - '0');
        ++j;
      }
      if (len == 0) {  // a literal's value (E0E), not a length
        i = j;
        continue;
      }
      if (j + len > s.size()) break;
      ids.emplace_back(s.substr(j, len));
      i = j + len;
      continue;
    }
    ++i;
  }
  return ids;
}

// Index just past the '>' matching the '<' at `open`, or npos.
size_t MatchAngle(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

Parsed Parse(std::string_view name) {
  Parsed p;
  if (name.starts_with("_Z")) {
    const std::vector<std::string> ids = MangledIdentifiers(name);
    for (size_t i = 0; i < ids.size(); ++i) {
      AppendTokens(ids[i], i < 2 ? &p.head : &p.args);
      if (i >= 2) p.first_arg += (i > 2 ? "::" : "") + ids[i];
    }
    return p;
  }
  std::string s(name);
  // "(anonymous namespace)" is a scope, not a parameter list.
  for (size_t at; (at = s.find("(anonymous namespace)")) != std::string::npos;) {
    s.replace(at, 21, "anonymous_namespace");
  }
  std::string_view v(s);
  if (v.starts_with("void ")) v.remove_prefix(5);
  if (v.starts_with("std::enable_if<")) {  // a return type: enable_if<...>::type
    const size_t end = MatchAngle(v, 14);
    if (end != std::string_view::npos) {
      v.remove_prefix(end);
      if (v.starts_with("::type ")) v.remove_prefix(7);
    }
  }
  const size_t cut = v.find_first_of("<(");
  const std::string_view head = v.substr(0, cut);
  AppendTokens(head, &p.head);
  if (cut != std::string_view::npos) {
    const std::string_view rest = v.substr(cut);
    AppendTokens(rest, &p.args);
    if (rest.front() == '<') {
      int depth = 0;
      for (size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '<' || rest[i] == '(') ++depth;
        if (rest[i] == '>' || rest[i] == ')') --depth;
        if (depth == 0 || (depth == 1 && rest[i] == ',')) {
          p.first_arg = std::string(rest.substr(1, i - 1));
          break;
        }
      }
    }
  }
  return p;
}

// A pattern: "tok" is a whole token, "tok*" a token prefix, "*tok" a token
// suffix.
bool TokenMatches(std::string_view token, std::string_view pattern) {
  if (!pattern.empty() && pattern.back() == '*')
    return token.starts_with(pattern.substr(0, pattern.size() - 1));
  if (!pattern.empty() && pattern.front() == '*') return token.ends_with(pattern.substr(1));
  return token == pattern;
}

bool HasToken(const std::vector<std::string>& tokens, std::string_view pattern) {
  return std::any_of(tokens.begin(), tokens.end(),
                     [&](const std::string& t) { return TokenMatches(t, pattern); });
}

// ---------------------------------------------------------------------------
// Precision grammars
// ---------------------------------------------------------------------------

// How a matrix row reads precision and Tensor-Core use from the name.
enum class Grammar : uint8_t {
  kNone,               // not matrix work, or nothing in the name says
  kName,               // generic: type tokens, tensorop / mma-shape / simt / ffma markers
  kXmma,               // cuBLAS/cuDNN xmma: <A><B>_<C><math>_<acc> type tokens; ffma = CUDA cores
  kMmaShape,           // CUTLASS tensorop / cuBLAS h884gemm, s1688gemm, ...: Tensor Cores
  kFp32CudaCores,      // sgemm, scudnn, gcgemm: single precision FFMA kernels
  kSimt,               // CUTLASS simt: CUDA cores; precision from sgemm / hgemm / dgemm
  kTemplateCudaCores,  // GEMV / legacy cuDNN engines: CUDA cores, precision = first type argument
  kFmha,               // PyTorch memory-efficient attention: fmha_cutlass{F,B}_<type>_..._sm<arch>
  kFlash,              // FlashAttention: Tensor Cores, precision from the template arguments
  kNvjet,              // cuBLAS Hopper nvjet_sm90_<A><compute><C>_...
  kTensile,            // ROCm Tensile/hipBLASLt Cijk_..._<type>_..._MI<shape> (MFMA = matrix cores)
  kMangledCutlass,  // mangled CUTLASS implicit GEMM: tfloat32_t / bfloat16_t, MmaTensorOp / MmaSimt
  kTritonTemplate,  // Inductor template: matrix when the template is mm / bmm / addmm / conv
};

int Rank(Precision p) {  // lower = the narrower math type a kernel runs in
  switch (p) {
    case Precision::kFp8:
      return 0;
    case Precision::kInt8:
      return 1;
    case Precision::kFp16:
      return 2;
    case Precision::kBf16:
      return 2;
    case Precision::kTf32:
      return 3;
    case Precision::kFp32:
      return 4;
    case Precision::kFp64:
      return 5;
    case Precision::kUnknown:
      return 9;
  }
  return 9;
}

void Narrow(Precision* acc, Precision p) {
  if (Rank(p) < Rank(*acc)) *acc = p;
}

// A token made only of type names: "f32f32", "tf32f32", "bf16bf16", "e4m3",
// "bf16", "f16". Narrows *out by each; false if the token is something else.
bool ParseTypeToken(std::string_view t, Precision* out) {
  static constexpr std::array<std::pair<std::string_view, Precision>, 12> kTypes = {{
      {"tf32", Precision::kTf32},
      {"bf16", Precision::kBf16},
      {"fp16", Precision::kFp16},
      {"fp32", Precision::kFp32},
      {"f16", Precision::kFp16},
      {"f32", Precision::kFp32},
      {"f64", Precision::kFp64},
      {"e4m3", Precision::kFp8},
      {"e5m2", Precision::kFp8},
      {"fp8", Precision::kFp8},
      {"s8", Precision::kInt8},
      {"i8", Precision::kInt8},
  }};
  if (t.empty()) return false;
  Precision p = Precision::kUnknown;
  while (!t.empty()) {
    bool hit = false;
    for (const auto& [spelling, prec] : kTypes) {
      if (t.starts_with(spelling)) {
        Narrow(&p, prec);
        t.remove_prefix(spelling.size());
        hit = true;
        break;
      }
    }
    if (!hit) return false;
  }
  Narrow(out, p);
  return true;
}

Precision TypeTokens(const std::vector<std::string>& tokens) {
  Precision p = Precision::kUnknown;
  for (const std::string& t : tokens) ParseTypeToken(t, &p);
  return p;
}

// An MMA instruction shape token: h884gemm, s1688gemm, i8816gemm, s16816fprop,
// h1688cudnn, 16816 ... -> its operand letter ('\0' if none).
bool MmaShapeToken(std::string_view t, char* letter) {
  char l = '\0';
  if (!t.empty() && std::isalpha(static_cast<unsigned char>(t.front()))) {
    l = t.front();
    t.remove_prefix(1);
    if (l != 'h' && l != 's' && l != 'i' && l != 'c' && l != 'z' && l != 'd') return false;
  }
  static constexpr std::array<std::string_view, 7> kShapes = {"16816", "16832", "1688", "1684",
                                                              "8816",  "884",   "16864"};
  for (std::string_view shape : kShapes) {
    if (!t.starts_with(shape)) continue;
    const std::string_view op = t.substr(shape.size());
    if (op.empty() || op == "gemm" || op == "fprop" || op == "dgrad" || op == "wgrad" ||
        op == "cudnn" || op == "gemv") {
      *letter = l;
      return true;
    }
  }
  return false;
}

// Ampere or later, from the name: cutlass_80_..., sm80, sm90, ampere_.
bool ArchAtLeast80(const std::vector<std::string>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "ampere" || t == "hopper") return true;
    if (t.starts_with("sm") && t.size() >= 4 && std::isdigit(static_cast<unsigned char>(t[2])) &&
        std::isdigit(static_cast<unsigned char>(t[3])) && t[2] >= '8')
      return true;
    if (i > 0 && (tokens[i - 1]).starts_with("cutlass") &&
        (t == "80" || t == "86" || t == "89" || t == "90"))
      return true;
  }
  return false;
}

int SmArch(const std::vector<std::string>& tokens) {
  for (const std::string& t : tokens) {
    if (t.starts_with("sm") && t.size() >= 4 && std::all_of(t.begin() + 2, t.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        }))
      return std::stoi(t.substr(2, 3));
  }
  return 0;
}

Precision FirstTemplateType(const std::vector<std::string>& args) {
  for (const std::string& t : args) {
    if (t == "float") return Precision::kFp32;
    if (t == "double") return Precision::kFp64;
    if (t == "half") return Precision::kFp16;
    if (t == "bfloat16") return Precision::kBf16;
  }
  return Precision::kUnknown;
}

void ApplyGrammar(Grammar g, const Parsed& p, KernelClass* k) {
  const std::vector<std::string>& h = p.head;
  switch (g) {
    case Grammar::kNone:
      return;
    case Grammar::kName: {
      k->precision = TypeTokens(h);
      char letter = '\0';
      const bool shape = std::any_of(
          h.begin(), h.end(), [&](const std::string& t) { return MmaShapeToken(t, &letter); });
      if (HasToken(h, "tensorop") || HasToken(h, "hmma") || HasToken(h, "imma") ||
          HasToken(h, "wgmma") || HasToken(h, "gmma") || shape) {
        k->tensor_core = TC::kYes;
      } else if (HasToken(h, "simt") || HasToken(h, "ffma")) {
        k->tensor_core = TC::kNo;
      } else if (k->precision == Precision::kTf32 || k->precision == Precision::kFp8) {
        k->tensor_core = TC::kYes;  // these types exist only on Tensor Cores
      }
      return;
    }
    case Grammar::kXmma: {
      k->precision = TypeTokens(h);
      if (HasToken(h, "ffma")) {  // FP32 fused multiply-add on the CUDA cores
        k->precision = Precision::kFp32;
        k->tensor_core = TC::kNo;
      } else if (k->precision != Precision::kUnknown &&
                 Rank(k->precision) < Rank(Precision::kFp32)) {
        k->tensor_core = TC::kYes;
      }
      return;
    }
    case Grammar::kMmaShape: {
      k->tensor_core = TC::kYes;
      k->precision = TypeTokens(h);
      if (k->precision != Precision::kUnknown && k->precision != Precision::kFp32) return;
      char letter = '\0';
      std::string shape;
      for (const std::string& t : h) {
        if (MmaShapeToken(t, &letter)) {
          shape = t;
          break;
        }
      }
      if (letter == 'h') {
        k->precision = Precision::kFp16;
      } else if (letter == 'i') {
        k->precision = Precision::kInt8;
      } else if (letter == 's') {
        // s1688 on Ampere+ is TF32 (m16n8k8 with float operands); on
        // Volta/Turing s884 / s1688 take FP16 operands into FP32 accumulators.
        k->precision = (shape.find("1688") != std::string::npos && ArchAtLeast80(h))
                           ? Precision::kTf32
                           : Precision::kFp16;
      }
      return;
    }
    case Grammar::kFp32CudaCores:
      k->precision = Precision::kFp32;
      k->tensor_core = TC::kNo;
      return;
    case Grammar::kSimt:
      k->tensor_core = TC::kNo;
      if (HasToken(h, "sgemm")) k->precision = Precision::kFp32;
      if (HasToken(h, "dgemm")) k->precision = Precision::kFp64;
      if (HasToken(h, "hgemm")) k->precision = Precision::kFp16;
      return;
    case Grammar::kTemplateCudaCores:
      k->tensor_core = TC::kNo;
      k->precision = FirstTemplateType(p.args);
      return;
    case Grammar::kFmha: {
      k->precision = TypeTokens(h);
      if (k->precision == Precision::kFp16 || k->precision == Precision::kBf16) {
        k->tensor_core = TC::kYes;
      } else if (k->precision == Precision::kFp32) {
        // PyTorch's kernel (DefaultGemmType<Sm80+, float>) runs float on
        // Tensor Cores through OpMultiplyAddFastF32 (3xTF32, FP32 accuracy);
        // before sm80 it is SIMT.
        const int arch = SmArch(h);
        if (arch >= 80) k->tensor_core = TC::kYes;
        if (arch > 0 && arch < 80) k->tensor_core = TC::kNo;
      }
      return;
    }
    case Grammar::kFlash:
      k->tensor_core = TC::kYes;
      if (HasToken(p.args, "bfloat16")) k->precision = Precision::kBf16;
      if (HasToken(p.args, "half")) k->precision = Precision::kFp16;
      if (HasToken(p.args, "e4m3")) k->precision = Precision::kFp8;
      return;
    case Grammar::kNvjet: {
      // nvjet_sm90_<A/B><compute><C/D>: h = fp16, t = bf16, s = fp32.
      for (size_t i = 0; i + 1 < h.size(); ++i) {
        if (!(h[i]).starts_with("sm")) continue;
        const std::string& types = h[i + 1];
        if (types.size() != 3) break;
        if (types[0] == 'h') k->precision = Precision::kFp16;
        if (types[0] == 't') k->precision = Precision::kBf16;
        if (types[0] == 's') k->precision = Precision::kFp32;
        if (types[0] == 'h' || types[0] == 't') k->tensor_core = TC::kYes;
        break;
      }
      return;
    }
    case Grammar::kTensile: {
      // Cijk_<A layout>_<B layout>_<type>...: S single, D double, H half,
      // B bfloat16, I8 int8; MI<m>x<n>x<k> = an MFMA (matrix-core) instruction.
      if (h.size() > 3) {
        const std::string& t = h[3];
        if (t.starts_with("i8"))
          k->precision = Precision::kInt8;
        else if (t[0] == 's')
          k->precision = Precision::kFp32;
        else if (t[0] == 'd')
          k->precision = Precision::kFp64;
        else if (t[0] == 'h')
          k->precision = Precision::kFp16;
        else if (t[0] == 'b')
          k->precision = Precision::kBf16;
      }
      const bool mfma = std::any_of(h.begin(), h.end(), [](const std::string& t) {
        return t.size() > 2 && t.starts_with("mi") &&
               std::isdigit(static_cast<unsigned char>(t[2]));
      });
      k->tensor_core = mfma ? TC::kYes : TC::kNo;
      return;
    }
    case Grammar::kMangledCutlass: {
      std::vector<std::string> a = p.head;
      a.insert(a.end(), p.args.begin(), p.args.end());
      if (HasToken(a, "tfloat32"))
        k->precision = Precision::kTf32;
      else if (HasToken(a, "bfloat16"))
        k->precision = Precision::kBf16;
      else if (HasToken(a, "half"))
        k->precision = Precision::kFp16;
      if (HasToken(a, "mmatensorop*"))
        k->tensor_core = TC::kYes;
      else if (HasToken(a, "mmasimt*"))
        k->tensor_core = TC::kNo;
      return;
    }
    case Grammar::kTritonTemplate:
      if (!(HasToken(h, "mm") || HasToken(h, "bmm") || HasToken(h, "addmm") ||
            HasToken(h, "baddbmm") || HasToken(h, "convolution") || HasToken(h, "conv"))) {
        k->category = Cat::kOther;  // a template that is not a matrix product
      }
      return;
  }
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

// A row matches when every pattern matches a token of the head ("tok",
// "tok*" prefix, "*tok" suffix); with `first`, pattern 0 must match the first
// head token. First matching row wins.
struct Row {
  bool first;
  std::array<std::string_view, 3> patterns;
  Cat category;
  Grammar grammar;
};

// clang-format off
constexpr Row kRows[] = {
    // --- Copies, fills, sync: Kineto gpu_memcpy / gpu_memset names, Ascend tasks.
    {true,  {"memcpy"},                 Cat::kMemcpy, Grammar::kNone},  // "Memcpy HtoD (Pageable -> Device)", Ascend MEMCPY_ASYNC
    {true,  {"memset"},                 Cat::kMemset, Grammar::kNone},  // "Memset (Device)"
    {true,  {"atomic", "memset"},       Cat::kMemset, Grammar::kNone},  // Ascend atomic_memset-1_<op>_... (kernel_details)
    {true,  {"event"},                  Cat::kSync, Grammar::kNone},    // Ascend EVENT_RECORD / EVENT_WAIT(_SQE)
    {true,  {"notify"},                 Cat::kSync, Grammar::kNone},    // Ascend "Notify Wait" / "Notify Record"
    {true,  {"write", "value"},         Cat::kSync, Grammar::kNone},    // Ascend "Write Value" (HCCL flag write)
    {true,  {"profiling"},              Cat::kSync, Grammar::kNone},    // Ascend PROFILING_ENABLE / _DISABLE markers
    {true,  {"place", "holder"},        Cat::kSync, Grammar::kNone},    // Ascend PLACE_HOLDER_SQE
    {true,  {"context", "sync"},        Cat::kSync, Grammar::kNone},    // Kineto cuda_sync "Context Sync"
    {true,  {"stream", "sync"},         Cat::kSync, Grammar::kNone},    // Kineto cuda_sync "Stream Sync"
    {true,  {"stream", "wait"},         Cat::kSync, Grammar::kNone},    // Kineto cuda_sync "Stream Wait Event"
    {true,  {"event", "sync"},          Cat::kSync, Grammar::kNone},    // Kineto cuda_sync "Event Sync"
    // --- Communication.
    {true,  {"nccl*"},                  Cat::kCommunication, Grammar::kNone},  // ncclKernel_AllReduce_..., ncclDevKernel_... (RCCL keeps these)
    {true,  {"rccl*"},                  Cat::kCommunication, Grammar::kNone},  // rccl builds' own spellings
    {true,  {"hcom"},                   Cat::kCommunication, Grammar::kNone},  // Ascend HCCL ops: hcom_allReduce__210_0_1
    {true,  {"hccl*"},                  Cat::kCommunication, Grammar::kNone},  // hccl_* kernels of HCCL builds
    {true,  {"sdma"},                   Cat::kCommunication, Grammar::kNone},  // Ascend SDMA tasks: HCCL's own transfers
    // --- Triton (Inductor): triton_<kind>_fused_<ops>_<n>; the ops in the name are fused, not separate kernels.
    {true,  {"triton", "poi"},          Cat::kElementwise, Grammar::kNone},    // pointwise
    {true,  {"triton", "red"},          Cat::kReduction, Grammar::kNone},      // reduction
    {true,  {"triton", "per"},          Cat::kReduction, Grammar::kNone},      // persistent reduction
    {true,  {"triton", "tem"},          Cat::kMatrix, Grammar::kTritonTemplate},  // template: triton_tem_fused_mm_0, ..._addmm_...
    // --- cuDNN helpers that are not the convolution itself.
    {true,  {"cask*"},                  Cat::kOther, Grammar::kNone},          // cask_cudnn::computeOffsetsKernel, init_device_workspace_kernel
    // --- Matrix work.
    {true,  {"sm*", "xmma"},            Cat::kMatrix, Grammar::kXmma},         // cuBLAS sm80_xmma_gemm_f32f32_..., cuDNN sm90_xmma_fprop_implicit_gemm_...
    {true,  {"xmma*"},                  Cat::kMatrix, Grammar::kXmma},  // xmma_* kernels without the sm prefix
    {true,  {"cutlass*", "tensorop"},   Cat::kMatrix, Grammar::kMmaShape},     // cutlass_80_tensorop_s1688gemm_..., cutlass_tensorop_bf16_s16816fprop_...
    {true,  {"cutlass*", "simt"},       Cat::kMatrix, Grammar::kSimt},         // cutlass_80_simt_sgemm_256x128_8x4_nn_align1
    {false, {"reducesplitk"},           Cat::kReduction, Grammar::kNone},      // cutlass::reduction::kernel::ReduceSplitK<...>
    {false, {"implicitgemmconvolution"}, Cat::kMatrix, Grammar::kMangledCutlass},  // mangled cuDNN CUTLASS conv::kernel::ImplicitGemmConvolution
    {true,  {"fmha*"},                  Cat::kMatrix, Grammar::kFmha},         // fmha_cutlassF_f32_aligned_64x64_rf_sm80 (PyTorch mem-efficient attention)
    {false, {"flash", "fwd"},           Cat::kMatrix, Grammar::kFlash},        // flash_fwd_kernel<Flash_fwd_kernel_traits<..., cutlass::half_t>>
    {false, {"flash", "bwd"},           Cat::kMatrix, Grammar::kFlash},  // flash_bwd_dq_dk_dv_loop_kernel<...>
    {true,  {"nvjet*"},                 Cat::kMatrix, Grammar::kNvjet},        // cuBLAS Hopper nvjet_sm90_tst_128x128_...
    {true,  {"cijk"},                   Cat::kMatrix, Grammar::kTensile},      // ROCm Cijk_Ailk_Bjlk_SB_..._MI16x16x1_...
    {false, {"sgemm*"},                 Cat::kMatrix, Grammar::kFp32CudaCores},  // volta_/ampere_sgemm_*, implicit_convolve_sgemm, sgemm_largek_lds64, magma_sgemmEx
    {false, {"gcgemm"},                 Cat::kMatrix, Grammar::kFp32CudaCores},  // ampere_gcgemm_64x64_nt: complex single precision
    {false, {"cgemm"},                  Cat::kMatrix, Grammar::kFp32CudaCores},
    {false, {"scudnn*"},                Cat::kMatrix, Grammar::kFp32CudaCores},  // volta_scudnn_128x64_relu_..., cudnn_infer_volta_scudnn_...
    {true,  {"volta", "*gemm"},         Cat::kMatrix, Grammar::kMmaShape},     // volta_h884gemm_64x128_ldg8_nn
    {true,  {"volta", "*cudnn"},        Cat::kMatrix, Grammar::kMmaShape},     // volta_h884cudnn_...
    {true,  {"turing", "*gemm"},        Cat::kMatrix, Grammar::kMmaShape},     // turing_fp16_s1688gemm_fp16_...
    {true,  {"ampere", "*gemm"},        Cat::kMatrix, Grammar::kMmaShape},     // ampere_fp16_s16816gemm_fp16_...
    {false, {"gemv*"},                  Cat::kMatrix, Grammar::kTemplateCudaCores},  // gemv2T_kernel_val<int, int, float, ...>, gemvNSP_kernel, gemvx::kernel
    {false, {"gemmk1"},                 Cat::kMatrix, Grammar::kTemplateCudaCores},  // cuBLAS gemmk1_kernel<float, ...> (k = 1)
    {false, {"engine", "wgrad"},        Cat::kMatrix, Grammar::kTemplateCudaCores},  // cuDNN wgrad_alg0_engine<float, ...>
    {false, {"engine", "dgrad"},        Cat::kMatrix, Grammar::kTemplateCudaCores},  // cuDNN cudnn::detail::dgrad_engine<float, ...>
    {true,  {"cudnn", "conv*"},         Cat::kMatrix, Grammar::kName},         // cudnn::...::conv*_kernel
    {false, {"gemm"},                   Cat::kMatrix, Grammar::kName},         // any other *_gemm_* kernel (a whole token: not fbgemm)
    {false, {"matmul"},                 Cat::kMatrix, Grammar::kName},  // *_matmul_* kernels (a whole token)
    // --- cuBLAS / cuDNN pieces around the matrix work.
    {false, {"epilogue", "globalkernel"}, Cat::kElementwise, Grammar::kNone},  // cublasLt::epilogue::impl::globalKernel (bias / activation)
    {false, {"splitkreduce*"},          Cat::kReduction, Grammar::kNone},      // cuBLAS splitKreduce_kernel
    {false, {"reduce", "wgrad"},        Cat::kReduction, Grammar::kNone},      // cudnn::cnn::reduce_wgrad_nchw_helper
    {false, {"scal", "kernel"},         Cat::kElementwise, Grammar::kNone},    // cuBLAS scal_kernel (x *= a)
    {false, {"scalepackedtensor*"},     Cat::kElementwise, Grammar::kNone},    // cudnn::ops::scalePackedTensor_kernel
    // --- Layout conversions.
    {false, {"nchwtonhwc*"},            Cat::kLayoutConversion, Grammar::kNone},  // cuDNN nchwToNhwcKernel (cudnn::ops::, engines_precompiled::)
    {false, {"nhwctonchw*"},            Cat::kLayoutConversion, Grammar::kNone},  // cuDNN nhwcToNchwKernel
    // --- Embeddings (FBGEMM, TorchRec, ATen). Before the transpose/permute rows: permute_2D_data is a sparse-feature permutation.
    {true,  {"fbgemm", "fp8*"},         Cat::kElementwise, Grammar::kNone},    // fbgemm_gpu FP8 row-wise (de)quantisation
    {true,  {"fbgemm"},                 Cat::kEmbedding, Grammar::kNone},      // fbgemm_gpu::permute_2D_data_kernel, _offsets_range_cuda_kernel
    {true,  {"split", "embedding"},     Cat::kEmbedding, Grammar::kNone},      // FBGEMM TBE split_embedding_codegen_forward_*, _backward_*
    {false, {"pooled", "embs"},         Cat::kEmbedding, Grammar::kNone},      // permute_pooled_embs_kernel
    {true,  {"recat", "copy"},          Cat::kEmbedding, Grammar::kNone},      // recat_copy_async_kernel (FBGEMM permute_pooled_embs)
    {true,  {"bounds", "check"},        Cat::kEmbedding, Grammar::kNone},      // FBGEMM bounds_check_indices_kernel (TBE inputs)
    {true,  {"linearize", "index"},     Cat::kEmbedding, Grammar::kNone},      // FBGEMM split-embedding backward linearize_index_kernel
    {false, {"embedding"},              Cat::kEmbedding, Grammar::kNone},      // at::native::embedding_backward_*_kernel
    // --- Normalization, softmax.
    {false, {"batch", "norm"},          Cat::kNormalization, Grammar::kNone},  // at::native::batch_norm_*_kernel
    {true,  {"cudnn", "bn"},            Cat::kNormalization, Grammar::kNone},  // cudnn::bn_fw_tr_1C11_kernel_NCHW, bn_bw_*
    {false, {"layer", "norm"},          Cat::kNormalization, Grammar::kNone},  // layer_norm_grad_input_kernel, vectorized_layer_norm_kernel
    {false, {"layernorm*"},             Cat::kNormalization, Grammar::kNone},  // LayerNormForwardCUDAKernel
    {false, {"gammabetabackward*"},     Cat::kNormalization, Grammar::kNone},  // layer norm's weight/bias gradients
    {false, {"rowwisemoments*"},        Cat::kNormalization, Grammar::kNone},  // layer / group norm statistics
    {false, {"group", "norm"},          Cat::kNormalization, Grammar::kNone},  // group_norm_* kernels
    {false, {"softmax*"},               Cat::kSoftmax, Grammar::kNone},        // softmax_warp_forward, cunn_SoftMaxForward
    {false, {"logsoftmax*"},            Cat::kSoftmax, Grammar::kNone},  // LogSoftmax* spellings in one token
    // --- Elementwise (ATen TensorIterator and friends).
    {false, {"elementwise"},            Cat::kElementwise, Grammar::kNone},    // vectorized_/unrolled_/index_elementwise_kernel, ...
    {false, {"multi", "tensor", "apply"}, Cat::kElementwise, Grammar::kNone},  // foreach / fused optimizer steps
    {false, {"fused", "dropout"},       Cat::kElementwise, Grammar::kNone},    // fused_dropout_kernel_vec
    {false, {"catarraybatchedcopy*"},   Cat::kElementwise, Grammar::kNone},    // torch.cat
    {false, {"indexselect*"},           Cat::kElementwise, Grammar::kNone},    // index_select gathers
    {false, {"indexfunc*"},             Cat::kElementwise, Grammar::kNone},    // index_add / index_copy
    // --- Reductions, pooling, losses.
    {false, {"nll", "forward"},         Cat::kReduction, Grammar::kNone},      // nll_loss_forward_reduce_cuda_kernel_2d
    {false, {"nll", "backward"},        Cat::kElementwise, Grammar::kNone},    // nll_loss_backward_reduce_cuda_kernel_2d: a scatter
    {false, {"reduce", "kernel"},       Cat::kReduction, Grammar::kNone},      // at::native::reduce_kernel<...>
    {true,  {"cub", "devicereduce*"},   Cat::kReduction, Grammar::kNone},  // cub::DeviceReduceKernel, DeviceReduceByKeyKernel
    {false, {"classnllcriterion", "updateoutput"}, Cat::kReduction, Grammar::kNone},       // cunn_ClassNLLCriterion_updateOutput_kernel
    {false, {"classnllcriterion", "updategradinput"}, Cat::kElementwise, Grammar::kNone},  // cunn_ClassNLLCriterion_updateGradInput_kernel
    {false, {"max", "pool"},            Cat::kReduction, Grammar::kNone},      // max_pool_forward_nchw / backward
    {false, {"adaptive", "average", "pool"}, Cat::kReduction, Grammar::kNone}, // adaptive_average_pool
    {false, {"avg", "pool*"},           Cat::kReduction, Grammar::kNone},  // avg_pool2d_out_cuda_frame
    // --- Explicit transposes / permutes (after every row above that owns such a word).
    {false, {"transpose"},              Cat::kLayoutConversion, Grammar::kNone},  // at::native::transpose_*, batch_transpose_kernel
    {false, {"permute"},                Cat::kLayoutConversion, Grammar::kNone},  // explicit permute kernels (not fbgemm permute_*: rows above)
};
// clang-format on

// Ascend op types (kernel_details.csv "Type" / "OP Type", the last part of a
// trace_view task name: aclnnMm_MatMulCommon_MatMulV2, trans_TransData_0,
// Add105). The cube unit's ops are the matrix work; what precision they run
// in comes from the op's input dtypes (kernel_stats), not the name.
struct AscendOp {
  std::string_view type;
  Cat category;
};

// clang-format off
constexpr AscendOp kAscendOps[] = {
    // Cube: matrix products, convolutions, attention.
    {"MatMul", Cat::kMatrix}, {"MatMulV2", Cat::kMatrix}, {"MatMulV3", Cat::kMatrix}, {"MatMulV5", Cat::kMatrix},
    {"BatchMatMul", Cat::kMatrix}, {"BatchMatMulV2", Cat::kMatrix}, {"BatchMatMulV3", Cat::kMatrix},
    {"GroupedMatmul", Cat::kMatrix}, {"Conv2D", Cat::kMatrix}, {"Conv2DBackpropInput", Cat::kMatrix},
    {"Conv2DBackpropFilter", Cat::kMatrix}, {"Conv3D", Cat::kMatrix}, {"Conv3DBackpropInput", Cat::kMatrix},
    {"Conv3DBackpropFilter", Cat::kMatrix}, {"FlashAttentionScore", Cat::kMatrix},
    {"FlashAttentionScoreGrad", Cat::kMatrix},
    // Layout: format conversion (NCHW <-> NC1HWC0 / FRACTAL_Z), transposes, strided -> contiguous copies.
    {"TransData", Cat::kLayoutConversion}, {"Transpose", Cat::kLayoutConversion}, {"TransposeD", Cat::kLayoutConversion},
    {"AsStrided", Cat::kLayoutConversion},
    // Vector unit: pointwise ops, casts, copies, fills, gathers, optimizer updates.
    {"Add", Cat::kElementwise}, {"AddN", Cat::kElementwise}, {"Adds", Cat::kElementwise}, {"Axpy", Cat::kElementwise},
    {"Addcdiv", Cat::kElementwise}, {"Addcmul", Cat::kElementwise}, {"Sub", Cat::kElementwise},
    {"Mul", Cat::kElementwise}, {"Muls", Cat::kElementwise}, {"RealDiv", Cat::kElementwise}, {"Div", Cat::kElementwise},
    {"Cast", Cat::kElementwise}, {"Relu", Cat::kElementwise}, {"ReluGrad", Cat::kElementwise},
    {"FastGelu", Cat::kElementwise}, {"FastGeluGrad", Cat::kElementwise}, {"Gelu", Cat::kElementwise},
    {"GeluGrad", Cat::kElementwise}, {"Sigmoid", Cat::kElementwise}, {"Tanh", Cat::kElementwise},
    {"Exp", Cat::kElementwise}, {"Log", Cat::kElementwise}, {"Sqrt", Cat::kElementwise}, {"Rsqrt", Cat::kElementwise},
    {"Square", Cat::kElementwise}, {"Reciprocal", Cat::kElementwise}, {"Pow", Cat::kElementwise},
    {"Equal", Cat::kElementwise}, {"NotEqual", Cat::kElementwise}, {"Greater", Cat::kElementwise},
    {"GreaterEqual", Cat::kElementwise}, {"Less", Cat::kElementwise}, {"LessEqual", Cat::kElementwise},
    {"LogicalNot", Cat::kElementwise}, {"LogicalOr", Cat::kElementwise}, {"LogicalAnd", Cat::kElementwise},
    {"Maximum", Cat::kElementwise}, {"Minimum", Cat::kElementwise}, {"Select", Cat::kElementwise},
    {"Fill", Cat::kElementwise}, {"Fills", Cat::kElementwise}, {"OnesLike", Cat::kElementwise},
    {"ZerosLike", Cat::kElementwise}, {"DropOutDoMask", Cat::kElementwise}, {"BroadcastTo", Cat::kElementwise},
    {"Tril", Cat::kElementwise}, {"Triu", Cat::kElementwise}, {"TensorMove", Cat::kElementwise},
    {"Slice", Cat::kElementwise}, {"StridedSlice", Cat::kElementwise}, {"StridedSliceD", Cat::kElementwise},
    {"GatherV2", Cat::kElementwise}, {"Index", Cat::kElementwise}, {"ApplyAdamW", Cat::kElementwise},
    {"ForeachAddList", Cat::kElementwise}, {"ForeachMulScalar", Cat::kElementwise},
    {"LpNormUpdateV2", Cat::kElementwise}, {"NLLLossGrad", Cat::kElementwise},
    // Reductions, pooling, losses.
    {"ReduceSum", Cat::kReduction}, {"ReduceSumD", Cat::kReduction}, {"ReduceMean", Cat::kReduction},
    {"ReduceMax", Cat::kReduction}, {"ArgMaxWithValue", Cat::kReduction}, {"ArgMaxV2", Cat::kReduction},
    {"LpNormReduceV2", Cat::kReduction}, {"MaxPoolWithArgmaxV1", Cat::kReduction},
    {"MaxPoolGradWithArgmaxV1", Cat::kReduction}, {"AdaptiveAvgPool3d", Cat::kReduction},
    {"AdaptiveAvgPool3dGrad", Cat::kReduction}, {"NLLLoss", Cat::kReduction},
    // Normalization.
    {"LayerNorm", Cat::kNormalization}, {"LayerNormV3", Cat::kNormalization}, {"LayerNormGrad", Cat::kNormalization},
    {"LayerNormBetaGammaBackpropV2", Cat::kNormalization}, {"BNTrainingReduce", Cat::kNormalization},
    {"BNTrainingUpdate", Cat::kNormalization}, {"BNTrainingReduceGrad", Cat::kNormalization},
    {"BNTrainingUpdateGrad", Cat::kNormalization}, {"BatchNorm", Cat::kNormalization},
    {"GroupNorm", Cat::kNormalization}, {"RmsNorm", Cat::kNormalization},
    // Softmax.
    {"SoftmaxV2", Cat::kSoftmax}, {"SoftmaxGrad", Cat::kSoftmax}, {"LogSoftmaxV2", Cat::kSoftmax},
    {"LogSoftmaxGrad", Cat::kSoftmax}, {"ScaledMaskedSoftmax", Cat::kSoftmax},
    {"ScaledMaskedSoftmaxGrad", Cat::kSoftmax},
    // Memset of an op's output or workspace: Conv2DBackpropFilter10_MemSet, aclnnMm_MatMulCommon_MemSet.
    {"MemSet", Cat::kMemset},
    // Known, and none of the above: compaction, top-k, dropout mask generation (DSA random engine).
    {"NonZero", Cat::kOther}, {"TopKV2", Cat::kOther}, {"DSAGenBitMask", Cat::kOther},
    {"DSAStatelessGenBitMask", Cat::kOther}, {"StatelessDropOutGenMask", Cat::kOther},
};
// clang-format on

// `part` is `type` or `type` followed by the op's index digits (Add105).
bool IsOpWithIndex(std::string_view part, std::string_view type) {
  if (!part.starts_with(type)) return false;
  return std::all_of(part.begin() + static_cast<std::ptrdiff_t>(type.size()), part.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The Ascend op type a plain task name ends in, from its last '_' / '/'
// separated part back: the longest table type a part is (with index digits).
const AscendOp* FindAscendOp(std::string_view name) {
  if (name.find_first_of(" :<>()") != std::string_view::npos) return nullptr;
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '_' || name[i] == '/') {
      if (i > start) parts.push_back(name.substr(start, i - start));
      start = i + 1;
    }
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    const AscendOp* best = nullptr;
    for (const AscendOp& op : kAscendOps) {
      if (IsOpWithIndex(*it, op.type) && (best == nullptr || op.type.size() > best->type.size()))
        best = &op;
    }
    if (best != nullptr) return best;
  }
  return nullptr;
}

bool RowMatches(const Row& row, const std::vector<std::string>& head) {
  if (head.empty()) return false;
  for (size_t i = 0; i < row.patterns.size(); ++i) {
    const std::string_view p = row.patterns[i];
    if (p.empty()) continue;
    if (i == 0 && row.first) {
      if (!TokenMatches(head.front(), p)) return false;
    } else if (!HasToken(head, p)) {
      return false;
    }
  }
  return true;
}

KernelClass Classify(std::string_view name, int depth) {
  KernelClass k;
  const Parsed p = Parse(name);
  // CUTLASS wraps a kernel as cutlass::Kernel<TheKernel> (also Kernel2 and
  // the cuDNN-private cutlass_cudnn_infer:: / cutlass__5x_cudnn:: copies):
  // the argument is what runs.
  if (depth == 0 && p.head.size() >= 2 && p.head.front().starts_with("cutlass") &&
      (p.head.back() == "kernel" || p.head.back() == "kernel2") && !p.first_arg.empty()) {
    return Classify(p.first_arg, depth + 1);
  }
  for (const Row& row : kRows) {
    if (!RowMatches(row, p.head)) continue;
    k.category = row.category;
    if (row.category == Cat::kMatrix) ApplyGrammar(row.grammar, p, &k);
    return k;
  }
  if (const AscendOp* op = FindAscendOp(name)) k.category = op->category;
  return k;
}

}  // namespace

KernelClass ClassifyKernel(std::string_view name) {
  return Classify(name, 0);
}

Precision PrecisionFromAscendDtypes(std::string_view dtypes) {
  Precision p = Precision::kUnknown;
  size_t start = 0;
  while (start <= dtypes.size()) {
    size_t end = dtypes.find(';', start);
    if (end == std::string_view::npos) end = dtypes.size();
    std::string_view t = dtypes.substr(start, end - start);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    if (t.starts_with("DT_")) t.remove_prefix(3);
    if (t == "FLOAT" || t == "FLOAT32") Narrow(&p, Precision::kFp32);
    if (t == "FLOAT16") Narrow(&p, Precision::kFp16);
    if (t == "BF16" || t == "BFLOAT16") Narrow(&p, Precision::kBf16);
    if (t == "DOUBLE" || t == "FLOAT64") Narrow(&p, Precision::kFp64);
    if (t == "INT8") Narrow(&p, Precision::kInt8);
    start = end + 1;
  }
  return p;
}

std::string_view KernelCategoryName(KernelCategory c) {
  switch (c) {
    case Cat::kMatrix:
      return "matrix";
    case Cat::kLayoutConversion:
      return "layout_conversion";
    case Cat::kCommunication:
      return "communication";
    case Cat::kElementwise:
      return "elementwise";
    case Cat::kReduction:
      return "reduction";
    case Cat::kNormalization:
      return "normalization";
    case Cat::kSoftmax:
      return "softmax";
    case Cat::kEmbedding:
      return "embedding";
    case Cat::kMemcpy:
      return "memcpy";
    case Cat::kMemset:
      return "memset";
    case Cat::kSync:
      return "sync";
    case Cat::kOther:
      return "other";
  }
  return "other";
}

std::string_view PrecisionName(Precision p) {
  switch (p) {
    case Precision::kUnknown:
      return "unknown";
    case Precision::kFp64:
      return "fp64";
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kFp16:
      return "fp16";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp8:
      return "fp8";
    case Precision::kInt8:
      return "int8";
  }
  return "unknown";
}

}  // namespace perfdx::analysis
