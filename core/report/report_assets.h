// The report's fixed stylesheet and script. They are inline (the report is one file that works
// offline) and allowed by the Content-Security-Policy through their SHA-256 hashes.
//
// The script only reads data (the JSON block, data-* attributes) and writes text with textContent:
// it never builds markup from strings, so a name in the trace can never become markup through it.
#pragma once

namespace cs::report {

inline constexpr char kReportCss[] = R"css(
:root{--fg:#1d2330;--muted:#5d6677;--line:#e3e7ee;--bg:#f5f7fa;--card:#fff;--accent:#2f6fde;
--ok:#1f8a4c;--okbg:#e8f6ee;--bad:#c23a2b;--badbg:#fdecea;--warn:#b86e00;--warnbg:#fff5e0;--na:#6b7280;--nabg:#f0f1f4}
*{box-sizing:border-box}
html{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
header.top{background:#162033;color:#fff;padding:18px 32px 14px}
header.top h1{margin:0;font-size:20px;font-weight:650;letter-spacing:.2px}
header.top h1 .brand{color:#8fb3ff}
header.top .traces{margin:6px 0 0;color:#c9d3e6;font-size:13px}
header.top .traces code{color:#fff}
nav.toc{display:flex;flex-wrap:wrap;gap:4px 14px;padding:8px 32px;background:#fff;border-bottom:1px solid var(--line);position:sticky;top:0;z-index:2}
nav.toc a{color:var(--accent);text-decoration:none;font-size:13px}
nav.toc a:hover{text-decoration:underline}
main{max-width:1180px;margin:0 auto;padding:18px 24px 48px}
section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 20px 16px;margin:0 0 18px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
section h2{font-size:16px;margin:0 0 10px;display:flex;align-items:center;gap:8px}
section h2 .count{font-size:12px;font-weight:600;background:var(--nabg);color:var(--muted);border-radius:10px;padding:1px 8px}
h3.trace-label{font-size:14px;margin:14px 0 8px;font-weight:600}
.tag{display:inline-block;background:#162033;color:#fff;border-radius:4px;padding:0 6px;font-size:12px;margin-right:4px}
table.modules td:first-child code,table.misses td:nth-child(3) code{white-space:nowrap;word-break:normal}
code{font:12.5px/1.4 ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,monospace;overflow-wrap:anywhere}
td,dd{overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
.metrics{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:4px 0 12px}
.metric{border:1px solid var(--line);border-radius:6px;padding:8px 10px;background:#fbfcfe}
.metric .value{font-size:19px;font-weight:650}
.metric .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.4px}
.metric .sub{color:var(--muted);font-size:12px}
.verdict{border-radius:6px;padding:10px 12px;margin:8px 0;border:1px solid}
.verdict.pass{background:var(--okbg);border-color:#b7e2c8;color:#14532d}
.verdict.fail{background:var(--badbg);border-color:#f5c2bc;color:#7f1d1d}
.verdict.na{background:var(--nabg);border-color:var(--line);color:var(--na)}
.verdict.incomplete{background:var(--warnbg);border-color:#f3d9a4;color:#7c4a03}
.verdict ul{margin:6px 0 0 18px;padding:0}
.warnbox{background:var(--warnbg);border:1px solid #f3d9a4;border-radius:6px;padding:8px 12px;margin:8px 0}
table{border-collapse:collapse;width:100%;margin:6px 0 8px;font-size:13px}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.3px;background:#fafbfd;position:relative}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \25B2";font-size:9px}
th[aria-sort=descending]::after{content:" \25BC";font-size:9px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tbody tr:hover{background:#f7f9fc}
table.compact{width:auto;min-width:320px}
tr.bad td{background:#fff7f6}
tr.slow td{background:var(--warnbg)}
.sev-error{color:var(--bad);font-weight:600}.sev-warning{color:var(--warn);font-weight:600}.sev-info{color:var(--ok);font-weight:600}
.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:11px;text-transform:uppercase;letter-spacing:.4px;border:1px solid currentColor}
details.finding{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:#fff}
details.finding>summary{cursor:pointer;padding:8px 10px;display:flex;gap:8px;align-items:baseline;list-style-position:inside}
details.finding>summary .title{flex:1;font-weight:550}
details.finding[data-severity=error]{border-left:4px solid var(--bad)}
details.finding[data-severity=warning]{border-left:4px solid var(--warn)}
details.finding[data-severity=info]{border-left:4px solid var(--ok)}
details.finding dl{margin:0;padding:4px 14px 10px;display:grid;grid-template-columns:130px minmax(0,1fr);gap:4px 12px}
details.finding dt{color:var(--muted);font-size:12px;text-transform:uppercase}
details.finding dd{margin:0}
details.finding dd.fix{background:var(--okbg);border-radius:4px;padding:4px 8px}
details.fix-change{margin:0 14px 10px;border:1px solid var(--line);border-radius:4px;background:#fafafa}
details.fix-change>summary{cursor:pointer;padding:4px 8px;font-weight:550}
details.fix-change pre{margin:0;padding:6px 10px;overflow-x:auto;font-size:12px;white-space:pre}
details.finding ul{margin:0;padding-left:18px}
.cost{margin-left:auto;font-weight:600;color:var(--bad);white-space:nowrap;font-variant-numeric:tabular-nums}
.filters{display:flex;gap:6px;margin:0 0 6px}
.chip{border:1px solid var(--line);background:#fff;border-radius:14px;padding:2px 10px;font:inherit;font-size:12px;cursor:pointer;opacity:.5}
.chip.on{opacity:1}
svg.timeline{width:100%;height:auto;display:block;margin:4px 0 8px;font:11px system-ui,sans-serif}
svg.timeline .lane-bg{fill:#f3f5f9}
svg.timeline .busy{fill:var(--accent)}
svg.timeline .tick{fill:var(--bad)}
svg.timeline .grid{stroke:#d5dbe5;stroke-dasharray:2 3}
svg.timeline .axis{fill:var(--muted)}
svg.timeline .lane-label{fill:var(--fg)}
svg.timeline rect:hover{stroke:#111;stroke-width:.6}
svg.bar .track{fill:#eef1f6}svg.bar .fill{fill:var(--accent)}
svg.pair .track{fill:#eef1f6}svg.pair .base{fill:#9aa3b2}svg.pair .head{fill:var(--accent)}svg.pair .worse{fill:var(--bad)}
table.changed td.kind{white-space:nowrap;font-weight:600}table.changed tr[data-kind=new-compile] td.kind,table.changed tr[data-kind=new-recompile] td.kind,table.changed tr[data-kind=slower] td.kind,table.changed tr[data-kind=new-finding] td.kind{color:var(--bad)}table.changed tr[data-kind=resolved-finding] td.kind,table.changed tr[data-kind=faster] td.kind,table.changed tr[data-kind=gone] td.kind,table.changed tr[data-kind=fewer-recompiles] td.kind,table.changed tr[data-kind=now-reused] td.kind{color:var(--ok)}table.changed tr[data-kind=now-compiled] td.kind{color:var(--warn)}
ul.changes{margin:0;padding-left:16px}
.before{color:var(--bad);text-decoration:line-through;text-decoration-color:rgba(194,58,43,.4)}
.after{color:var(--ok);font-weight:600}
li.unkeyed,li.unkeyed .before,li.unkeyed .after{color:var(--muted);font-weight:400;text-decoration:none}
.muted{color:var(--muted);font-size:12px}
code.hash{background:#eef1f6;border-radius:3px;padding:0 4px;margin-right:2px;white-space:nowrap;overflow-wrap:normal}
section h2 a.up,article h3 a.up{margin-left:auto;font-size:12px;font-weight:400;color:var(--accent);text-decoration:none}
.oc{display:inline-block;min-width:1.3em;text-align:center;font-weight:700;border-radius:3px}
.oc-hit{color:var(--ok)}.oc-miss{color:var(--bad)}.oc-compiled{color:var(--warn)}.oc-cached{color:var(--accent)}
.oc-error{color:#fff;background:var(--bad)}.oc-unknown{color:var(--muted)}
tr.compile[data-outcome=miss] td:first-child{border-left:3px solid var(--bad)}
tr.compile[data-outcome=error] td:first-child{border-left:3px solid var(--bad)}
table.compiles td:nth-child(2) a{white-space:nowrap}
table.compiles td:nth-child(3){min-width:160px}table.compiles td:nth-child(4),table.compiles td:nth-child(5){min-width:100px}
table.compiles td:nth-child(7){min-width:160px}
.index-tools{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 6px;align-items:center}
.index-filter{font:inherit;font-size:12.5px;padding:2px 8px;border:1px solid var(--line);border-radius:4px;min-width:240px}
.chip.oc-hit,.chip.oc-miss,.chip.oc-compiled,.chip.oc-cached,.chip.oc-error,.chip.oc-unknown{background:#fff;font-weight:600}
article.compile-detail{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0;scroll-margin-top:44px}
article.compile-detail:target{outline:2px solid var(--accent)}
article.compile-detail h3{font-size:14px;margin:0 0 6px;display:flex;gap:6px;align-items:baseline;flex-wrap:wrap}
dl.detail{display:grid;grid-template-columns:120px minmax(0,1fr);gap:4px 12px;margin:0}
dl.detail dt{color:var(--muted);font-size:12px;text-transform:uppercase}
dl.detail dd{margin:0;min-width:0}
dl.detail table.key{width:auto;min-width:50%}
pre.log{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;background:#f7f8fa;padding:4px 8px;border-radius:4px;max-height:240px;overflow:auto}
svg.place{vertical-align:middle}svg.place .track{fill:#eef1f6}svg.place .mark{fill:var(--bad)}
ul.options{margin:0;padding-left:16px}
details.finding{scroll-margin-top:44px}
details.finding:target{outline:2px solid var(--accent)}
a.evidence{text-decoration:none}
tr.repeated td:first-child{border-left:3px solid var(--warn)}
.note{color:#7a4a00;font-size:12.5px}
.trees{font-size:13px}
details.inv-node{margin:2px 0 2px 0;padding-left:14px;border-left:1px dotted #c9d0db}
.trees>details.inv-node{border-left:none;padding-left:0;margin:6px 0}
details.inv-node>summary{cursor:pointer;padding:2px 0}
.inv-leaf{padding:1px 0 1px 16px}
.kind{display:inline-block;min-width:86px;color:var(--muted);font-size:11.5px;text-transform:uppercase;letter-spacing:.3px}
.children{margin-left:8px;color:var(--muted);font-size:12px}
.trees .cost{margin-left:10px}
.tree-tools{display:flex;gap:6px;margin:0 0 6px}
.tree-tools button{font:inherit;font-size:12px;border:1px solid var(--line);background:#fff;border-radius:4px;padding:2px 8px;cursor:pointer}
.v-better{color:var(--ok);font-weight:600}.v-worse{color:var(--bad);font-weight:600}.v-neutral{color:var(--muted)}
p.hint,p.source,p.more,p.empty{color:var(--muted);font-size:12.5px;margin:4px 0}
p.empty{font-style:italic}
details.facts{margin:8px 0}
details.facts>summary{cursor:pointer;color:var(--accent)}
.cut{border-bottom:1px dotted var(--muted)}
footer{color:var(--muted);font-size:12px;text-align:center;padding:10px}
@media print{nav.toc{position:static}}
)css";

inline constexpr char kReportJs[] = R"js(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  // Severity chips over the findings list: counts from the data block, toggles hide findings.
  var counts = { error: 0, warning: 0, info: 0 };
  data.traces.forEach(function (t) {
    t.findings.forEach(function (f) { if (Object.prototype.hasOwnProperty.call(counts, f.severity)) counts[f.severity]++; });
  });
  // A toggle chip "name count" in `box`; `toggled(on)` runs on each click.
  function chip(box, cls, attr, name, count, toggled) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'chip on ' + cls + name;
    b.textContent = name + ' ' + count;
    b.setAttribute(attr, name);
    b.addEventListener('click', function () {
      var on = !b.classList.contains('on');
      b.classList.toggle('on', on);
      toggled(on);
    });
    box.appendChild(b);
  }
  var box = document.getElementById('finding-filters');
  if (box) {
    ['error', 'warning', 'info'].forEach(function (sev) {
      chip(box, 'sev-', 'data-severity', sev, counts[sev], function (on) {
        document.querySelectorAll('details.finding[data-severity="' + sev + '"]').forEach(function (d) { d.hidden = !on; });
      });
    });
  }
  // Expand / collapse every invalidation tree of a section.
  document.querySelectorAll('button.expand-all, button.collapse-all').forEach(function (btn) {
    btn.addEventListener('click', function () {
      var open = btn.classList.contains('expand-all');
      btn.closest('section').querySelectorAll('details.inv-node').forEach(function (d) { d.open = open; });
    });
  });
  // Sortable tables: numeric cells sort by data-v (or their number), others by text.
  function cellKey(cell) {
    var v = cell.getAttribute('data-v');
    if (v !== null) return parseFloat(v);
    var t = cell.textContent.trim();
    var n = Number(t);
    return t === '' || isNaN(n) ? t.toLowerCase() : n;
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute('aria-sort') !== 'ascending';
    rows.sort(function (a, b) {
      var x = cellKey(a.cells[col]), y = cellKey(b.cells[col]);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    if (!table.tHead) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = 'Sort';
      th.addEventListener('click', function () { sortBy(table, col, th); });
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sortBy(table, col, th); });
    });
  });
  // The compile index: a text filter and one chip per outcome over each trace's table.
  document.querySelectorAll('div.index-tools').forEach(function (box) {
    var wrap = box.nextElementSibling;
    var table = wrap ? wrap.querySelector('table.compiles') : null;
    if (!table || !table.tBodies.length) return;
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var hidden = {};
    var input = document.createElement('input');
    input.type = 'search';
    input.className = 'index-filter';
    input.placeholder = 'filter: name, session, why';
    input.setAttribute('aria-label', 'filter the compiles');
    box.appendChild(input);
    function apply() {
      var q = input.value.trim().toLowerCase();
      rows.forEach(function (r) {
        r.hidden = hidden[r.getAttribute('data-outcome')] === true ||
          (q !== '' && r.textContent.toLowerCase().indexOf(q) < 0);
      });
    }
    var counts = {};
    rows.forEach(function (r) { var o = r.getAttribute('data-outcome'); counts[o] = (counts[o] || 0) + 1; });
    Object.keys(counts).sort().forEach(function (o) {
      chip(box, 'oc-', 'data-outcome', o, counts[o], function (on) { hidden[o] = !on; apply(); });
    });
    input.addEventListener('input', apply);
  });
  // A link to a finding opens it.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  document.documentElement.setAttribute('data-ready', String(data.traces.length));
})();
)js";

}  // namespace cs::report
