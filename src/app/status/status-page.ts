/**
 * `GET /status`: one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched) drawn from the same status snapshot as `moor
 * daemon status --json`, plus the supersession graph of one loaded
 * workspace. It refreshes itself every few seconds, keeping the chosen
 * workspace. Every value is escaped.
 */
import { STATUS_COLOURS } from '../../packs/decisions/graph-view.js';
import type { DaemonStatus } from '../../protocol/hello.js';
import type { RenderedGraph } from './graph-render.js';

export const REFRESH_SECONDS = 5;

/** The graph section: the chosen workspace and its graph, or why there is none. */
export interface GraphSection {
  readonly workspace: string | undefined;
  /** The graph, rendered (an SVG, or a large graph's summary). */
  readonly graph: RenderedGraph | undefined;
  readonly note?: string;
}

const TASK_COLOURS: Readonly<Record<string, string>> = {
  working: '#2b6cb0',
  input_required: '#b7791f',
  completed: '#2f855a',
  failed: '#c53030',
  cancelled: '#718096',
};

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} days ${h % 24} h`;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

function workspaceHref(root: string): string {
  return `?workspace=${encodeURIComponent(root)}`;
}

export function renderStatusPage(status: DaemonStatus, section: GraphSection): string {
  const sessions = status.sessions ?? [];
  const rooms = status.rooms ?? [];
  const tasks = status.tasks ?? { counts: {}, recent: [] };
  const taskTotal = Object.values(tasks.counts).reduce((a, b) => a + b, 0);
  const used = status.inFlight;
  const limit = status.maxInFlight;
  const refresh =
    section.workspace === undefined
      ? `${REFRESH_SECONDS}`
      : `${REFRESH_SECONDS}; url=${workspaceHref(section.workspace)}`;
  const version = status.version ?? status.incarnation?.version ?? '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${esc(refresh)}">
<title>moor ${esc(version)} · status</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <div class="brand"><span class="logo">⚓</span> moor <span class="version">${esc(version)}</span></div>
  <div class="meta">pid ${esc(status.incarnation?.pid ?? '')} · started ${esc(status.incarnation?.startedAt ?? '')} · up ${esc(duration(status.uptimeMs))}</div>
</header>
<main>
<section class="cards">
  ${card('Admission', `<span id="inflight">${esc(used)}</span> / ${esc(limit)}`, `in flight<div class="bar"><span style="width:${limit > 0 ? Math.min(100, (used / limit) * 100).toFixed(1) : 0}%"></span></div>`)}
  ${card('Sessions', `<span id="session-count">${esc(sessions.length)}</span>`, `${esc(status.connectedClients)} socket connection${status.connectedClients === 1 ? '' : 's'}`)}
  ${card('Rooms', `<span id="room-count">${esc(rooms.length)}</span>`, 'workspaces loaded')}
  ${card('Tasks', `<span id="task-count">${esc(taskTotal)}</span>`, taskChips(tasks.counts))}
  ${card('Endpoints', '', `<div class="small">socket <code>${esc(status.socket)}</code></div><div class="small">http <code>${esc(status.httpUrl ?? 'off')}</code></div>${status.memory ? `<div class="small">memory ${esc(mib(status.memory.rss))} resident, ${esc(mib(status.memory.heapUsed))} heap</div>` : ''}`)}
</section>

<section>
  <h2>Sessions</h2>
  ${
    sessions.length === 0
      ? '<p class="empty">No sessions.</p>'
      : `<table id="sessions"><thead><tr><th>key</th><th>active workspace</th><th>parked</th><th class="num">connections</th></tr></thead><tbody>${sessions
          .map(
            (s) =>
              `<tr><td><code>${esc(s.keyPrefix)}</code></td><td>${s.active === null ? '<span class="muted">none</span>' : `<code>${esc(s.active.root)}</code>`}</td><td>${s.parked.length === 0 ? '<span class="muted">—</span>' : s.parked.map((p) => `<code>${esc(p.root)}</code>`).join('<br>')}</td><td class="num">${esc(s.connections)}</td></tr>`,
          )
          .join('')}</tbody></table>`
  }
</section>

<section>
  <h2>Loaded rooms</h2>
  ${
    rooms.length === 0
      ? '<p class="empty">No workspace is loaded.</p>'
      : `<table id="rooms"><thead><tr><th>workspace</th><th class="num">holders</th><th class="num">decisions</th><th class="num">problems</th></tr></thead><tbody>${rooms
          .map(
            (r) =>
              `<tr${r.root === section.workspace ? ' class="chosen"' : ''}><td><a href="${esc(workspaceHref(r.root))}"><code>${esc(r.root)}</code></a></td><td class="num">${esc(r.holders)}</td><td class="num">${r.decisionCount === null ? '<span class="muted">not loaded</span>' : esc(r.decisionCount)}</td><td class="num">${r.problems === null ? '<span class="muted">—</span>' : r.problems > 0 ? `<span class="bad">${esc(r.problems)}</span>` : '0'}</td></tr>`,
          )
          .join('')}</tbody></table>`
  }
</section>

<section>
  <h2>Recent tasks</h2>
  ${
    tasks.recent.length === 0
      ? '<p class="empty">No tasks.</p>'
      : `<table id="tasks"><thead><tr><th>task</th><th>tool</th><th>status</th><th>owner</th><th>updated</th></tr></thead><tbody>${tasks.recent
          .map(
            (t) =>
              `<tr><td><code>${esc(t.id)}</code></td><td>${esc(t.tool)}</td><td>${pill(t.status, TASK_COLOURS[t.status] ?? '#718096')}</td><td><code>${esc(t.owner)}</code></td><td>${esc(t.updatedAt)}</td></tr>`,
          )
          .join('')}</tbody></table>`
  }
</section>

<section>
  <h2>Decision graph ${section.workspace === undefined ? '' : `<span class="muted">· <code>${esc(section.workspace)}</code> · ${esc(section.graph?.decisions ?? 0)} decisions, ${esc(section.graph?.relations ?? 0)} relations</span>`}</h2>
  ${rooms.length > 1 ? `<nav class="picker">${rooms.map((r) => `<a href="${esc(workspaceHref(r.root))}"${r.root === section.workspace ? ' class="chosen"' : ''}>${esc(r.root)}</a>`).join('')}</nav>` : ''}
  ${section.graph === undefined ? `<p class="empty">${esc(section.note ?? 'No workspace is loaded.')}</p>` : `<div class="graph">${section.graph.html}</div>`}
</section>
</main>
<footer>Refreshes every ${REFRESH_SECONDS} s · the same numbers as <code>moor daemon status --json</code> · metrics at <code>/metrics</code></footer>
</body>
</html>
`;
}

