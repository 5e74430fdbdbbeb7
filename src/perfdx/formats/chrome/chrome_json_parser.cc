#include "perfdx/formats/chrome/chrome_json_parser.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "perfdx/base/decimal_time.h"
#include "perfdx/base/task_pool.h"
#include "perfdx/base/utf8.h"
#include "perfdx/formats/chrome/arg_key_memo.h"
#include "perfdx/formats/chrome/json_scanner.h"
#include "perfdx/formats/chrome/json_tokens.h"
#include "perfdx/model/arg_key.h"

namespace perfdx::formats {
namespace {

namespace od = simdjson::ondemand;
using model::ArgKey;
using model::ArgType;
using model::FieldState;
using model::LoadStat;
using model::RawArg;
using model::RawEvent;
using model::RawIdView;
using simdjson::error_code;
using simdjson::SUCCESS;

// ---------------------------------------------------------------------------
// Decoding one event object (shared by both paths).

// A string field: a value of another type is ignored (SUCCESS, *out left
// alone); a malformed string (bad escape) fails the event so that the exact
// path can repair it.
[[gnu::always_inline]] inline error_code GetString(JsonTokens& t, uint32_t k,
                                                   std::string_view* out) {
  const error_code e = t.String(k, out);
  return e == simdjson::INCORRECT_TYPE ? SUCCESS : e;
}

// "ph" is one letter: taken from the token itself; any other spelling
// ("\u0058", a longer string, not a string) goes through GetString.
error_code GetPhase(JsonTokens& t, uint32_t k, std::string_view* out) {
  const std::string_view token = t.Token(k);
  if (token.size() >= 3 && token[0] == '"' && token[2] == '"' && token[1] != '\\') {
    *out = token.substr(1, 1);
    return SUCCESS;
  }
  return GetString(t, k, out);
}

template <size_t N>
bool KeyIs(const char* raw, const char (&literal)[N]) {
  return std::memcmp(raw, literal, N - 1) == 0 && raw[N - 1] == '"';
}

// The key as written (escapes not resolved), up to its closing quote.
std::string_view RawKey(const char* raw) {
  const char* p = raw;
  while (*p != '"') {
    if (*p == '\\') ++p;
    ++p;
  }
  return {raw, static_cast<size_t>(p - raw)};
}

// The same, found from the field's value: `"key" ws* : ws* value` puts the
// closing quote a few bytes before the value, where a forward scan of the key
// reads every byte of it (it was a tenth of the ingest time).
std::string_view RawKey(const char* raw, const char* value) {
  const char* p = value;
  while (p > raw && IsJsonSpace(p[-1])) --p;
  if (p > raw && p[-1] == ':') {
    --p;
    while (p > raw && IsJsonSpace(p[-1])) --p;
    if (p > raw && p[-1] == '"') return {raw, static_cast<size_t>(p - 1 - raw)};
  }
  return RawKey(raw);
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsJsonSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Parses all of `s` as std::from_chars parses an int64 (optional '-', then
// digits). Up to 18 digits cannot overflow and are read by a plain loop; the
// rest goes to from_chars. The result comes back through *out because an
// std::optional return was assembled in memory a byte at a time and read back
// whole, a store-forwarding stall on every id of every event.
// ParseInt's path for 19 digits and more (int64's limits), out of line so
// that the common one stays small enough to inline.
[[gnu::noinline]] bool ParseLongInt(std::string_view s, int64_t* out) {
  int64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return false;
  *out = v;
  return true;
}

// Called for every pid, tid and integer arg: inlined.
[[gnu::always_inline]] inline bool ParseInt(std::string_view s, int64_t* out) {
  const bool negative = !s.empty() && s[0] == '-';
  const size_t digits = s.size() - (negative ? 1 : 0);
  if (digits > 0 && digits <= 18) [[likely]] {
    uint64_t magnitude = 0;
    for (size_t i = negative ? 1 : 0; i < s.size(); ++i) {
      const auto d = static_cast<unsigned>(s[i] - '0');
      if (d > 9) return false;
      magnitude = magnitude * 10 + d;
    }
    const auto v = static_cast<int64_t>(magnitude);
    *out = negative ? -v : v;
    return true;
  }
  return ParseLongInt(s, out);
}

std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  if (!ParseInt(s, &v)) return std::nullopt;
  return v;
}

std::optional<double> ParseDouble(std::string_view s) {
  double v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

// Eight ASCII digits (the lowest byte the most significant) as a number, or
// false if any byte is not a digit. Adjacent digits, then pairs, then quads
// are combined in the lanes of one word: three multiplies instead of eight
// dependent steps.
[[gnu::always_inline]] inline bool EightDigitsWord(uint64_t v, int64_t* out) {
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ULL;
  constexpr uint64_t kZeros = 0x3030303030303030ULL;
  // Every byte 0x30..0x39: high nibble 3, and adding 6 does not leave it.
  if ((v & kHigh) != kZeros || ((v + 0x0606060606060606ULL) & kHigh) != kZeros) return false;
  v -= kZeros;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFULL;      // 2-digit values
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFULL;    // 4-digit values
  v = (v * 10000 + (v >> 32)) & 0x00000000FFFFFFFFULL;  // the 8-digit value
  *out = static_cast<int64_t>(v);
  return true;
}

// Eight ASCII digits at p (p[0] most significant; little-endian: byte k of
// the word holds p[k]).
[[gnu::always_inline]] inline bool EightDigits(const char* p, int64_t* out) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return EightDigitsWord(v, out);
}

// A token of 1 to 8 digits and nothing else (no sign, no whitespace before
// the next token), read as one word where simdjson's padding makes 8 bytes
// from its start readable: nearly every id, count and duration of a trace
// (the digit loop was 45 instructions an id).
[[gnu::always_inline]] inline bool ShortDigits(std::string_view token, int64_t* out) {
  const size_t n = token.size();
  if (n - 1 >= 8) return false;
  uint64_t v;
  std::memcpy(&v, token.data(), 8);
  const unsigned pad_bits = 8 * static_cast<unsigned>(8 - n);
  // The n digits into the high bytes, '0's before them in the low ones.
  v = (v << pad_bits) | (0x3030303030303030ULL & ~(~uint64_t{0} << pad_bits));
  return EightDigitsWord(v, out);
}

// Sixteen ASCII digits at p (epoch microseconds): two blocks of eight, no loop.
[[gnu::always_inline]] inline bool SixteenDigits(const char* p, int64_t* out) {
  int64_t high;
  int64_t low;
  if (!EightDigits(p, &high) || !EightDigits(p + 8, &low)) return false;
  *out = high * 100000000 + low;
  return true;
}

// The largest whole microseconds whose nanoseconds plus 999 fit in int64.
constexpr int64_t kMaxMicros = (INT64_MAX - 999) / 1000;

// ParseInt for a number token of the document (raw_json_token, trimmed): 1 to
// 8 digits as one word; a sign or more digits through ParseInt.
[[gnu::always_inline]] inline bool ParseIntToken(std::string_view token, int64_t* out) {
  if (token.size() - 1 < 8 && token[0] != '-') return ShortDigits(token, out);
  return ParseInt(token, out);
}

// "pid", "tid", flow "id": a number, or text (digit-only text becomes a number
// so that "25738" and 25738 name the same thread, as Kineto mixes both).
[[gnu::noinline]] void DecodeIdSlow(JsonTokens& t, uint32_t k, RawIdView* out) {
  const bool number = IsNumberStart(t.At(k));
  std::string_view text;
  if (number) {
    text = TrimRight(t.Token(k));
  } else if (t.String(k, &text) != SUCCESS) {
    return;
  }
  out->present = true;
  if (number ? ParseIntToken(text, &out->number) : ParseInt(text, &out->number)) {
    out->is_text = false;
  } else {
    out->text = text;
    out->is_text = true;
  }
}

// Inlined into the field loop: a call for every id was a tenth of decoding.
[[gnu::always_inline]] inline void DecodeId(JsonTokens& t, uint32_t k, RawIdView* out) {
  int64_t number;
  if (!ShortDigits(t.Token(k), &number)) return DecodeIdSlow(t, k, out);
  out->present = true;
  out->number = number;
  out->is_text = false;
}

// Microseconds written as up to 16 integer digits (epoch microseconds) and at
// most three decimals (Kineto's integers, Ascend's "1736408883688177.930") are
// exact nanoseconds without ParseMicrosToNanos' general path; anything else
// (signs, exponents, more decimals, whitespace, overflow) is left to it, so
// the results are identical.
bool FastMicrosToNanos(std::string_view s, int64_t* out) {
  size_t i = 0;
  int64_t micros = 0;
  if (s.size() >= 16 && SixteenDigits(s.data(), &micros)) i = 16;
  while (i < s.size() && i < 17 && static_cast<unsigned>(s[i] - '0') <= 9) {
    micros = micros * 10 + (s[i] - '0');
    ++i;
  }
  if (i == 0 || i > 16 || micros > kMaxMicros) return false;
  int64_t nanos = micros * 1000;
  if (i == s.size()) {
    *out = nanos;
    return true;
  }
  if (s[i] != '.') return false;
  const size_t point = i++;
  int64_t scale = 100;
  while (i < s.size() && static_cast<unsigned>(s[i] - '0') <= 9) {
    if (scale == 0) return false;
    nanos += (s[i] - '0') * scale;
    scale /= 10;
    ++i;
  }
  if (i == point + 1 || i != s.size()) return false;
  *out = nanos;
  return true;
}

[[gnu::noinline]] FieldState DecodeTimeSlow(JsonTokens& t, uint32_t k, int64_t* out) {
  const char c = t.At(k);
  std::string_view text;
  if (IsNumberStart(c)) {
    text = t.Token(k);
  } else if (c == '"') {
    if (t.String(k, &text) != SUCCESS) return FieldState::kInvalid;
  } else if (c == 'n') {
    return FieldState::kMissing;
  } else {
    return FieldState::kInvalid;
  }
  if (FastMicrosToNanos(TrimRight(text), out)) return FieldState::kOk;
  // Saturating: a number beyond int64 ns is out of range (the builder names
  // it so), not "not a number".
  auto ns = ParseDecimalScaledSaturating(text, 3);
  if (!ns) return FieldState::kInvalid;
  *out = *ns;
  return FieldState::kOk;
}

// Kineto's times inlined: a duration of up to 8 digits, or 16-digit epoch
// microseconds; the same results as FastMicrosToNanos on them.
[[gnu::always_inline]] inline FieldState DecodeTime(JsonTokens& t, uint32_t k, int64_t* out) {
  const std::string_view token = t.Token(k);
  int64_t micros;
  if (ShortDigits(token, &micros)) {
    *out = micros * 1000;
    return FieldState::kOk;
  }
  if (token.size() == 16 && SixteenDigits(token.data(), &micros) && micros <= kMaxMicros) {
    *out = micros * 1000;
    return FieldState::kOk;
  }
  return DecodeTimeSlow(t, k, out);
}

// Sets *end past the value where it is a container.
error_code DecodeArgValue(ArgKey key, JsonTokens& t, uint32_t k, uint32_t* end, RawEvent& event) {
  // Decoded into locals and constructed in place: a RawArg temporary was
  // zeroed and copied with `rep stos`/`rep movs`, tens of cycles per arg.
  ArgType arg_type = ArgType::kInt;
  int64_t int_value = 0;
  double double_value = 0;
  std::string_view string_value;
  switch (t.At(k)) {
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': {
      const std::string_view token = TrimRight(t.Token(k));
      // ParseInt takes digits only, so a fraction or an exponent goes on to
      // ParseDouble without a scan of its own.
      if (ParseIntToken(token, &int_value)) break;
      auto d = ParseDouble(token);
      if (!d) return SUCCESS;
      arg_type = ArgType::kDouble;
      double_value = *d;
      break;
    }
    case '"':
      arg_type = ArgType::kString;
      if (auto e = t.String(k, &string_value)) return e;
      break;
    case '[': {
      // Shapes and dims ([[32, 3], []]) are kept as their JSON text, to the
      // next token as On-Demand's raw_json.
      *end = t.Skip(k);
      if (*end == JsonTokens::kBad) return simdjson::TAPE_ERROR;
      arg_type = ArgType::kString;
      string_value = {t.Ptr(k), static_cast<size_t>(t.Offset(*end) - t.Offset(k))};
      break;
    }
    case 't':
    case 'f': {
      const std::string_view token = TrimRight(t.Token(k));
      if (token != "true" && token != "false") return SUCCESS;
      int_value = token[0] == 't' ? 1 : 0;
      break;
    }
    default:
      return SUCCESS;
  }
  // Braces, not emplace_back(...): Clang 14 has no parenthesised aggregate init (P0960).
  event.AddArg(model::RawArg{key, arg_type, int_value, double_value, string_value});
  return SUCCESS;
}

// The args object whose '{' is token k: the index past it, or kBad.
[[gnu::flatten]] uint32_t DecodeArgs(JsonTokens& t, uint32_t k, RawEvent& event, ArgKeyMemo& memo,
                                     error_code* error) {
  // A counter's series are its numeric args; "ph" may come after "args".
  const bool want_numeric = event.phase.empty() || event.phase == "C";
  const size_t row = ArgKeyMemo::RowOf(event.phase, event.category);
  size_t position = 0;
  return t.ForEachField(
      k,
      [&](const char* raw, uint32_t value, uint32_t* end) -> error_code {
        ArgKeyMemo::Identified id;
        if (!memo.Match(row, position, raw, &id)) {
          // "name" and "labels" are never remembered: Match never finds them.
          if (KeyIs(raw, "name")) {
            ++position;
            return GetString(t, value, &event.meta_name);
          }
          if (KeyIs(raw, "labels")) {
            ++position;
            return GetString(t, value, &event.meta_labels);
          }
          id.spelling = RawKey(raw, t.Ptr(value));
          id.key = ArgKey::kCount;
          id.known = model::LookupArgKey(id.spelling, &id.key);
          memo.Remember(row, position, id);
        }
        ++position;
        if (want_numeric && IsNumberStart(t.At(value))) {
          if (auto d = ParseDouble(TrimRight(t.Token(value)))) {
            event.numeric_args.emplace_back(id.spelling, *d);
          }
        }
        if (id.known) return DecodeArgValue(id.key, t, value, end, event);
        return SUCCESS;
      },
      error);
}

// The event object whose '{' is token k, into `event`: the index past its
// '}', or kBad (*error says why where a field's value did).
[[gnu::flatten]] uint32_t DecodeEvent(JsonTokens& t, uint32_t k, RawEvent& event, ArgKeyMemo& memo,
                                      error_code* error) {
  return t.ForEachField(
      k,
      [&](const char* raw, uint32_t value, uint32_t* end) -> error_code {
        switch (raw[0]) {
          case 'p':
            if (KeyIs(raw, "ph")) return GetPhase(t, value, &event.phase);
            if (KeyIs(raw, "pid")) DecodeId(t, value, &event.pid);
            break;
          case 'n':
            if (KeyIs(raw, "name")) return GetString(t, value, &event.name);
            break;
          case 'c':
            if (KeyIs(raw, "cat")) return GetString(t, value, &event.category);
            break;
          case 't':
            if (KeyIs(raw, "ts")) {
              event.ts_state = DecodeTime(t, value, &event.ts_ns);
            } else if (KeyIs(raw, "tid")) {
              DecodeId(t, value, &event.tid);
            }
            break;
          case 'd':
            if (KeyIs(raw, "dur")) event.dur_state = DecodeTime(t, value, &event.dur_ns);
            break;
          case 'i':
            if (KeyIs(raw, "id")) {
              DecodeId(t, value, &event.id);
            } else if (KeyIs(raw, "id2") && t.At(value) == '{') {
              error_code e = SUCCESS;
              *end = t.ForEachField(
                  value,
                  [&](const char*, uint32_t inner, uint32_t*) -> error_code {
                    DecodeId(t, inner, &event.id);
                    return SUCCESS;
                  },
                  &e);
              if (*end == JsonTokens::kBad) return e != SUCCESS ? e : simdjson::TAPE_ERROR;
            }
            break;
          case 'b':
            if (KeyIs(raw, "bp")) return GetString(t, value, &event.binding);
            break;
          case 'a':
            if (KeyIs(raw, "args") && t.At(value) == '{') {
              error_code e = SUCCESS;
              *end = DecodeArgs(t, value, event, memo, &e);
              if (*end == JsonTokens::kBad) return e != SUCCESS ? e : simdjson::TAPE_ERROR;
            }
            break;
          default:
            break;
        }
        return SUCCESS;
      },
      error);
}

// Rewrites the two kinds of invalid JSON real Kineto traces contain:
// an empty value (`"Process Group Description": ,`, pytorch#172353) and an
// unescaped backslash (Windows paths, kineto#336). Returns false if nothing
// changed.
bool RepairJson(std::string& text, size_t* length) {
  std::string out;
  out.reserve(*length + 16);
  bool in_string = false;
  bool changed = false;
  for (size_t i = 0; i < *length; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        const char next = i + 1 < *length ? text[i + 1] : '\0';
        if (std::strchr("\"\\/bfnrtu", next) == nullptr || next == '\0') {
          out += "\\\\";
          changed = true;
          continue;
        }
        out += c;
        out += next;
        ++i;
        continue;
      }
      if (c == '"') in_string = false;
      out += c;
      continue;
    }
    out += c;
    if (c == '"') {
      in_string = true;
    } else if (c == ':') {
      size_t j = i + 1;
      while (j < *length && IsJsonSpace(text[j])) ++j;
      if (j < *length && (text[j] == ',' || text[j] == '}')) {
        out += "null";
        changed = true;
      }
    }
  }
  if (!changed) return false;
  *length = out.size();
  out.resize(out.size() + simdjson::SIMDJSON_PADDING, ' ');
  text.swap(out);
  return true;
}

