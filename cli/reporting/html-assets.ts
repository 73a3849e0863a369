// The inline assets of report.html (cli/reporting/html.ts): its stylesheet and the filter bar's
// script, kept apart from the markup so that html.ts reads as the report's structure.

/** The report's whole stylesheet (report.html loads no asset). */
export const STYLE = `
:root{--pass:#2e7d32;--fail:#c62828;--skip:#b7950b;--unc:#8a8f98;--ns:#5c7cba;--bg:#fafbfc;--line:#e1e4e8;--ink:#1f2328;--muted:#656d76}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{background:#fff;border-bottom:1px solid var(--line);padding:14px 28px}
.title{display:flex;align-items:center;gap:16px}
h1{font-size:22px;margin:0}
h2{font-size:18px;margin:28px 0 10px}#areas h2{margin-top:18px}
h3{font-size:15px;margin:0 0 4px}
main{padding:8px 28px 40px;max-width:1500px}
.verdict{font-weight:700;padding:3px 12px;border-radius:14px;color:#fff;letter-spacing:.04em}
.verdict.passed{background:var(--pass)}.verdict.failed{background:var(--fail)}.verdict.skipped{background:var(--skip)}
dl.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:2px 24px;margin:10px 0 0}
dl.meta div{display:flex;gap:10px;min-width:0}dl.meta div.wide{grid-column:1/-1}dl.meta dt{flex:none;min-width:64px}
dl.meta dt,dl.replay dt{color:var(--muted)}dl.meta dd,dl.replay dd{margin:0;overflow-wrap:anywhere;min-width:0}
dl.replay{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin-top:14px}
.card{background:#fff;border:1px solid var(--line);border-left-width:5px;border-radius:6px;padding:5px 14px;min-width:110px}
.card b{display:block;font-size:20px}.card span{color:var(--muted)}
.card.passed{border-left-color:var(--pass)}.card.failed{border-left-color:var(--fail)}.card.skipped{border-left-color:var(--skip)}
.card.total{border-left-color:var(--ink)}.card.coverage{border-left-color:var(--ns)}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
thead th{background:#f0f2f5;font-weight:600}
.num{text-align:right;white-space:nowrap}
table.areas{width:auto;min-width:min(100%,900px);max-width:100%}table.areas th,table.areas td{white-space:nowrap;padding:1px 10px;line-height:1.35}
table.areas .barcell{width:100%;min-width:220px}
.bar{display:flex;height:16px;border-radius:4px;overflow:hidden;background:#eee;margin-top:2px}
.bar span{display:block;height:100%}
.bar .passed,.dot.passed,.chip.passed{background:var(--pass)}
.bar .failed,.dot.failed,.chip.failed{background:var(--fail)}
.bar .skipped,.dot.skipped,.chip.skipped{background:var(--skip)}
.blocked-text,.inconclusive-text{color:#7c3aed}details.more-error summary{cursor:pointer;color:var(--muted)}
.bar .blocked,.dot.blocked,.chip.blocked,.bar .inconclusive,.dot.inconclusive,.chip.inconclusive,.dot.not-reached,.chip.not-reached{background:#a78bfa}
.headline{margin:.3em 0 0;font-weight:600}
.passed-text{color:var(--pass)}.failed-text{color:var(--fail)}.skipped-text{color:var(--skip)}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
.chip{display:inline-block;color:#fff;text-decoration:none;border-radius:10px;padding:0 8px;margin:1px 0;font-size:12px;white-space:nowrap;max-width:100%;overflow:hidden;text-overflow:ellipsis;vertical-align:top}
.tag{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 7px;font-size:12px;color:var(--muted);background:#fff;white-space:nowrap}
.tag.t-not-shown{color:var(--ns);border-color:var(--ns)}.tag.t-needs-control{color:#7b4fa0;border-color:#c6a9dd}
.cid{overflow-wrap:anywhere}
.group-head th{background:#eef1f6;font-weight:600}
.verdict-cell{font-weight:600;white-space:nowrap;text-align:center}
.v-passed{background:#e3f3e4;color:var(--pass)}.v-failed{background:#fbe4e4;color:var(--fail)}
.v-skipped{background:#fbf3d5;color:#8a6d00}
.v-uncovered{color:#444;background:repeating-linear-gradient(45deg,#eceef1,#eceef1 6px,#f7f8fa 6px,#f7f8fa 12px)}
.v-not-shown{color:var(--ns);font-style:italic;font-weight:400}
tr[data-status="not-shown"] td{color:#6b7280}
.muted{color:var(--muted)}
.warn{background:#fff4e5;border:1px solid #f0c36d;padding:6px 10px;border-radius:6px}
.failure{background:#fff;border:1px solid #f1b6b6;border-left:5px solid var(--fail);border-radius:6px;padding:10px 14px;margin:10px 0}
.failure .sub{margin:0 0 6px}.failure .area{font-weight:600;margin-right:6px}
pre.message{background:#fff5f5;border-color:#f1c0c0}
.exchange{margin:6px 0}.exchange summary{cursor:pointer;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.ex{padding-left:14px}.ex h4{margin:8px 0 2px;font-size:12px;color:var(--muted);text-transform:uppercase}
code.clause{background:#eef1f6;border-radius:4px;padding:0 4px;white-space:nowrap}
.filter{position:sticky;top:0;background:var(--bg);padding:10px 0;display:flex;gap:18px;align-items:center;border-bottom:1px solid var(--line);z-index:1}
.filter input{width:320px;padding:4px 8px}.filter select{padding:3px}
.errors pre{background:#fff5f5}
nav{display:flex;gap:6px;flex-wrap:wrap;margin:14px 0 0}
nav a{background:#fff;border:1px solid var(--line);border-radius:14px;padding:2px 12px;color:var(--ink);text-decoration:none}
nav a:hover{border-color:var(--ns)}
td.detail{color:var(--muted)}
table.checks,table.matrix{table-layout:fixed}
.ex pre{max-height:480px}
`

/** The filter bar's script: rows shown by text and status. */
export const FILTER_SCRIPT = `
(function(){
  var q=document.getElementById('q'),st=document.getElementById('status'),shown=document.getElementById('shown');
  function apply(){
    var text=q.value.trim().toLowerCase(),status=st.value,visible=0,total=0;
    document.querySelectorAll('tr.row').forEach(function(tr){
      var ok=(!text||tr.getAttribute('data-search').indexOf(text)>=0)&&(!status||tr.getAttribute('data-status')===status);
      tr.hidden=!ok;total++;if(ok)visible++;
    });
    document.querySelectorAll('table.matrix tbody.group').forEach(function(tb){
      tb.hidden=!tb.querySelector('tr.row:not([hidden])');
    });
    shown.textContent=(text||status)?visible+' '+(shown.getAttribute('data-of')||'of')+' '+total+' '+(shown.getAttribute('data-rows')||'rows'):'';
  }
  q.addEventListener('input',apply);st.addEventListener('change',apply);
})();
`
