#include "perfdx/formats/ascend/profiler_info.h"

#include <filesystem>

#include <simdjson.h>

#include "perfdx/base/strings.h"

namespace perfdx::formats {
namespace {

namespace fs = std::filesystem;
using model::AscendData;
using side_file::Ascend;
using side_file::FilesLike;
using side_file::JsonBool;
using side_file::JsonInt;
using side_file::JsonString;
using side_file::ReadSideJson;
using side_file::ScalarText;

void ParseProfilerInfo(simdjson::dom::element doc, model::AscendProfilerConfig* c) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  simdjson::dom::object config;
  if (root["config"].get(config) == simdjson::SUCCESS) {
    simdjson::dom::object common;
    if (config["common_config"].get(common) == simdjson::SUCCESS) {
      simdjson::dom::array activities;
      if (common["activities"].get(activities) == simdjson::SUCCESS) {
        for (simdjson::dom::element a : activities) c->activities.push_back(ScalarText(a));
      }
      c->record_shapes = JsonBool(common, "record_shapes");
      c->profile_memory = JsonBool(common, "profile_memory");
      c->with_stack = JsonBool(common, "with_stack");
      c->with_modules = JsonBool(common, "with_modules");
      c->with_flops = JsonBool(common, "with_flops");
    }
    simdjson::dom::object exp;
    if (config["experimental_config"].get(exp) == simdjson::SUCCESS) {
      c->profiler_level = JsonString(exp, "_profiler_level");
      c->aic_metrics = JsonString(exp, "_aic_metrics");
      c->l2_cache = JsonBool(exp, "_l2_cache");
      c->data_simplification = JsonBool(exp, "_data_simplification");
      simdjson::dom::element export_type;
      if (exp["_export_type"].get(export_type) == simdjson::SUCCESS) {
        simdjson::dom::array list;
        if (export_type.get(list) == simdjson::SUCCESS) {
          for (simdjson::dom::element t : list) c->export_types.push_back(ScalarText(t));
        } else if (!ScalarText(export_type).empty()) {
          c->export_types.push_back(ScalarText(export_type));
        }
      }
    }
  }
  c->torch_npu_version = JsonString(root, "torch_npu_version");
  c->cann_version = JsonString(root, "cann_version");
  simdjson::dom::element rank;
  if (root["rank_id"].get(rank) == simdjson::SUCCESS) c->rank_id = JsonInt(rank);
  simdjson::dom::element end;
  if (root.at_pointer("/end_info/collectionTimeEnd").get(end) == simdjson::SUCCESS) {
    c->collection_end_ns = JsonInt(end);
  }
}

void ParseMetadata(simdjson::dom::element doc, AscendData* a) {
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) return;
  simdjson::dom::object env;
  if (root["ENV_VARIABLES"].get(env) == simdjson::SUCCESS) {
    for (auto [key, value] : env) a->env_variables[std::string(key)] = ScalarText(value);
  }
  simdjson::dom::object args;
  if (root["distributed_args"].get(args) == simdjson::SUCCESS) {
    for (auto [key, value] : args) a->distributed_args[std::string(key)] = ScalarText(value);
  }
  simdjson::dom::object groups;
  if (root["parallel_group_info"].get(groups) == simdjson::SUCCESS) {
    for (auto [key, value] : groups) {
      model::AscendParallelGroup g;
      g.key = std::string(key);
      simdjson::dom::object o;
      if (value.get(o) == simdjson::SUCCESS) {
        g.name = JsonString(o, "group_name");
        simdjson::dom::element rank;
        if (o["group_rank"].get(rank) == simdjson::SUCCESS)
          g.group_rank = JsonInt(rank).value_or(-1);
        simdjson::dom::array ranks;
        if (o["global_ranks"].get(ranks) == simdjson::SUCCESS) {
          for (simdjson::dom::element r : ranks) {
            if (auto v = JsonInt(r)) g.global_ranks.push_back(*v);
          }
        }
      }
      a->parallel_groups.push_back(std::move(g));
    }
  }
}

}  // namespace

bool ParseProfilerMetadataJson(std::string_view json, model::AscendData* ascend) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(simdjson::padded_string(SkipUtf8Bom(json))).get(doc) != simdjson::SUCCESS) {
    return false;
  }
  ParseMetadata(doc, ascend);
  return true;
}

void ReadProfilerInfoFiles(const std::string& profile_dir, const AscendSideOptions& options,
                           model::Trace* trace) {
  AscendData& a = Ascend(trace);
  const fs::path dir(profile_dir);
  // profiler_info_{rank}.json, or profiler_info.json when not distributed.
  std::vector<fs::path> infos = FilesLike(dir, "profiler_info", ".json");
  for (const fs::path& p : infos) {
    ReadSideJson(p, options, trace,
                 [&](simdjson::dom::element doc) { ParseProfilerInfo(doc, &a.config); });
    break;  // one per folder
  }
  ReadSideJson(dir / "profiler_metadata.json", options, trace,
               [&](simdjson::dom::element doc) { ParseMetadata(doc, &a); });
}

}  // namespace perfdx::formats