std::string DescribeByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

// ---------------------------------------------------------------------------
// One region of complete events, decoded as one array (the fast path).

// What decoding a region found; positions are indexes into its buffer.
struct RegionResult {
  size_t count = 0;           // events decoded and emitted
  size_t good_end = 0;        // just past the last of them
  bool unparsed = false;      // simdjson refused the region: nothing emitted
  bool failed = false;        // an element failed: events from good_end re-read
  bool closed_early = false;  // the event array ended at `next`, before the cut
  size_t next = 0;
};

// The events of d[begin, cut) (a `}` at cut - 1), with d[begin - 1] and
// d[cut] borrowed for the array's brackets and restored; `allocated` bytes
// are readable from d + begin - 1. Each event is decoded into slot() and,
// when whole, passed to emit(); the string views point into `d` and into
// `tokens`, so they live until either is reused.
template <typename Slot, typename Emit>
RegionResult DecodeRegion(JsonTokens& tokens, ArgKeyMemo& memo, char* d, size_t begin, size_t cut,
                          Slot&& slot, Emit&& emit) {
  RegionResult r;
  // (d + begin) - 1, the headroom byte when begin is 0: d[begin - 1] would add
  // the wrapped size_t(-1) to d, a pointer overflow (UBSan, Clang).
  char* const open = d + begin - 1;
  const char saved_open = *open;
  const char saved_close = d[cut];
  *open = '[';
  d[cut] = ']';
  auto restore = [&] {
    *open = saved_open;
    d[cut] = saved_close;
  };
  const size_t length = cut - begin + 2;
  if (tokens.Index(open, length) != SUCCESS) {
    // Invalid UTF-8, a raw control character, or a cut inside a string.
    restore();
    r.unparsed = true;
    return r;
  }
  r.good_end = begin;
  // The array's elements (token 0 is its '['), up to the first `]` after
  // one, as On-Demand iterates an array: anything but an object, or an
  // element not followed by `,` or `]`, fails the region there.
  uint32_t k = 1;
  if (tokens.count() > 1 && tokens.At(1) == ']') k = tokens.count();
  while (k < tokens.count()) {
    if (tokens.At(k) != '{') {
      r.failed = true;
      break;
    }
    RawEvent& event = slot();
    event.Clear();
    error_code error = SUCCESS;
    const uint32_t end = DecodeEvent(tokens, k, event, memo, &error);
    if (end == JsonTokens::kBad) {
      r.failed = true;
      break;
    }
    emit(event);
    ++r.count;
    r.good_end = end < tokens.count() ? static_cast<size_t>(open - d) + tokens.Offset(end) : cut;
    if (end >= tokens.count() || tokens.At(end) == ']') break;
    if (tokens.At(end) != ',') {
      r.failed = true;
      break;
    }
    k = end + 1;
  }
  // The event array may close before the cut: a key after "traceEvents"
  // ("deviceProperties" written last) holds a `}, {` of its own, and the
  // region then ends in that value. Its events are read; the array's `]`
  // is left to the exact path, which ends the array there (#13: the
  // value's first object was read as an event, the value itself lost).
  size_t next = r.good_end;
  while (!r.failed && next < cut && IsJsonSpace(d[next])) ++next;
  r.closed_early = !r.failed && r.count > 0 && next < cut && d[next] == ']';
  r.next = next;
  restore();
  return r;
}

