#include "perfdx/report/html_page.h"

#include "perfdx/report/html_text.h"

namespace perfdx::report {
namespace {

constexpr std::string_view kStyle = R"CSS(
:root{--bg:#fff;--fg:#1d232a;--muted:#5b6670;--border:#d5dbe1;--card:#f5f7f9;--accent:#1f5fbf;
--code:#eef1f4;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;color-scheme:light dark}
@media screen and (prefers-color-scheme:dark){:root{--bg:#111417;--fg:#e4e8ec;--muted:#9aa5b1;
--border:#2f373f;--card:#1a1f25;--accent:#79b0ff;--code:#222a32;--ok:#4ac26b;--warn:#d4a72c;
--bad:#ff7b72}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,
"Segoe UI",Roboto,"Noto Sans",sans-serif}
header.page,main,nav{max-width:1320px;margin:0 auto;padding:0 24px}
header.page{padding-top:20px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.35em;margin:1.6em 0 .4em;padding-top:.4em;
border-top:2px solid var(--border)}main>section:first-child>h2{border-top:none}h3{font-size:1.1em;margin:1.4em 0 .4em}
h4{font-size:1em;margin:0;display:inline}
a{color:var(--accent)}
.muted,.note{color:var(--muted)}.note{font-size:.9em;margin:.3em 0 .8em}
nav{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--border);
padding-top:6px;padding-bottom:6px;z-index:2;font-size:.9em}
nav a,p.parts a{margin-right:1em;text-decoration:none;white-space:nowrap}
p.parts{font-size:.9em}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
pre{background:var(--code);padding:8px 10px;border-radius:6px;overflow-x:auto;margin:.4em 0}
code{background:var(--code);padding:0 3px;border-radius:3px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:.6em 0}
.card{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:8px 14px;
min-width:150px}.card b{display:block;font-size:1.3em}.card span{color:var(--muted);font-size:.85em}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:.5em 0}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
.tablewrap{overflow-x:auto;margin:.4em 0 1em}
.tablewrap.long{max-height:40em;overflow-y:auto;border-bottom:1px solid var(--border)}
.tablewrap.long th{position:sticky;top:0;z-index:1}
table{border-collapse:collapse;font-size:.9em}
th,td{border-bottom:1px solid var(--border);padding:4px 7px;text-align:left;vertical-align:top}
th{background:var(--card);position:relative;white-space:nowrap}
td.num,th.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th[aria-sort=ascending]::after{content:" \25B2"}
table.sortable th[aria-sort=descending]::after{content:" \25BC"}
td.name{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;
min-width:16em;max-width:28em;overflow-wrap:anywhere}
td.full{max-width:30em}td.full summary{white-space:nowrap;font-size:.85em}
td.full code.copy{user-select:all;overflow-wrap:anywhere;font-size:.8em;display:block;
min-width:20em;cursor:copy}
.sharebar{display:inline-block;width:48px;height:8px;background:var(--code);margin-right:6px;
vertical-align:middle;border-radius:2px;overflow:hidden}
.sharebar span{display:block;height:100%;background:var(--accent)}
.st{font-weight:600;white-space:nowrap}.st-healthy{color:var(--ok)}.st-warning{color:var(--warn)}
.st-abnormal{color:var(--bad)}.st-not_applicable,.st-not_judged{color:var(--muted)}
.finding{border:1px solid var(--border);border-left:5px solid var(--muted);border-radius:8px;
padding:10px 14px;margin:10px 0;background:var(--card);break-inside:avoid}
.finding.sev-critical{border-left-color:var(--bad)}.finding.sev-warning{border-left-color:var(--warn)}
.badge{display:inline-block;font-size:.75em;font-weight:700;text-transform:uppercase;
padding:1px 7px;border-radius:10px;margin-right:8px;border:1px solid currentColor}
.badge.sev-critical{color:var(--bad)}.badge.sev-warning{color:var(--warn)}
.badge.sev-info{color:var(--muted)}
.rankno{font-weight:700;margin-right:8px;color:var(--muted)}
.gain{margin:.4em 0}.fix{margin:.6em 0 .2em;padding-left:10px;border-left:3px solid var(--border)}
.fw{font-size:.8em;font-weight:600;color:var(--muted);margin-right:6px}
details>summary{cursor:pointer;color:var(--accent);margin:.3em 0}
figure{margin:.6em 0 1.2em}figcaption{color:var(--muted);font-size:.88em;margin-top:.2em}
svg.chart{width:100%;height:auto;display:block;background:var(--bg)}
svg.chart text{fill:var(--fg);font-size:12px;font-family:system-ui,sans-serif}
svg.chart text.tick{fill:var(--muted);font-size:11px}
svg.chart .grid{stroke:var(--border);stroke-width:1}
svg.chart .axis{stroke:var(--muted);stroke-width:1}
svg.chart .lane{fill:var(--card);stroke:var(--border)}
svg.chart .boundary{stroke:var(--muted);stroke-dasharray:2 3;stroke-width:1}
svg.chart .series{fill:none;stroke:var(--accent);stroke-width:1.5}
svg.chart .pt{fill:var(--accent)}svg.chart .pt.outlier{fill:var(--bad);stroke:var(--bg);stroke-width:1}
svg.chart .ref{stroke-width:1.2;stroke-dasharray:6 4}
.ref-median{stroke:var(--ok);fill:var(--ok)}.ref-p90{stroke:var(--warn);fill:var(--warn)}
svg.chart text.ref-median{fill:var(--ok);stroke:none}
svg.chart text.ref-p90{fill:var(--warn);stroke:none}
svg.chart .mark:hover{opacity:.75}
ul.legend{list-style:none;padding:0;margin:.2em 0;display:flex;flex-wrap:wrap;gap:4px 16px;
font-size:.85em}
.sw{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;
vertical-align:-1px}
.c-kernel{fill:#4c78a8;background:#4c78a8}.c-memcpy{fill:#f58518;background:#f58518}
.c-memset{fill:#e45756;background:#e45756}.c-communication{fill:#72b7b2;background:#72b7b2}
.c-runtime{fill:#54a24b;background:#54a24b}.c-dataloader{fill:#eeca3b;background:#eeca3b}
.c-cpu_exec{fill:#b279a2;background:#b279a2}.c-other{fill:#a0a0a0;background:#a0a0a0}
.c-computing{fill:#4c78a8;background:#4c78a8}.c-comm{fill:#9fd3cf;background:#9fd3cf}
.c-comm-exposed{fill:#2a8c86;background:#2a8c86}
.c-allocated{fill:#4c78a8;background:#4c78a8}.c-reserved{fill:#9ecae9;background:#9ecae9}
.c-capacity{fill:#bab0ac;background:#bab0ac}
.c-compute{fill:#4c78a8;background:#4c78a8}.c-non_compute{fill:#f58518;background:#f58518}
.c-idle{fill:#bab0ac;background:#bab0ac}.c-step{fill:#4c78a8;background:#4c78a8}
.c-p90{fill:#9ecae9;background:#9ecae9}
.c-preparing{fill:#c7b9e8;background:#c7b9e8}.c-free{fill:#d8d8d8;background:#d8d8d8}
.c-trailing{fill:#8c8c8c;background:#8c8c8c}
.cause-data_loader{fill:#eeca3b;background:#eeca3b}
.cause-synchronization{fill:#e45756;background:#e45756}
.cause-optimizer_step{fill:#b279a2;background:#b279a2}
.cause-launch_overhead{fill:#ff9da6;background:#ff9da6}
.cause-stalled_call{fill:#4c78a8;background:#4c78a8}
.cause-framework_op{fill:#9d755d;background:#9d755d}
.cause-python_function{fill:#54a24b;background:#54a24b}
.cause-user_annotation{fill:#17becf;background:#17becf}
.cause-untraced{fill:#8c8c8c;background:#8c8c8c}
.cause-other{fill:#d0d0d0;background:#d0d0d0}
.warnings li{color:var(--warn)}
footer{max-width:1320px;margin:2em auto;padding:0 24px;color:var(--muted);font-size:.85em}
.c-base{fill:#8c8c8c;background:#8c8c8c}.c-new{fill:#4c78a8;background:#4c78a8}
svg.chart .dot{fill-opacity:.75}
svg.chart .band{fill:var(--accent);fill-opacity:.1;stroke:var(--accent);stroke-opacity:.4;
stroke-dasharray:4 3}
svg.chart .median{stroke:var(--fg);stroke-width:2.5}
.sw.band{background:var(--accent);opacity:.3}.sw.median{background:var(--fg);width:3px}
.verdict{font-size:1.15em;font-weight:600;margin:.4em 0}.v-improved{color:var(--ok)}
.v-regressed{color:var(--bad)}.v-unchanged{color:var(--muted)}
@media print{nav,p.parts{display:none}body{font-size:11pt;background:#fff;color:#000}
header.page,main,footer{max-width:none;padding:0}.tablewrap,.tablewrap.long{max-height:none;
overflow:visible}h2{break-before:page;border:none}
h2:first-of-type{break-before:auto}figure,.finding{break-inside:avoid}h3{break-after:avoid}
table{font-size:8pt}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
details>summary{display:none}a{color:#000}td.full,th.fullh{display:none}}
)CSS";

}  // namespace

std::string HtmlPageStart(std::string_view title) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Nothing may load: no script, style, font or image from anywhere but
      // this file (the page works from a mail attachment, offline).
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"color-scheme\" content=\"light dark\">\n"
      "<meta name=\"generator\" content=\"perfdx\">\n"
      "<link rel=\"icon\" href=\"data:,\">\n";
  out += "<title>" + EscapeHtml(title) + "</title>\n<style>" + std::string(kStyle) +
         "</style>\n</head>\n<body>\n";
  return out;
}

}  // namespace perfdx::report
