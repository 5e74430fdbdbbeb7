#include "perfdx/report/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "perfdx/report/html_text.h"

namespace perfdx::report::svg {
namespace {

constexpr double kWidth = 960;
constexpr int kMaxXLabels = 12;

// Coordinates with one decimal: deterministic and small.
std::string C(double v) {
  return fmt::format("{:.1f}", std::isfinite(v) ? v : 0.0);
}

// 1, 2 or 5 times a power of ten, the first at least `raw`.
double NiceStep(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

// The axis from 0 to a round value at or above `max`, in about four steps.
struct Axis {
  double max = 1;
  double step = 1;
};
// `binary`: round in powers of 1024 (bytes: 4 GiB steps, not 4.29e9).
Axis MakeAxis(double max, bool binary = false) {
  Axis a;
  if (!(max > 0) || !std::isfinite(max)) return a;
  double unit = 1;
  while (binary && max / unit >= 1024) unit *= 1024;
  a.step = NiceStep(max / unit / 4) * unit;
  a.max = std::ceil(max / a.step - 1e-9) * a.step;
  return a;
}

std::string Open(const std::string& id, const std::string& label, double height) {
  return fmt::format(
      "<svg id=\"{}\" class=\"chart\" viewBox=\"0 0 {} {}\" "
      "role=\"img\" aria-label=\"{}\"><title>{}</title>\n",
      EscapeHtml(id), C(kWidth), C(height), EscapeHtml(label), EscapeHtml(label));
}

std::string Title(const std::string& tip) {
  return tip.empty() ? std::string() : "<title>" + EscapeHtml(tip) + "</title>";
}

// Horizontal grid lines and labels of a vertical axis.
std::string YAxis(const Axis& axis, double left, double right, double top, double bottom,
                  Formatter format) {
  std::string out;
  const int steps = static_cast<int>(std::lround(axis.max / axis.step));
  for (int i = 0; i <= steps; ++i) {
    const double v = axis.step * i;
    const double y = bottom - (bottom - top) * v / axis.max;
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", C(left),
                       C(y), C(right), C(y));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                       C(left - 6), C(y + 4), EscapeHtml(format(v)));
  }
  return out;
}

// Labels under `n` evenly spaced slots, at most kMaxXLabels of them.
template <typename LabelOf>
std::string XLabels(size_t n, double left, double slot, double y, LabelOf label_of) {
  std::string out;
  const size_t every = std::max<size_t>(1, (n + kMaxXLabels - 1) / kMaxXLabels);
  for (size_t i = 0; i < n; i += every) {
    out +=
        fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    C(left + slot * (static_cast<double>(i) + 0.5)), C(y), EscapeHtml(label_of(i)));
  }
  return out + "\n";
}

std::string Empty(const std::string& id, const std::string& label) {
  return Open(id, label, 40) +
         "<text class=\"tick\" x=\"10\" y=\"24\">nothing to draw: the report has no such "
         "data</text></svg>\n";
}

}  // namespace