// ---------------------------------------------------------------------------
// The reader: buffer management, envelope, fast and exact paths.

class Reader {
 public:
  Reader(io::ByteSource& source, const ChromeJsonOptions& options, ChromeEventSink& sink,
         TraceEnvelope* envelope)
      : source_(source), options_(options), sink_(sink), envelope_(envelope) {}

  Status Run();

 private:
  enum class ElementOutcome { kContinue, kArrayEnd, kEnd };

  char* data() { return storage_.get() + 1; }  // one byte of headroom for '['
  const char* data() const { return storage_.get() + 1; }
  size_t available() const { return end_ - pos_; }
  uint64_t Offset(size_t pos) const { return base_ + pos; }
  const std::string& path() const { return source_.path(); }
  Status ErrorAt(size_t pos, std::string_view what) const {
    return InvalidInput(fmt::format("{}: at byte {}: {}", path(), Offset(pos), what));
  }

  Status Fill(size_t want);
  Result<size_t> ReadSource(char* dst, size_t capacity);
  Status SkipSpace(bool commas);
  Status TopLevelObject();
  Status EventArray(bool bare_array);
  Result<bool> FastChunk();
  Result<bool> SequentialChunk();
  bool ParseRegion(size_t begin, size_t cut);
  bool ApplyRegion(const RegionResult& r, size_t cut);
  Result<bool> ParallelChunk();
  std::optional<bool> ConsumeOldest();
  std::optional<bool> Drain();
  size_t FindCut(size_t from, size_t to) const;
  Result<ElementOutcome> ScalarElement();
  Status SkipOversizedValue(size_t consumed);
  Status Resync();
  void DecodeOne(size_t begin, size_t length);
  error_code TryDecode(size_t length);
  Result<std::string> ReadKey();
  Status ReadTopLevelValue(const std::string& key);
  void HandleTopLevelValue(const std::string& key, size_t length);
  void ReportTruncation(std::string message);
  void CheckTrailing();

