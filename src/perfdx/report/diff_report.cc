#include "perfdx/report/diff_report.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perfdx/base/json_writer.h"
#include "perfdx/report/text_layout.h"
#include "perfdx/report/text_table.h"
#include "perfdx/report/units.h"

namespace perfdx::report {
namespace {

using baseline::DiffResult;
using baseline::ItemDelta;
using baseline::ValueDelta;

void WriteOptional(JsonWriter& w, const std::optional<double>& v) {
  v ? w.Double(*v) : w.Null();
}

void WriteItem(JsonWriter& w, const ItemDelta& d) {
  w.BeginObject();
  w.Key("name").String(d.name);
  w.Key("kind").String(d.kind);
  w.Key("base_ns").Int(d.base_ns);
  w.Key("new_ns").Int(d.new_ns);
  w.Key("base_count").Uint(d.base_count);
  w.Key("new_count").Uint(d.new_count);
  w.Key("delta_ns_per_step").Double(d.delta_ns_per_step());
  w.EndObject();
}

std::string SignedDuration(double ns) {
  const std::string magnitude = FormatDuration(static_cast<int64_t>(std::llround(std::fabs(ns))));
  return (ns < 0 ? "-" : "+") + magnitude;
}

bool IsDuration(const std::string& key) {
  return key.ends_with("_ns");
}
bool IsShare(const std::string& key) {
  return baseline::IsShareMetric(key);
}

std::string FormatValue(const std::string& key, const std::optional<double>& v) {
  if (!v) return "-";
  if (IsDuration(key)) return FormatDuration(static_cast<int64_t>(std::llround(*v)));
  if (IsShare(key)) return FormatShare(*v);
  return fmt::format("{:.4g}", *v);
}

std::string FormatChange(const ValueDelta& d) {
  const std::optional<double> delta = d.delta();
  if (!delta) return "";
  if (IsShare(d.name)) return fmt::format("{:+.1f} pts", *delta * 100);
  const std::optional<double> rel = d.relative();
  if (IsDuration(d.name)) {
    return rel ? fmt::format("{} ({:+.1f}%)", SignedDuration(*delta), *rel * 100)
               : SignedDuration(*delta);
  }
  return rel ? fmt::format("{:+.4g} ({:+.1f}%)", *delta, *rel * 100)
             : fmt::format("{:+.4g}", *delta);
}

void ItemRows(std::string& out, const std::vector<ItemDelta>& items, size_t top, bool show_both,
              size_t width) {
  TextTable table({{.header = "name", .shrink = true},
                   {.header = "kind"},
                   {.header = "per step", .right = true},
                   {.header = "calls", .drop = 1}},
                  false);
  for (size_t i = 0; i < items.size() && i < top; ++i) {
    const ItemDelta& d = items[i];
    if (show_both) {
      table.AddRow({d.name, d.kind, SignedDuration(d.delta_ns_per_step()) + "/step",
                    fmt::format("x{} -> x{}", d.base_count, d.new_count)});
    } else {
      const bool added = d.base_count == 0;
      table.AddRow({d.name, d.kind,
                    FormatDuration(static_cast<int64_t>(
                        std::llround(added ? d.new_ns_per_step : d.base_ns_per_step))) +
                        "/step",
                    fmt::format("x{}", added ? d.new_count : d.base_count)});
    }
  }
  AppendLines(out, table.Render(width, 4));
  if (const std::string note = DroppedColumnsNote(table, width, "--format json"); !note.empty()) {
    AppendLines(out, Wrap(note, width, "    ", 5));
  }
  if (items.size() > top)
    out += fmt::format("    ... {} more (--top, or --format json)\n", items.size() - top);
}

}  // namespace

std::string RenderDiffJson(const DiffResult& d) {
  JsonWriter w;
  w.BeginObject();
  w.Key("base")
      .BeginObject()
      .Key("label")
      .String(d.base_label)
      .Key("steps")
      .Uint(d.base_steps)
      .EndObject();
  w.Key("new")
      .BeginObject()
      .Key("label")
      .String(d.new_label)
      .Key("steps")
      .Uint(d.new_steps)
      .EndObject();
  w.Key("added").BeginArray();
  for (const ItemDelta& i : d.added) w.String(i.name);
  w.EndArray();
  w.Key("removed").BeginArray();
  for (const ItemDelta& i : d.removed) w.String(i.name);
  w.EndArray();
  w.Key("changed").BeginArray();
  for (const ItemDelta& i : d.changed) WriteItem(w, i);
  w.EndArray();
  w.Key("added_items").BeginArray();
  for (const ItemDelta& i : d.added) WriteItem(w, i);
  w.EndArray();
  w.Key("removed_items").BeginArray();
  for (const ItemDelta& i : d.removed) WriteItem(w, i);
  w.EndArray();
  w.Key("unchanged").Uint(d.unchanged);
  w.Key("items_complete").Bool(d.items_complete);
  w.Key("metrics").BeginObject();
  for (const ValueDelta& m : d.metrics) {
    w.Key(m.name).BeginObject();
    w.Key("base");
    WriteOptional(w, m.base);
    w.Key("new");
    WriteOptional(w, m.current);
    w.Key("delta");
    WriteOptional(w, m.delta());
    w.Key("relative");
    WriteOptional(w, m.relative());
    w.EndObject();
  }
  w.EndObject();
  w.Key("phases").BeginObject();
  for (const ValueDelta& p : d.phases) {
    w.Key(p.name).BeginObject();
    w.Key("base_ns_per_step");
    WriteOptional(w, p.base);
    w.Key("new_ns_per_step");
    WriteOptional(w, p.current);
    w.Key("delta_ns_per_step");
    WriteOptional(w, p.delta());
    w.EndObject();
  }
  w.EndObject();
  w.Key("notes").Strings(d.notes);
  w.EndObject();
  return w.TakeDocument();
}

std::string RenderDiffText(const DiffResult& d, size_t top, int width) {
  const auto columns = static_cast<size_t>(std::max(width, 40));
  std::string out;
  AppendLines(out, Wrap(fmt::format("{} ({} steps)", d.base_label, d.base_steps), columns,
                        "diff  base ", 11));
  AppendLines(out, Wrap(fmt::format("{} ({} steps)", d.new_label, d.new_steps), columns,
                        "      new  ", 11));
  // Each value's base, new and change, right-aligned under each other.
  auto values = [&](const std::vector<ValueDelta>& rows, std::string_view key_suffix) {
    TextTable table({{.header = "name", .shrink = true},
                     {.header = "base", .right = true},
                     {.header = "new", .right = true},
                     {.header = "change"}},
                    false);
    for (const ValueDelta& v : rows) {
      const std::string key = v.name + std::string(key_suffix);
      table.AddRow({v.name, FormatValue(key, v.base), FormatValue(key, v.current),
                    FormatChange(ValueDelta{key, v.base, v.current})});
    }
    AppendLines(out, table.Render(columns, 2));
  };
  out += "\nMETRICS\n";
  values(d.metrics, "");
  if (!d.phases.empty()) {
    out += "\nSTEP PHASES (mean per step)\n";
    values(d.phases, "_ns");
  }
  if (d.items_complete) {
    out += fmt::format("\nADDED ({}) — only in the new run\n", d.added.size());
    ItemRows(out, d.added, top, false, columns);
    out += fmt::format("\nREMOVED ({}) — only in the base run\n", d.removed.size());
    ItemRows(out, d.removed, top, false, columns);
  }
  out += fmt::format("\nCHANGED ({}; {} unchanged) — by time per step\n", d.changed.size(),
                     d.unchanged);
  ItemRows(out, d.changed, top, true, columns);
  for (const std::string& n : d.notes) {
    out += '\n';
    AppendLines(out, Wrap(n, columns, "note: ", 4));
  }
  return out;
}

}  // namespace perfdx::report