function card(title: string, value: string, detail: string): string {
  return `<div class="card"><div class="card-title">${esc(title)}</div>${value === '' ? '' : `<div class="card-value">${value}</div>`}<div class="card-detail">${detail}</div></div>`;
}

function pill(text: string, colour: string): string {
  return `<span class="pill" style="background:${esc(colour)}">${esc(text)}</span>`;
}

function taskChips(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return 'none';
  return entries
    .map(
      ([status, n]) =>
        `<span class="chip" data-status="${esc(status)}">${pill(`${status} ${n}`, TASK_COLOURS[status] ?? '#718096')}</span>`,
    )
    .join(' ');
}

const STYLE = `
:root{--ink:#1a202c;--muted:#718096;--line:#e2e8f0;--bg:#f7fafc;--card:#fff;--accent:${STATUS_COLOURS.proposed}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:8px;padding:16px 28px;background:#1a365d;color:#fff}
.brand{font-size:20px;font-weight:700;letter-spacing:.02em}.logo{margin-right:4px}.version{font-weight:400;opacity:.75;font-size:14px}
.meta{opacity:.85;font-size:13px}
main{padding:20px 28px;max-width:1400px;margin:0 auto}
section{margin-bottom:28px}
h2{font-size:16px;margin:0 0 10px;font-weight:650}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:14px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.card-title{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.card-value{font-size:28px;font-weight:700;margin:2px 0}
.card-detail{color:var(--muted);font-size:12.5px}
.small{font-size:12px;margin-top:4px;word-break:break-all}
.bar{height:6px;background:var(--line);border-radius:3px;margin-top:6px;overflow:hidden}.bar span{display:block;height:100%;background:var(--accent)}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
th,td{text-align:left;padding:7px 12px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;background:#edf2f7}
tr:last-child td{border-bottom:none}
tr.chosen td{background:#ebf8ff}
.num{text-align:right;font-variant-numeric:tabular-nums}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
a{color:#2b6cb0;text-decoration:none}a:hover{text-decoration:underline}
.muted{color:var(--muted);font-weight:400}.bad{color:#c53030;font-weight:700}
.empty{color:var(--muted);font-style:italic;margin:0}
.pill{display:inline-block;color:#fff;border-radius:999px;padding:0 8px;font-size:12px;line-height:20px}
.chip{display:inline-block;margin:2px 2px 0 0}
.picker{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:10px}
.picker a{border:1px solid var(--line);background:#fff;border-radius:6px;padding:2px 8px;font:12px ui-monospace,monospace}
.picker a.chosen{background:#1a365d;color:#fff;border-color:#1a365d}
.graph{background:#fff;border:1px solid var(--line);border-radius:10px;padding:8px;overflow:auto}
.graph svg{display:block;max-width:100%;height:auto}
.graph-summary table{margin:8px 0}.graph-summary p{margin:4px 4px 8px}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px;border:1px solid var(--line)}
footer{color:var(--muted);font-size:12px;padding:0 28px 24px;max-width:1400px;margin:0 auto}
`;