std::string PointChart(const std::string& id, const std::string& label, const PointChartData& data,
                       Formatter y_format) {
  if (data.points.empty()) return Empty(id, label);
  constexpr double kHeight = 260, kLeft = 78, kRight = kWidth - 16, kTop = 14, kBottom = 226;
  double max = 0;
  for (const Point& p : data.points) max = std::max(max, p.value);
  for (const Reference& r : data.references) max = std::max(max, r.value);
  const Axis axis = MakeAxis(max);
  const double slot = (kRight - kLeft) / static_cast<double>(data.points.size());
  auto x_of = [&](size_t i) { return kLeft + slot * (static_cast<double>(i) + 0.5); };
  auto y_of = [&](double v) { return kBottom - (kBottom - kTop) * v / axis.max; };

  std::string out = Open(id, label, kHeight);
  out += YAxis(axis, kLeft, kRight, kTop, kBottom, y_format);
  out += XLabels(data.points.size(), kLeft, slot, kBottom + 18,
                 [&](size_t i) { return data.points[i].label; });
  // Labels at the right end, above their line; one that would overlap the
  // last one (close lines: median and p90) goes to its left instead.
  double last_y = -1e9, last_left = kRight - 4;
  for (const Reference& r : data.references) {
    const double y = y_of(r.value);
    double label_x = kRight - 4;
    if (std::fabs(y - last_y) < 14) label_x = last_left - 12;
    last_y = y;
    // About 6.6 px per character of the 12 px label font.
    last_left = label_x - 6.6 * static_cast<double>(r.name.size());
    out += fmt::format(
        "<line class=\"ref {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"ref-label "
        "{}\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        EscapeHtml(r.css), C(kLeft), C(y), C(kRight), C(y), EscapeHtml(r.css), C(label_x), C(y - 5),
        EscapeHtml(r.name));
  }
  if (data.points.size() > 1) {
    out += "<polyline class=\"series\" points=\"";
    for (size_t i = 0; i < data.points.size(); ++i) {
      out += fmt::format("{}{},{}", i ? " " : "", C(x_of(i)), C(y_of(data.points[i].value)));
    }
    out += "\"/>\n";
  }
  const double r = data.points.size() > 200 ? 1.5 : 3.5;
  for (size_t i = 0; i < data.points.size(); ++i) {
    const Point& p = data.points[i];
    out += fmt::format("<circle class=\"mark pt{}\" cx=\"{}\" cy=\"{}\" r=\"{}\">{}</circle>\n",
                       p.marked ? " outlier" : "", C(x_of(i)), C(y_of(p.value)),
                       C(p.marked ? r + 2.5 : r), Title(p.tip));
  }
  out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", C(kLeft),
                     C(kBottom), C(kRight), C(kBottom));
  return out + "</svg>\n";
}

std::string StackedBarChart(const std::string& id, const std::string& label,
                            const StackedBarData& data, Formatter y_format) {
  if (data.bars.empty()) return Empty(id, label);
  constexpr double kHeight = 280, kLeft = 78, kRight = kWidth - 16, kTop = 14, kBottom = 246;
  double max = 0;
  for (const Bar& b : data.bars) {
    double sum = 0;
    for (double v : b.values) sum += std::max(0.0, v);
    max = std::max(max, sum);
  }
  const Axis axis = MakeAxis(max);
  const double slot = (kRight - kLeft) / static_cast<double>(data.bars.size());
  const double width = std::max(0.5, slot * (data.bars.size() > 60 ? 0.9 : 0.7));
  auto h_of = [&](double v) { return (kBottom - kTop) * v / axis.max; };

  std::string out = Open(id, label, kHeight);
  out += YAxis(axis, kLeft, kRight, kTop, kBottom, y_format);
  out += XLabels(data.bars.size(), kLeft, slot, kBottom + 18,
                 [&](size_t i) { return data.bars[i].label; });
  for (size_t i = 0; i < data.bars.size(); ++i) {
    const Bar& b = data.bars[i];
    const double x = kLeft + slot * static_cast<double>(i) + (slot - width) / 2;
    double y = kBottom;
    for (size_t l = 0; l < b.values.size() && l < data.layers.size(); ++l) {
      if (!(b.values[l] > 0)) continue;
      const double h = h_of(b.values[l]);
      y -= h;
      out += fmt::format(
          "<rect class=\"mark seg {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n",
          EscapeHtml(data.layers[l].css), C(x), C(y), C(width), C(h),
          Title(l < b.tips.size() ? b.tips[l] : ""));
    }
  }
  out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", C(kLeft),
                     C(kBottom), C(kRight), C(kBottom));
  return out + "</svg>\n";
}