  io::ByteSource& source_;
  const ChromeJsonOptions& options_;
  ChromeEventSink& sink_;
  TraceEnvelope* envelope_;

  std::unique_ptr<char[]> storage_;  // storage_bytes_ long
  size_t storage_bytes_ = 0;
  size_t capacity_ = 0;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t base_ = 0;
  bool eof_ = false;  // a read returned 0
  // The source, as the buffer reads it: the bytes a rewind gave back come
  // first; its end and its error, once met, are met again.
  std::vector<char> given_back_;
  size_t given_back_pos_ = 0;
  bool source_ended_ = false;
  Status source_error_;
  uint64_t fallback_until_ = 0;  // absolute offset below which the fast path is off
  bool truncation_reported_ = false;

  JsonTokens tokens_;
  ArgKeyMemo memo_;  // tokens_'s
  RawEvent event_;
  std::string scratch_;
  JsonScanner scanner_;

  // The parallel fast path: a region of complete events with the buffer that
  // holds it (the reader goes on in another), decoded by its own JsonTokens. The
  // buffer is the sequential reader's at that region, as it was (`end`,
  // `eof`), so a region that does not end at its cut is decided on it.
  struct Chunk final : base::TaskPool::Task {
    std::unique_ptr<char[]> storage;  // storage_bytes long, one byte of headroom
    size_t storage_bytes = 0;
    size_t begin = 0;
    size_t cut = 0;
    size_t end = 0;
    bool eof = false;
    uint64_t base = 0;  // the offset of data()[0] in the stream
    JsonTokens tokens;
    ArgKeyMemo memo;
    std::vector<RawEvent> events;     // result.count of them are the region's
    std::vector<model::RawArg> args;  // the args of all of them (RawEvent::shared_args)
    RegionResult result;

    char* data() { return storage.get() + 1; }
    void Run() override {
      size_t used = 0;
      args.clear();
      result = DecodeRegion(
          tokens, memo, data(), begin, cut,
          [this, &used]() -> RawEvent& {
            if (used == events.size()) events.emplace_back();
            events[used].shared_args = &args;
            return events[used];
          },
          [&used](RawEvent& event) {
            event.HashStrings();
            ++used;
          });
    }
  };
  std::vector<std::unique_ptr<Chunk>> free_chunks_;
  std::deque<std::unique_ptr<Chunk>> in_flight_;  // in file order
  // Declared after the chunks: destroyed first, so no worker outlives them.
  std::unique_ptr<base::TaskPool> pool_;
};

