/* GET /status: one self-contained HTML page (no external asset, no
 * framework). The live figures are embedded as JSON and rendered by a small
 * script, which then fetches status.json every two seconds and renders
 * again, so the first paint already shows real numbers. */
#include <string.h>

#include "protocol/json_convert.h"
#include "supervisor/metrics/metrics.h"

static const char head[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
    "<title>codecalc status</title>\n<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1b1f24;background:#f6f8fa}\n"
    "h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".tiles{display:flex;flex-wrap:wrap;gap:.6em}.tile{background:#fff;border:1px solid #d0d7de;"
    "border-radius:6px;padding:.5em .9em;min-width:8em}.tile b{display:block;font-size:1.6em}\n"
    "table{border-collapse:collapse;background:#fff}td,th{border:1px solid #d0d7de;padding:.25em .6em;"
    "text-align:right}th{background:#eef1f4}td:first-child,th:first-child{text-align:left}\n"
    ".ok{color:#1a7f37}.bad{color:#cf222e}.muted{color:#57606a}\n"
    "</style></head>\n<body data-refreshes=\"0\">\n"
    "<h1>codecalc <span id=\"version\"></span></h1>\n"
    "<div class=\"muted\">up <span id=\"uptime\"></span> &middot; <span id=\"health\"></span> &middot; "
    "updated <span id=\"updated\"></span></div>\n"
    "<h2>Now</h2><div class=\"tiles\" id=\"tiles\"></div>\n"
    "<h2>Worker pools</h2><table id=\"pools\"></table>\n"
    "<h2>Tools</h2><table id=\"tools\"></table>\n"
    "<h2>Recent calls</h2><table id=\"recent\"></table>\n"
    "<h2>Program verdicts</h2><table id=\"verdicts\"></table>\n"
    "<section id=\"cluster\" hidden><h2>Cluster</h2>\n"
    "<div class=\"muted\" id=\"cluster-note\"></div>\n"
    "<div class=\"tiles\" id=\"cluster-tiles\"></div>\n"
    "<h2>Servers</h2><table id=\"servers\"></table></section>\n"
    "<script id=\"initial\" type=\"application/json\">";

static const char tail[] =
    "</script>\n<script>\n"
    "'use strict';\n"
    "function el(t,x,c){const e=document.createElement(t);if(x!==undefined)e.textContent=String(x);"
    "if(c)e.className=c;return e}\n"
    "function table(id,head,rows){const t=document.getElementById(id);t.replaceChildren();"
    "const h=t.insertRow();for(const x of head)h.appendChild(el('th',x));"
    "if(!rows.length){const r=t.insertRow();const c=el('td','none yet','muted');c.colSpan=head.length;"
    "r.appendChild(c)}for(const row of rows){const r=t.insertRow();for(const x of row)r.appendChild(el('td',x))}}\n"
    "function dur(s){s=Math.floor(s);const h=Math.floor(s/3600),m=Math.floor(s%3600/60);"
    "return (h?h+'h ':'')+(h||m?m+'m ':'')+(s%60)+'s'}\n"
    "function ms(s){return (s*1000).toFixed(s<0.01?2:1)+' ms'}\n"
    "function render(d){\n"
    " document.getElementById('version').textContent=d.version;\n"
    " document.getElementById('uptime').textContent=dur(d.uptime_seconds);\n"
    " const h=document.getElementById('health');h.textContent=d.health.sandbox_complete?"
    "'sandbox complete':'sandbox reduced: '+d.health.sandbox_missing;"
    "h.className=d.health.sandbox_complete?'ok':'bad';\n"
    " document.getElementById('updated').textContent=new Date().toLocaleTimeString();\n"
    " const tiles=[['calls',d.calls],['errors',d.errors],['in flight',d.in_flight],"
    "['runs active',d.runs_active===null?'n/a':d.runs_active],"
    "['sessions',d.sessions.stateful+d.sessions.workspace]];\n"
    " if(d.http)tiles.push(['HTTP sessions',d.http.sessions]);\n"
    " const t=document.getElementById('tiles');t.replaceChildren();"
    "for(const [k,v] of tiles){const x=el('div',undefined,'tile');x.dataset.name=k;"
    "x.appendChild(el('b',v));x.appendChild(el('span',k));t.appendChild(x)}\n"
    " table('pools',['pool','workers','idle','busy','starting','queued','min','max','restarts'],"
    "d.pools.map(p=>[p.name,p.workers,p.idle,p.busy,p.starting,p.queued,p.min,p.max,p.restarts]));\n"
    " table('tools',['tool','calls','errors','mean'],d.tools.map(x=>[x.tool,x.calls,x.errors,ms(x.mean_seconds)]));\n"
    " table('recent',['tool','code','took','ago'],d.recent.map(x=>[x.tool,x.code,ms(x.seconds),dur(x.ago_seconds)]));\n"
    " table('verdicts',['verdict','count'],Object.entries(d.verdicts));\n"
    " cluster(d.cluster);\n"
    "}\n"
    /* Drawn only when the stores are shared (docs/cluster.md): the figures
     * come from the server's cache, so their age and any failure to
     * refresh them are shown with them. */
    "function cluster(c){const s=document.getElementById('cluster');s.hidden=!(c&&c.enabled);if(s.hidden)return;\n"
    " const n=document.getElementById('cluster-note');n.textContent='this server: '+c.server_id+' \\u00b7 '+"
    "(c.age_seconds===null?'figures not read yet':'figures '+c.age_seconds.toFixed(1)+' s old')+"
    "(c.error?' \\u00b7 last refresh failed: '+c.error:'');n.className=c.error?'bad':'muted';\n"
    " const alive=c.servers.filter(x=>x.alive).length;\n"
    " const tiles=[['servers alive',alive+'/'+c.servers.length]];\n"
    " if(c.runs)for(const k of ['queued','active','finished','lost','requeued'])tiles.push(['runs '+k,c.runs[k]]);\n"
    " const t=document.getElementById('cluster-tiles');t.replaceChildren();"
    "for(const [k,v] of tiles){const x=el('div',undefined,'tile');x.dataset.name=k;"
    "x.appendChild(el('b',v));x.appendChild(el('span',k));t.appendChild(x)}\n"
    " table('servers',['server','alive','runs claimed','capacity','heartbeat','url'],"
    "c.servers.map(x=>[x.id+(x.id===c.server_id?' (this)':''),x.alive?'yes':'no',x.claimed,x.capacity,"
    "x.heartbeat_age_seconds.toFixed(1)+' s ago',x.url]));\n"
    "}\n"
    "render(JSON.parse(document.getElementById('initial').textContent));\n"
    /* The page URL may carry user:token@ (Basic); fetch refuses such URLs,
     * so the JSON is addressed by origin and path, and the browser adds the
     * credentials it used for the page. */
    "const src=location.origin+location.pathname.replace(/[^/]*$/,'')+'status.json';\n"
    "async function refresh(){try{const r=await fetch(src,{credentials:'same-origin',cache:'no-store'});"
    "if(r.ok){render(await r.json());const b=document.body;b.dataset.refreshes=String(+b.dataset.refreshes+1)}}"
    "catch(e){}}\n"
    "setInterval(refresh,2000);\n"
    "</script>\n</body></html>\n";

void cc_metrics_status_page(struct cc_strbuf *out, struct cc_server *srv, const struct cc_metrics_http *http) {
    json_t *snap = cc_metrics_snapshot(srv, http);
    struct cc_strbuf js;
    cc_sb_init(&js);
    cc_json_emit(&js, snap);
    json_decref(snap);
    cc_sb_puts(out, head);
    /* Inside <script>, "</" could close the element: "<" becomes \u003c,
     * which JSON reads back as the same character. */
    for (size_t i = 0; i < js.len; i++) {
        if (js.data[i] == '<') cc_sb_puts(out, "\\u003c");
        else cc_sb_putc(out, js.data[i]);
    }
    cc_sb_free(&js);
    cc_sb_puts(out, tail);
}