std::string TimelineChart(const std::string& id, const std::string& label, const TimelineData& data,
                          Formatter x_format) {
  if (data.lanes.empty() || !(data.end > data.start)) return Empty(id, label);
  constexpr double kLeft = 130, kRight = kWidth - 16, kTop = 10, kLaneH = 30, kLaneGap = 10;
  const double bottom = kTop + static_cast<double>(data.lanes.size()) * (kLaneH + kLaneGap);
  const double height = bottom + 30;
  const double span = data.end - data.start;
  auto x_of = [&](double t) {
    return kLeft + (kRight - kLeft) * std::clamp((t - data.start) / span, 0.0, 1.0);
  };

  std::string out = Open(id, label, height);
  const Axis axis = MakeAxis(span);
  const int ticks = static_cast<int>(std::lround(axis.max / axis.step));
  for (int i = 0; i <= ticks; ++i) {
    const double v = axis.step * i;
    if (v > span * (1 + 1e-9)) break;
    const double x = x_of(data.start + v);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"tick\" "
        "x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        C(x), C(kTop), C(x), C(bottom), C(x), C(bottom + 18), EscapeHtml(x_format(v)));
  }
  for (const Boundary& b : data.boundaries) {
    const double x = x_of(b.at);
    out += fmt::format("<line class=\"boundary\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">{}</line>",
                       C(x), C(kTop - 4), C(x), C(bottom), Title(b.label));
  }
  out += "\n";
  for (size_t l = 0; l < data.lanes.size(); ++l) {
    const Lane& lane = data.lanes[l];
    const double top = kTop + static_cast<double>(l) * (kLaneH + kLaneGap);
    out += fmt::format(
        "<rect class=\"lane\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/><text "
        "class=\"lane-label\" "
        "x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        C(kLeft), C(top), C(kRight - kLeft), C(kLaneH), C(kLeft - 8), C(top + kLaneH / 2 + 4),
        EscapeHtml(lane.name));
    for (const Span& s : lane.spans) {
      if (!(s.fill > 0)) continue;  // nothing of that kind in the span
      const double x0 = x_of(s.start);
      const double w = std::max(0.6, x_of(s.end) - x0);  // a short gap stays visible
      const double h = kLaneH * std::clamp(s.fill, 0.0, 1.0);
      out += fmt::format(
          "<rect class=\"mark span {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n",
          EscapeHtml(s.css), C(x0), C(top + kLaneH - h), C(w), C(h), Title(s.tip));
    }
  }
  return out + "</svg>\n";
}

std::string HBarChart(const std::string& id, const std::string& label, const HBarData& data,
                      Formatter x_format) {
  if (data.bars.empty()) return Empty(id, label);
  constexpr double kLeft = 200, kRight = kWidth - 24, kTop = 8, kRowH = 24;
  const double bottom = kTop + static_cast<double>(data.bars.size()) * kRowH;
  const double height = bottom + 30;
  double max = data.max;
  if (!(max > 0)) {
    for (const HBar& b : data.bars) {
      double sum = 0;
      for (const HSegment& s : b.segments) sum += std::max(0.0, s.value);
      max = std::max(max, sum);
    }
  }
  const Axis axis =
      data.max > 0 ? Axis{data.max, NiceStep(data.max / 4)} : MakeAxis(max, data.binary);
  auto w_of = [&](double v) { return (kRight - kLeft) * v / axis.max; };

  std::string out = Open(id, label, height);
  const int ticks = static_cast<int>(std::floor(axis.max / axis.step + 1e-9));
  for (int i = 0; i <= ticks; ++i) {
    const double v = axis.step * i;
    const double x = kLeft + w_of(v);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"tick\" "
        "x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        C(x), C(kTop), C(x), C(bottom), C(x), C(bottom + 18), EscapeHtml(x_format(v)));
  }
  for (size_t i = 0; i < data.bars.size(); ++i) {
    const HBar& b = data.bars[i];
    const double top = kTop + static_cast<double>(i) * kRowH;
    out +=
        fmt::format("<text class=\"lane-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}{}</text>",
                    C(kLeft - 8), C(top + kRowH / 2 + 4), Title(b.label_tip), EscapeHtml(b.label));
    double x = kLeft;
    for (const HSegment& s : b.segments) {
      if (!(s.value > 0) || s.layer >= data.layers.size()) continue;
      const double w = std::min(w_of(s.value), kRight - x);
      out += fmt::format(
          "<rect class=\"mark hseg {}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n",
          EscapeHtml(data.layers[s.layer].css), C(x), C(top + 4), C(std::max(0.0, w)), C(kRowH - 8),
          Title(s.tip));
      x += w;
    }
  }
  return out + "</svg>\n";
}