Status Reader::Fill(size_t want) {
  if (available() >= want || eof_) return Status::Ok();
  if (pos_ > 0) {
    std::memmove(data(), data() + pos_, available());
    base_ += pos_;
    end_ -= pos_;
    pos_ = 0;
  }
  const size_t limit = options_.max_event_bytes + options_.chunk_bytes;
  want = std::min(want, limit);
  if (want > capacity_ || capacity_ == 0) {
    capacity_ = std::min(limit, std::max({want, capacity_ * 2, options_.chunk_bytes}));
    // Left uninitialised: zeroing a whole chunk that a small file never fills
    // cost more than parsing it (a page fault per 4 KiB of chunk).
    storage_bytes_ = 1 + capacity_ + simdjson::SIMDJSON_PADDING;
    auto grown = std::make_unique_for_overwrite<char[]>(storage_bytes_);
    if (storage_) std::memcpy(grown.get(), storage_.get(), 1 + end_);
    storage_ = std::move(grown);
  }
  // To capacity, not to `want`: what the buffer holds then depends on the
  // stream alone, never on how much each read returned, so the regions (and
  // which events the fast path reads) are the same for a file, its .gz, and
  // the parallel path replaying bytes it gave back.
  while (end_ < capacity_ && !eof_) {
    PERFDX_ASSIGN_OR_RETURN(size_t n, ReadSource(data() + end_, capacity_ - end_));
    if (n == 0) eof_ = true;
    end_ += n;
  }
  std::memset(data() + end_, ' ', simdjson::SIMDJSON_PADDING);
  return Status::Ok();
}

Result<size_t> Reader::ReadSource(char* dst, size_t capacity) {
  if (given_back_pos_ < given_back_.size()) {
    const size_t n = std::min(capacity, given_back_.size() - given_back_pos_);
    std::memcpy(dst, given_back_.data() + given_back_pos_, n);
    given_back_pos_ += n;
    if (given_back_pos_ == given_back_.size()) {
      given_back_.clear();
      given_back_pos_ = 0;
    }
    return n;
  }
  if (!source_error_.ok()) return source_error_;
  if (source_ended_) return size_t{0};
  Result<size_t> n = source_.Read(dst, capacity);
  if (!n.ok()) {
    source_error_ = n.status();
    return source_error_;
  }
  if (*n == 0) source_ended_ = true;
  return n;
}

Status Reader::SkipSpace(bool commas) {
  for (;;) {
    const char* d = data();
    while (pos_ < end_ && (IsJsonSpace(d[pos_]) || (commas && d[pos_] == ','))) ++pos_;
    if (pos_ < end_ || eof_) return Status::Ok();
    PERFDX_RETURN_IF_ERROR(Fill(options_.chunk_bytes));
  }
}

Status Reader::Run() {
  PERFDX_RETURN_IF_ERROR(Fill(options_.chunk_bytes));
  if (end_ >= 3 && std::memcmp(data(), "\xEF\xBB\xBF", 3) == 0) pos_ = 3;  // UTF-8 BOM
  PERFDX_RETURN_IF_ERROR(SkipSpace(false));
  if (pos_ == end_)
    return InvalidInput(fmt::format("{}: at byte {}: empty file", path(), Offset(pos_)));
  const char c = data()[pos_];
  Status status;
  if (c == '[') {
    ++pos_;
    envelope_->object_form = false;
    status = EventArray(/*bare_array=*/true);
  } else if (c == '{') {
    ++pos_;
    envelope_->object_form = true;
    status = TopLevelObject();
  } else {
    return ErrorAt(
        pos_, fmt::format("not a JSON trace (expected '[' or '{{', found {})", DescribeByte(c)));
  }
  PERFDX_RETURN_IF_ERROR(status);
  if (source_.truncated()) ReportTruncation(source_.truncation() + "; analysed up to there");
  return Status::Ok();
}

void Reader::ReportTruncation(std::string message) {
  if (!truncation_reported_) sink_.OnStat(LoadStat::kTruncated);
  truncation_reported_ = true;
  sink_.OnWarning(fmt::format("{}: {}", path(), message));
}

void Reader::CheckTrailing() {
  if (!SkipSpace(false).ok()) return;
  if (pos_ < end_) {
    sink_.OnStat(LoadStat::kTrailingData);
    sink_.OnWarning(fmt::format("{}: ignored data after the end of the trace at byte {}", path(),
                                Offset(pos_)));
  }
}

Result<std::string> Reader::ReadKey() {
  JsonScanner scanner;
  size_t consumed = 0;
  for (;;) {
    auto outcome = scanner.Scan(data() + pos_, available(), &consumed);
    if (outcome == JsonScanner::Outcome::kComplete) break;
    if (outcome == JsonScanner::Outcome::kError) return ErrorAt(pos_ + consumed, "malformed key");
    if (eof_) return ErrorAt(pos_, "the file ends inside a key");
    if (available() >= options_.max_top_level_value_bytes) return ErrorAt(pos_, "key too long");
    PERFDX_RETURN_IF_ERROR(Fill(available() + options_.chunk_bytes));
  }
  std::string key(data() + pos_ + 1, consumed - 2);
  pos_ += consumed;
  return key;
}

Status Reader::TopLevelObject() {
  bool saw_events = false;
  for (;;) {
    PERFDX_RETURN_IF_ERROR(SkipSpace(/*commas=*/true));
    if (pos_ == end_) {
      if (!saw_events) return ErrorAt(pos_, "the file ends before a \"traceEvents\" array");
      ReportTruncation(
          fmt::format("the file ends before the trace object is closed (byte {})", Offset(pos_)));
      return Status::Ok();
    }
    const char c = data()[pos_];
    if (c == '}') {
      ++pos_;
      if (!saw_events) return ErrorAt(pos_ - 1, "no \"traceEvents\" array in this JSON object");
      CheckTrailing();
      return Status::Ok();
    }
    if (c != '"') {
      if (!saw_events)
        return ErrorAt(pos_, fmt::format("expected a key, found {}", DescribeByte(c)));
      sink_.OnStat(LoadStat::kTrailingData);
      sink_.OnWarning(fmt::format("{}: malformed data after the events at byte {}; ignored", path(),
                                  Offset(pos_)));
      return Status::Ok();
    }
    const size_t key_pos = pos_;
    PERFDX_ASSIGN_OR_RETURN(std::string key, ReadKey());
    PERFDX_RETURN_IF_ERROR(SkipSpace(false));
    if (pos_ == end_ || data()[pos_] != ':') {
      if (pos_ == end_ && saw_events) {
        ReportTruncation(
            fmt::format("the file ends inside the trace object (byte {})", Offset(pos_)));
        return Status::Ok();
      }
      return ErrorAt(pos_ == end_ ? key_pos : pos_, fmt::format("expected ':' after \"{}\"", key));
    }
    ++pos_;
    PERFDX_RETURN_IF_ERROR(SkipSpace(false));
    if (key == "traceEvents" && pos_ < end_ && data()[pos_] == '[') {
      ++pos_;
      saw_events = true;
      PERFDX_RETURN_IF_ERROR(EventArray(/*bare_array=*/false));
      continue;
    }
    PERFDX_RETURN_IF_ERROR(ReadTopLevelValue(key));
  }
}

