// Written by hand, not declared plain: a page outside the API (an ExtraRoute), not an operation.
// The upgrade workbench at /workbench: one HTML document and its same-origin script. The page itself holds no data and
// needs no credential; everything it shows comes from the API, called by the script with the user token pasted into
// the form (kept in the page's memory only: never in the URL, storage or a cookie), so the API's own authentication
// and scopes decide what is seen and done (api_key:read to look, api_key:manage to move or roll back the pin).
import type { Context } from 'koa';
import type { ExtraRoute } from '../../runtime/app.js';
import { api } from '../../runtime/api-definition.js';
import { escapeHtml, htmlDocument } from '../../runtime/html.js';
import { specData } from '../../generated/spec-data.js';

export const WORKBENCH_PATH = '/workbench';
const SCRIPT_PATH = `${WORKBENCH_PATH}/workbench.js`;

// Scripts only from this server (no inline script), API calls only to it, nothing framed or submitted elsewhere.
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  label { display: block; margin: .5rem 0; }
  input, select { font: inherit; padding: .3rem; min-width: 22rem; }
  button { font: inherit; padding: .5rem 1rem; margin: .25rem .5rem .25rem 0; border-radius: .4rem; border: 1px solid #1a1a1a; background: #1a1a1a; color: #fff; cursor: pointer; }
  button[disabled] { opacity: .4; cursor: default; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
  th, td { border-bottom: 1px solid #ddd; padding: .3rem; text-align: left; vertical-align: top; }
  code, pre { font-size: .85rem; white-space: pre-wrap; word-break: break-all; margin: 0; }
  .breaking { color: #a00; font-weight: 600; }
  .error { color: #a00; }
  .note { color: #666; font-size: .875rem; }
</style>`;

function workbenchDocument(): string {
  const [latest] = specData.versions;
  const options = specData.versions
    .map((v) => `<option value="${escapeHtml(v)}"${v === latest ? ' selected' : ''}>${escapeHtml(v)}</option>`).join('');
  const body = `<h1>Upgrade workbench</h1>
<p class="note">See what moving an API key's pin to another version changes for the requests it makes, then move it, or roll it back. The token stays in this page only.</p>
<form id="workbench-form">
  <label>User token <input id="token" type="password" autocomplete="off" required></label>
  <label>API key id <input id="key-id" type="text" autocomplete="off" required></label>
  <label>Target version <select id="target">${options}</select></label>
  <button type="submit" id="show">Show</button>
</form>
<p id="status" class="note" role="status"></p>
<section id="results" hidden>
  <h2>Pin</h2>
  <p>Pinned at <strong id="pin"></strong>; versions in use: <span id="pins"></span>.</p>
  <p id="previous"></p>
  <p><button type="button" id="move-pin"></button><button type="button" id="rollback-pin"></button></p>
  <h2>Changelog entries crossed (<span id="crossed-range"></span>)</h2>
  <table><thead><tr><th>Entry</th><th>Change</th><th>Changelog</th></tr></thead><tbody id="changes"></tbody></table>
  <h2>Shadow replay: differences per operation</h2>
  <p class="note" id="replay-summary"></p>
  <div id="operations"></div>
</section>
<script src="${escapeHtml(SCRIPT_PATH)}" data-base="${escapeHtml(api().spec.basePath)}" data-version="${escapeHtml(latest)}"></script>`;
  return htmlDocument({ title: 'Upgrade workbench', head: STYLE, body });
}

// Runs in the browser. Every text from the API goes in through textContent, never as HTML.
const SCRIPT = `'use strict';
(() => {
  const me = document.currentScript;
  const base = me.dataset.base;
  const apiVersion = me.dataset.version;
  const $ = (id) => document.getElementById(id);
  let token = '';
  let keyId = '';

  const el = (tag, text, className) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (className) e.className = className;
    return e;
  };
  const row = (cells) => {
    const tr = document.createElement('tr');
    for (const c of cells) { const td = document.createElement('td'); if (c instanceof Node) td.append(c); else td.textContent = c; tr.append(td); }
    return tr;
  };
  const json = (v) => el('pre', v === undefined ? '(absent)' : JSON.stringify(v, null, 1));

  async function call(method, path, query) {
    const url = base + path + (query ? '?' + new URLSearchParams(query) : '');
    const res = await fetch(url, { method, headers: { Authorization: 'Bearer ' + token, 'Api-Version-Date': apiVersion } });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(method + ' ' + path + ': ' + res.status + ' ' + ((body.error && body.error.message) || ''));
    return body;
  }

  function showKey(key) {
    $('pin').textContent = key.api_version_date || '(none: the latest)';
    $('previous').textContent = key.previous_api_version_date
      ? 'Last moved from ' + key.previous_api_version_date + (key.pin_moved_at ? ' at ' + key.pin_moved_at : '')
        + (key.pin_rollback_until ? '; can be rolled back until ' + key.pin_rollback_until : '') + '.'
        + (key.pin_subscriptions_following && key.pin_subscriptions_following.length ? ' Subscriptions still on the old version: ' + key.pin_subscriptions_following.join(', ') + '.' : '')
      : '';
    const target = $('target').value;
    $('move-pin').textContent = 'Move pin to ' + target;
    $('move-pin').disabled = key.api_version_date === target;
    const open = key.previous_api_version_date && key.pin_rollback_until && Date.parse(key.pin_rollback_until) > Date.now();
    $('rollback-pin').textContent = open ? 'Roll back (until ' + key.pin_rollback_until + ')' : 'Roll back (nothing to roll back)';
    $('rollback-pin').disabled = !open;
  }

  function showAssistant(a) {
    $('pins').textContent = a.pins.length ? a.pins.join(', ') : '(no requests logged)';
    $('crossed-range').textContent = a.from + ' to ' + a.to + ', ' + a.breaking + ' breaking';
    const rows = [...a.changes].sort((x, y) => Number(y.breaking) - Number(x.breaking));
    $('changes').replaceChildren(...(rows.length ? rows.map((c) => row([
      el('code', c.ref), el('span', (c.breaking ? 'breaking: ' : '') + c.description, c.breaking ? 'breaking' : ''), c.changelog,
    ])) : [row(['', 'Nothing crossed touches what this key calls.', ''])]));
  }

  function showReplay(r) {
    $('replay-summary').textContent = r.from + ' to ' + r.to + ': ' + r.requests_replayed + ' of ' + r.requests_logged + ' reads replayed' + (r.sampled ? ' (sampled)' : '') + '.';
    const parts = [];
    for (const op of r.operations) {
      parts.push(el('h3', op.operation + ' (' + op.requests + ' read' + (op.requests === 1 ? '' : 's') + ')'));
      if (op.differences.length) {
        const table = el('table');
        const head = row(['Path', 'Before', 'After', 'Entry']);
        table.append(head, ...op.differences.map((d) => row([el('code', d.kind + ' ' + d.path), json(d.before), json(d.after), el('code', d.ref || '(no entry)')])));
        parts.push(table);
      } else parts.push(el('p', 'No differences.', 'note'));
      for (const u of op.unreadable) parts.push(el('p', 'Unreadable now: ' + u.path + ' (' + u.status + ' ' + u.message + ')', 'note'));
    }
    for (const w of r.writes) {
      parts.push(el('h3', w.operation + ' (writes: not replayed)'));
      const list = el('ul');
      for (const c of w.request_changes) list.append(el('li', c.kind + ' ' + (c.in || '') + ' ' + (c.field || '') + ' ' + (c.ref || '')));
      parts.push(list);
    }
    $('operations').replaceChildren(...(parts.length ? parts : [el('p', 'No reads logged in the last 7 days.', 'note')]));
  }

  async function refresh() {
    const target = $('target').value;
    $('status').textContent = 'Loading…';
    try {
      const id = encodeURIComponent(keyId);
      const [key, assistant, replay] = await Promise.all([
        call('GET', '/api_keys/' + id), call('GET', '/api_keys/' + id + '/upgrade_assistant', { target }),
        call('GET', '/api_keys/' + id + '/shadow_replay', { target }),
      ]);
      showKey(key); showAssistant(assistant); showReplay(replay);
      $('results').hidden = false;
      $('status').textContent = 'Shown for ' + key.id + ' at target ' + target + '.';
      $('status').className = 'note';
    } catch (e) {
      $('status').textContent = String(e.message || e);
      $('status').className = 'error';
    }
  }

  async function act(path, body) {
    try {
      const id = encodeURIComponent(keyId);
      const res = await fetch(base + '/api_keys/' + id + path, {
        method: 'POST',
        headers: { Authorization: 'Bearer ' + token, 'Api-Version-Date': apiVersion, 'Content-Type': 'application/json' },
        body: JSON.stringify(body || {}),
      });
      const answer = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(path + ': ' + res.status + ' ' + ((answer.error && answer.error.message) || ''));
    } catch (e) {
      $('status').textContent = String(e.message || e);
      $('status').className = 'error';
      return;
    }
    await refresh();
  }

  $('workbench-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token').value.trim();
    keyId = $('key-id').value.trim();
    refresh();
  });
  $('move-pin').addEventListener('click', () => act('/move_pin', { target: $('target').value }));
  $('rollback-pin').addEventListener('click', () => act('/rollback_pin'));
})();
`;

function serveWorkbench(ctx: Context): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html';
  ctx.body = workbenchDocument();
}

function serveScript(ctx: Context): void {
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/javascript';
  ctx.body = SCRIPT;
}

export const workbenchRoutes: ExtraRoute[] = [
  { method: 'GET', path: WORKBENCH_PATH, handle: async (ctx) => serveWorkbench(ctx) },
  { method: 'GET', path: SCRIPT_PATH, handle: async (ctx) => serveScript(ctx) },
];