std::string StripChart(const std::string& id, const std::string& label, const StripData& data,
                       Formatter x_format) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto take = [&](double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const StripRow& r : data.rows) {
    for (double v : r.values) take(v);
  }
  if (!(hi >= lo)) return Empty(id, label);
  for (const StripBand& b : data.bands) {
    take(b.low);
    take(b.high);
  }
  // Round ends around the values, in about four steps; a single value gets
  // a range around it.
  const double step = NiceStep(hi > lo ? (hi - lo) / 4 : std::max(std::fabs(hi), 1.0) / 4);
  double axis_lo = std::floor(lo / step + 1e-9) * step;
  double axis_hi = std::ceil(hi / step - 1e-9) * step;
  if (!(axis_hi > axis_lo)) {
    axis_lo -= step;
    axis_hi += step;
  }
  constexpr double kTop = 10, kRowH = 44, kRowGap = 10;
  const double bottom = kTop + static_cast<double>(data.rows.size()) * (kRowH + kRowGap);
  const double height = bottom + 30;
  auto x_of = [&](double v) {
    return kStripLeft + (kStripRight - kStripLeft) * (v - axis_lo) / (axis_hi - axis_lo);
  };

  std::string out = Open(id, label, height);
  // Lanes, the grid and the bands over them, then the dots and medians on top.
  for (size_t r = 0; r < data.rows.size(); ++r) {
    const double top = kTop + static_cast<double>(r) * (kRowH + kRowGap);
    const double mid = top + kRowH / 2;
    out += fmt::format(
        "<rect class=\"lane\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/><text "
        "class=\"lane-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
        C(kStripLeft), C(top), C(kStripRight - kStripLeft), C(kRowH), C(kStripLeft - 8), C(mid + 4),
        EscapeHtml(data.rows[r].name));
  }
  const int ticks = static_cast<int>(std::lround((axis_hi - axis_lo) / step));
  for (int i = 0; i <= ticks; ++i) {
    const double v = axis_lo + step * i;
    const double x = x_of(v);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text class=\"tick\" "
        "x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        C(x), C(kTop), C(x), C(bottom), C(x), C(bottom + 18), EscapeHtml(x_format(v)));
  }
  for (const StripBand& b : data.bands) {
    const double x0 = x_of(std::min(b.low, b.high));
    out += fmt::format(
        "<rect class=\"band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n", C(x0),
        C(kTop - 4), C(x_of(std::max(b.low, b.high)) - x0), C(bottom - kTop + 4), Title(b.tip));
  }
  for (size_t r = 0; r < data.rows.size(); ++r) {
    const StripRow& row = data.rows[r];
    const double top = kTop + static_cast<double>(r) * (kRowH + kRowGap);
    const double mid = top + kRowH / 2;
    // Dots spread over seven heights by their index, so that equal values
    // stay apart (deterministic, unlike random jitter).
    const double radius = row.values.size() > 200 ? 2 : 3.5;
    for (size_t i = 0; i < row.values.size(); ++i) {
      const double dy = (static_cast<double>(i % 7) - 3) * (kRowH - 10) / 6;
      out += fmt::format("<circle class=\"mark dot {}\" cx=\"{}\" cy=\"{}\" r=\"{}\">{}</circle>\n",
                         EscapeHtml(row.css), C(x_of(row.values[i])), C(mid + dy), C(radius),
                         Title(i < row.tips.size() ? row.tips[i] : ""));
    }
    const double mx = x_of(row.median);
    out += fmt::format("<line class=\"median\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">{}</line>\n",
                       C(mx), C(top - 2), C(mx), C(top + kRowH + 2), Title(row.median_tip));
  }
  return out + "</svg>\n";
}

std::string Legend(const std::vector<Layer>& layers) {
  std::string out = "<ul class=\"legend\">";
  for (const Layer& l : layers) {
    out += fmt::format("<li><span class=\"sw {}\"></span>{}</li>", EscapeHtml(l.css),
                       EscapeHtml(l.name));
  }
  return out + "</ul>\n";
}

}  // namespace perfdx::report::svg