Status Reader::ReadTopLevelValue(const std::string& key) {
  if (pos_ == end_) {
    ReportTruncation(fmt::format("the file ends after key \"{}\"", key));
    return Status::Ok();
  }
  scanner_.Reset();
  size_t consumed = 0;
  for (;;) {
    auto outcome = scanner_.Scan(data() + pos_, available(), &consumed);
    if (outcome == JsonScanner::Outcome::kComplete) break;
    if (outcome == JsonScanner::Outcome::kError) {
      return ErrorAt(pos_ + consumed, fmt::format("malformed value of top-level key \"{}\"", key));
    }
    if (eof_) {
      if (available() > 0 && IsScalarStart(data()[pos_])) {
        consumed = available();
        break;
      }
      ReportTruncation(fmt::format("the file ends inside top-level key \"{}\" (byte {})", key,
                                   Offset(pos_ + consumed)));
      pos_ = end_;
      return Status::Ok();
    }
    if (available() >= options_.max_top_level_value_bytes) {
      sink_.OnStat(LoadStat::kTopLevelValueSkipped);
      return SkipOversizedValue(consumed);
    }
    PERFDX_RETURN_IF_ERROR(Fill(available() + options_.chunk_bytes));
  }
  HandleTopLevelValue(key, consumed);
  pos_ += consumed;
  return Status::Ok();
}

void Reader::HandleTopLevelValue(const std::string& key, size_t length) {
  if (key == "schemaVersion") envelope_->has_schema_version = true;
  if (key != "distributedInfo" && key != "deviceProperties" && key != "baseTimeNanoseconds" &&
      key != "displayTimeUnit") {
    return;
  }
  std::string text(data() + pos_, length);
  text.resize(length + simdjson::SIMDJSON_PADDING, ' ');
  od::parser parser;
  od::document doc;
  if (parser.iterate(text.data(), length, text.size()).get(doc) != SUCCESS) {
    sink_.OnStat(LoadStat::kTopLevelValueSkipped);
    return;
  }
  auto get_int = [](od::value v) -> std::optional<int64_t> {
    std::string_view token;
    od::json_type type;
    if (v.type().get(type) != SUCCESS) return std::nullopt;
    if (type == od::json_type::string) {
      if (v.get_string().get(token) != SUCCESS) return std::nullopt;
    } else {
      token = v.raw_json_token();
    }
    return ParseInt(TrimRight(token));
  };
  if (key == "baseTimeNanoseconds") {
    std::string_view token;
    if (doc.raw_json_token().get(token) == SUCCESS)
      envelope_->base_time_ns = ParseInt(TrimRight(token));
    return;
  }
  if (key == "displayTimeUnit") {
    std::string_view s;
    if (doc.get_string().get(s) == SUCCESS) envelope_->display_time_unit = std::string(s);
    return;
  }
  if (key == "distributedInfo") {
    od::object object;
    if (doc.get_object().get(object) != SUCCESS) return;
    for (auto f : object) {
      od::field field;
      if (std::move(f).get(field) != SUCCESS) return;
      const char* raw = field.key().raw();
      if (KeyIs(raw, "rank")) {
        envelope_->rank = get_int(field.value());
      } else if (KeyIs(raw, "world_size")) {
        envelope_->world_size = get_int(field.value());
      } else if (KeyIs(raw, "backend")) {
        std::string_view s;
        if (field.value().get_string().get(s) == SUCCESS) envelope_->backend = std::string(s);
      }
    }
    return;
  }
  // deviceProperties
  od::array array;
  if (doc.get_array().get(array) != SUCCESS) return;
  for (auto element : array) {
    od::object object;
    if (element.get_object().get(object) != SUCCESS) continue;
    model::DeviceProperties device;
    for (auto f : object) {
      od::field field;
      if (std::move(f).get(field) != SUCCESS) break;
      const char* raw = field.key().raw();
      od::value v = field.value();
      if (KeyIs(raw, "id")) {
        device.id = static_cast<int32_t>(get_int(v).value_or(-1));
      } else if (KeyIs(raw, "name")) {
        std::string_view s;
        if (v.get_string().get(s) == SUCCESS) device.name = std::string(s);
      } else if (KeyIs(raw, "totalGlobalMem")) {
        device.total_memory_bytes = get_int(v).value_or(-1);
      } else if (KeyIs(raw, "computeMajor")) {
        device.compute_major = static_cast<int32_t>(get_int(v).value_or(-1));
      } else if (KeyIs(raw, "computeMinor")) {
        device.compute_minor = static_cast<int32_t>(get_int(v).value_or(-1));
      } else if (KeyIs(raw, "numSms")) {
        device.num_sms = static_cast<int32_t>(get_int(v).value_or(-1));
      }
    }
    envelope_->devices.push_back(std::move(device));
  }
}

Status Reader::EventArray(bool bare_array) {
  for (;;) {
    if (options_.fast_path) {
      PERFDX_ASSIGN_OR_RETURN(bool progressed, FastChunk());
      if (progressed) continue;
    }
    PERFDX_ASSIGN_OR_RETURN(ElementOutcome outcome, ScalarElement());
    switch (outcome) {
      case ElementOutcome::kContinue:
        continue;
      case ElementOutcome::kArrayEnd:
        if (bare_array) CheckTrailing();
        return Status::Ok();
      case ElementOutcome::kEnd:
        // A bare array may lack its ']' (the format allows it); an object
        // that ends inside its array was cut.
        if (!bare_array) {
          ReportTruncation(fmt::format("the file ends inside the \"traceEvents\" array (byte {})",
                                       Offset(pos_)));
        }
        return Status::Ok();
    }
  }
}

size_t Reader::FindCut(size_t from, size_t to) const {
  // The last `}` ws* `,` ws* `{` in [from, to): a likely event boundary. If it
  // lies inside a string, simdjson reports an unclosed string and the chunk
  // falls back to the exact path; if it lies inside a nested array, the last
  // event is incomplete and is re-read with the next chunk.
  const char* d = data();
  while (to > from) {
    const void* hit = memrchr(d + from, '{', to - from);
    if (hit == nullptr) return std::string::npos;
    const size_t brace = static_cast<size_t>(static_cast<const char*>(hit) - d);
    size_t i = brace;
    while (i > from && IsJsonSpace(d[i - 1])) --i;
    if (i > from && d[i - 1] == ',') {
      --i;
      while (i > from && IsJsonSpace(d[i - 1])) --i;
      if (i > from && d[i - 1] == '}') return i;  // one past the '}'
    }
    to = brace;
  }
  return std::string::npos;
}

