// Inline SVG charts for the HTML report, drawn from numbers the caller hands
// over (the renderer's AnalyzeReport fields): the charts scale and place
// marks, they compute no metric. Every mark is an element of class "mark"
// (tests count them) with a <title> tooltip; colours come from CSS classes,
// so the page's light, dark and print styles apply. Output is deterministic
// (fixed-precision coordinates, no ids beyond the caller's).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace perfdx::report::svg {

// Axis labels: a value in the chart's unit (ns, bytes, share) as text.
using Formatter = std::string (*)(double);

// A series one colour stands for: its legend name and CSS class.
struct Layer {
  std::string name;
  std::string css;
};

// One value per labelled point, e.g. step times by step id.
struct Point {
  std::string label;
  double value = 0;
  bool marked = false;  // drawn as an outlier
  std::string tip;
};
struct Reference {  // a horizontal line across the chart (median, p90)
  std::string name;
  double value = 0;
  std::string css;
};
struct PointChartData {
  std::vector<Point> points;
  std::vector<Reference> references;
};
// Points "mark pt" (marked ones also "outlier") joined by a line.
std::string PointChart(const std::string& id, const std::string& label, const PointChartData& data,
                       Formatter y_format);

// Vertical bars of stacked segments, e.g. each step's phases.
struct Bar {
  std::string label;
  std::vector<double> values;     // one per layer
  std::vector<std::string> tips;  // one per layer
};
struct StackedBarData {
  std::vector<Layer> layers;
  std::vector<Bar> bars;
};
// One "mark seg <layer css>" rect per non-zero segment.
std::string StackedBarChart(const std::string& id, const std::string& label,
                            const StackedBarData& data, Formatter y_format);

// Lanes over a time axis: spans at their place on the clock, each filling
// `fill` (0..1) of its lane's height from the bottom.
struct Span {
  double start = 0;
  double end = 0;
  double fill = 1;
  std::string css;
  std::string tip;
};
struct Lane {
  std::string name;
  std::vector<Span> spans;
};
struct Boundary {  // a vertical line, e.g. where a step starts
  double at = 0;
  std::string label;
};
struct TimelineData {
  double start = 0;  // the axis: labels show the time since `start`
  double end = 0;
  std::vector<Lane> lanes;
  std::vector<Boundary> boundaries;
};
// One "mark span <css>" rect per span with a fill above 0.
std::string TimelineChart(const std::string& id, const std::string& label, const TimelineData& data,
                          Formatter x_format);

// Horizontal bars of stacked segments, e.g. memory per device, time shares
// per rank.
struct HSegment {
  size_t layer = 0;
  double value = 0;
  std::string tip;
};
struct HBar {
  std::string label;      // shown (shorten it first)
  std::string label_tip;  // the full label on hover
  std::vector<HSegment> segments;
};
struct HBarData {
  std::vector<Layer> layers;
  std::vector<HBar> bars;
  double max = 0;       // the axis' end; 0: the longest bar
  bool binary = false;  // values in bytes: axis steps in powers of 1024
};
// One "mark hseg <layer css>" rect per non-zero segment.
std::string HBarChart(const std::string& id, const std::string& label, const HBarData& data,
                      Formatter x_format);

// Rows of values on one shared horizontal axis, one dot per value, e.g. the
// step times of two runs side by side. The axis runs from a round value at or
// below the smallest value (or band edge) to one at or above the largest, over
// x = kStripLeft .. kStripRight of the chart's 960-wide viewBox.
inline constexpr double kStripLeft = 130;
inline constexpr double kStripRight = 920;  // room for the last tick label
struct StripRow {
  std::string name;  // the row's label
  std::string css;   // the class of its dots
  std::vector<double> values;
  std::vector<std::string> tips;  // one per value, or none
  double median = 0;              // drawn as a bar across the row
  std::string median_tip;
};
struct StripBand {  // a range shaded across every row (a tolerance)
  double low = 0;
  double high = 0;
  std::string tip;
};
struct StripData {
  std::vector<StripRow> rows;
  std::vector<StripBand> bands;
};
// One "mark dot <row css>" circle per value, one "median" line per row and
// one "band" rect per band.
std::string StripChart(const std::string& id, const std::string& label, const StripData& data,
                       Formatter x_format);

// The layers as an HTML legend (<ul class="legend">).
std::string Legend(const std::vector<Layer>& layers);

}  // namespace perfdx::report::svg