Result<bool> Reader::FastChunk() {
  if (options_.decode_threads > 1 &&
      (pool_ != nullptr || Offset(pos_) >= options_.parallel_after_bytes ||
       options_.expected_bytes >= options_.parallel_after_bytes)) {
    if (pool_ == nullptr) pool_ = std::make_unique<base::TaskPool>(options_.decode_threads - 1);
    return ParallelChunk();
  }
  return SequentialChunk();
}

Result<bool> Reader::SequentialChunk() {
  // Every call must cost O(what it consumes), or the exact path, which
  // comes back here after each element, turns quadratic (#17): refill only
  // when under half a chunk is left (a refill moves what is left to the
  // front; once per element it moved most of a chunk per element), and a region
  // without a cut goes to the exact path whole instead of being searched
  // again for the next element.
  if (available() < options_.chunk_bytes / 2) PERFDX_RETURN_IF_ERROR(Fill(options_.chunk_bytes));
  const char* d = data();
  while (pos_ < end_ && (IsJsonSpace(d[pos_]) || d[pos_] == ',')) ++pos_;
  if (Offset(pos_) < fallback_until_) return false;
  if (pos_ == end_ || d[pos_] != '{') return false;
  const size_t cut = FindCut(pos_ + 1, end_);
  if (cut == std::string::npos) {
    fallback_until_ = Offset(end_);
    return false;
  }
  return ParseRegion(pos_, cut);
}

Result<bool> Reader::ParallelChunk() {
  // The reader is where the sequential one would be, had every region in
  // flight ended at its cut; the first that did not sends it back there.
  // A bounded number in flight: memory stays a few chunks per thread.
  if (in_flight_.size() >= 2 * size_t{options_.decode_threads}) {
    if (std::optional<bool> progressed = ConsumeOldest()) return *progressed;
  }
  if (available() < options_.chunk_bytes / 2) {
    Status filled = Fill(options_.chunk_bytes);
    if (!filled.ok()) {
      // The sequential reader fails here too, unless a region in flight
      // sends it back; it then meets the error again where it reads this far.
      if (std::optional<bool> progressed = Drain()) return *progressed;
      return filled;
    }
  }
  // pos_ stays where the chunks in flight end: a refill moves what is
  // before pos_ out of the buffer, and a rewind needs every byte after them.
  const char* d = data();
  size_t begin = pos_;
  while (begin < end_ && (IsJsonSpace(d[begin]) || d[begin] == ',')) ++begin;
  size_t cut = std::string::npos;
  if (Offset(begin) >= fallback_until_ && begin < end_ && d[begin] == '{') {
    cut = FindCut(begin + 1, end_);
  }
  if (cut == std::string::npos) {
    // What comes next is read in order, after the chunks in flight; with
    // none left, the sequential fast path decides as it always does.
    if (std::optional<bool> progressed = Drain()) return *progressed;
    return SequentialChunk();
  }
  std::unique_ptr<Chunk> chunk;
  if (free_chunks_.empty()) {
    chunk = std::make_unique<Chunk>();
  } else {
    chunk = std::move(free_chunks_.back());
    free_chunks_.pop_back();
  }
  // The chunk keeps this buffer; the reader goes on from the cut in the
  // chunk's old one (a few bytes to copy: the cut is the last event's end).
  std::swap(chunk->storage, storage_);
  std::swap(chunk->storage_bytes, storage_bytes_);
  const size_t needed = 1 + capacity_ + simdjson::SIMDJSON_PADDING;
  if (storage_ == nullptr || storage_bytes_ < needed) {
    storage_bytes_ = needed;
    storage_ = std::make_unique_for_overwrite<char[]>(needed);
  }
  const size_t rest = end_ - cut;
  std::memcpy(data(), chunk->data() + cut, rest);
  chunk->begin = begin;
  chunk->cut = cut;
  chunk->end = end_;
  chunk->eof = eof_;
  chunk->base = base_;
  base_ += cut;
  end_ = rest;
  pos_ = 0;
  std::memset(data() + end_, ' ', simdjson::SIMDJSON_PADDING);
  pool_->Submit(chunk.get());
  in_flight_.push_back(std::move(chunk));
  return true;
}

std::optional<bool> Reader::ConsumeOldest() {
  std::unique_ptr<Chunk> c = std::move(in_flight_.front());
  in_flight_.pop_front();
  pool_->Wait(c.get());
  const RegionResult& r = c->result;
  for (size_t k = 0; k < r.count; ++k) sink_.OnEvent(c->events[k]);
  if (!r.unparsed && !r.failed && !r.closed_early) {
    free_chunks_.push_back(std::move(c));
    return std::nullopt;
  }
  // The region did not end at its cut. The reader takes back the chunk's
  // buffer, as the sequential reader held it there, and decides as that one
  // does (ApplyRegion); every byte read since is given back, to be read
  // again ahead of the source.
  std::vector<char> later;
  uint64_t known_end = c->base + c->end;
  auto take_after_known = [&](const char* d, uint64_t base, size_t end) {
    if (base + end <= known_end) return;
    later.insert(later.end(), d + (known_end - base), d + end);
    known_end = base + end;
  };
  for (const std::unique_ptr<Chunk>& k : in_flight_) {
    pool_->Wait(k.get());
    take_after_known(k->data(), k->base, k->end);
  }
  take_after_known(data(), base_, end_);
  later.insert(later.end(), given_back_.begin() + static_cast<std::ptrdiff_t>(given_back_pos_),
               given_back_.end());
  given_back_ = std::move(later);
  given_back_pos_ = 0;
  while (!in_flight_.empty()) {
    free_chunks_.push_back(std::move(in_flight_.front()));
    in_flight_.pop_front();
  }
  std::swap(c->storage, storage_);
  std::swap(c->storage_bytes, storage_bytes_);
  base_ = c->base;
  pos_ = c->begin;
  end_ = c->end;
  eof_ = c->eof;
  std::memset(data() + end_, ' ', simdjson::SIMDJSON_PADDING);
  const size_t cut = c->cut;
  const RegionResult result = r;
  free_chunks_.push_back(std::move(c));
  return ApplyRegion(result, cut);
}

std::optional<bool> Reader::Drain() {
  while (!in_flight_.empty()) {
    if (std::optional<bool> progressed = ConsumeOldest()) return progressed;
  }
  return std::nullopt;
}

bool Reader::ParseRegion(size_t begin, size_t cut) {
  const RegionResult r = DecodeRegion(
      tokens_, memo_, data(), begin, cut, [this]() -> RawEvent& { return event_; },
      [this](RawEvent& event) { sink_.OnEvent(event); });
  return ApplyRegion(r, cut);
}

bool Reader::ApplyRegion(const RegionResult& r, size_t cut) {
  if (r.unparsed) {
    // Read this region event by event.
    fallback_until_ = Offset(cut);
    return false;
  }
  if (r.closed_early) {
    pos_ = r.next;
    return true;
  }
  if (r.failed) {
    // Re-read the failing element exactly, then resume the fast path. The
    // exact path also takes the next eighth of the region: this attempt cost
    // O(cut - begin), so each one pays for itself in bytes consumed, and a
    // bad element in every few (`{...},1,{...},1`) stays linear instead of
    // re-indexing the rest of the region once per bad element (#17).
    pos_ = r.good_end;
    fallback_until_ = Offset(r.good_end) + std::max<size_t>(1, (cut - r.good_end) / 8);
    return r.count > 0;
  }
  pos_ = cut;
  return true;
}

Result<Reader::ElementOutcome> Reader::ScalarElement() {
  PERFDX_RETURN_IF_ERROR(SkipSpace(/*commas=*/true));
  if (pos_ == end_) return ElementOutcome::kEnd;
  if (data()[pos_] == ']') {
    ++pos_;
    return ElementOutcome::kArrayEnd;
  }
  scanner_.Reset();
  size_t consumed = 0;
  for (;;) {
    auto outcome = scanner_.Scan(data() + pos_, available(), &consumed);
    if (outcome == JsonScanner::Outcome::kComplete) break;
    if (outcome == JsonScanner::Outcome::kError) {
      sink_.OnBadEvent(LoadStat::kEventInvalidJson);
      pos_ += consumed;
      PERFDX_RETURN_IF_ERROR(Resync());
      return ElementOutcome::kContinue;
    }
    if (eof_) {
      if (!IsScalarStart(data()[pos_])) {
        ReportTruncation(
            fmt::format("truncated at byte {}: the file ends inside an event; the events "
                        "before it were read",
                        Offset(pos_)));
        pos_ = end_;
        return ElementOutcome::kEnd;
      }
      consumed = available();  // a scalar that runs to the end of the file
      break;
    }
    if (available() >= options_.max_event_bytes) {
      sink_.OnBadEvent(LoadStat::kEventTooLarge);
      PERFDX_RETURN_IF_ERROR(SkipOversizedValue(consumed));
      return ElementOutcome::kContinue;
    }
    PERFDX_RETURN_IF_ERROR(Fill(available() + options_.chunk_bytes));
  }
  if (data()[pos_] == '{') {
    DecodeOne(pos_, consumed);
  } else {
    sink_.OnBadEvent(LoadStat::kEventNotObject);
  }
  pos_ += consumed;
  return ElementOutcome::kContinue;
}

Status Reader::SkipOversizedValue(size_t consumed) {
  // Discard bytes as they are scanned; scanner_ keeps its state.
  for (;;) {
    pos_ += consumed;
    consumed = 0;
    PERFDX_RETURN_IF_ERROR(Fill(options_.chunk_bytes));
    if (available() == 0) {
      ReportTruncation(
          fmt::format("the file ends inside an oversized value (byte {})", Offset(pos_)));
      return Status::Ok();
    }
    auto outcome = scanner_.Scan(data() + pos_, available(), &consumed);
    if (outcome == JsonScanner::Outcome::kComplete) {
      pos_ += consumed;
      return Status::Ok();
    }
    if (outcome == JsonScanner::Outcome::kError) {
      pos_ += consumed;
      return Resync();
    }
  }
}

Status Reader::Resync() {
  // Skip to the next `,` ws* `{` — the likely start of the next event.
  for (;;) {
    const char* d = data();
    for (size_t i = pos_; i < end_; ++i) {
      if (d[i] != ',') continue;
      size_t j = i + 1;
      while (j < end_ && IsJsonSpace(d[j])) ++j;
      if (j == end_ && !eof_) break;  // need more bytes to decide
      if (j < end_ && d[j] == '{') {
        pos_ = j;
        return Status::Ok();
      }
    }
    if (eof_) {
      pos_ = end_;
      return Status::Ok();
    }
    // Keep a short tail that may hold the start of the pattern.
    pos_ = end_ > pos_ + 64 ? end_ - 64 : pos_;
    const size_t before = available();
    PERFDX_RETURN_IF_ERROR(Fill(available() + options_.chunk_bytes));
    if (available() == before && eof_) {
      pos_ = end_;
      return Status::Ok();
    }
  }
}

error_code Reader::TryDecode(size_t length) {
  if (auto e = tokens_.Index(scratch_.data(), length)) return e;
  if (tokens_.At(0) != '{') return simdjson::INCORRECT_TYPE;
  event_.Clear();
  error_code error = SUCCESS;
  if (DecodeEvent(tokens_, 0, event_, memo_, &error) == JsonTokens::kBad) {
    return error != SUCCESS ? error : simdjson::TAPE_ERROR;
  }
  return SUCCESS;
}

void Reader::DecodeOne(size_t begin, size_t length) {
  scratch_.assign(data() + begin, length);
  scratch_.resize(length + simdjson::SIMDJSON_PADDING, ' ');
  error_code e = TryDecode(length);
  if (e == SUCCESS) {
    sink_.OnEvent(event_);
    return;
  }
  // Strict-JSON violations real profilers emit: repair, then try again.
  const size_t bad_utf8 = ReplaceInvalidUtf8(scratch_.data(), length, '?');
  const size_t control = ReplaceControlCharsInStrings(scratch_.data(), length);
  bool repaired = false;
  if (bad_utf8 + control > 0) e = TryDecode(length);
  if (e != SUCCESS) {
    repaired = RepairJson(scratch_, &length);
    if (repaired) e = TryDecode(length);
  }
  if (e != SUCCESS) {
    sink_.OnBadEvent(LoadStat::kEventInvalidJson);
    return;
  }
  if (bad_utf8 > 0) sink_.OnStat(LoadStat::kEventInvalidUtf8Replaced);
  if (control > 0) sink_.OnStat(LoadStat::kEventControlCharsReplaced);
  if (repaired) sink_.OnStat(LoadStat::kEventRepaired);
  sink_.OnEvent(event_);
}

}  // namespace

Status ParseChromeJson(io::ByteSource& source, const ChromeJsonOptions& options,
                       ChromeEventSink& sink, TraceEnvelope* envelope) {
  Reader reader(source, options, sink, envelope);
  return reader.Run();
}

}  // namespace perfdx::formats
