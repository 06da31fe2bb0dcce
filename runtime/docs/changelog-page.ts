// /docs/changelog: every dated version, newest first, with its changelog entries (breaking ones marked, migrations
// and behaviour flags named, each with the changes it made), and a comparison of any two versions: what a key pinned
// at one crosses to reach the other (?from=&to=), grouped like `npm run diff`.
import { escapeHtml } from '../html.js';
import { page } from './html.js';
import type { Change, ChangelogData, Diff } from './changelog.js';

/** Changelog text uses `backticks` for names. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const anchor = (ref: string) => `entry-${ref.replace(/[^0-9A-Za-z-]/g, '-')}`;
const kindBadge = (breaking: boolean) => (breaking ? '<span class="badge breaking">breaking</span>' : '<span class="badge additive">additive</span>');
const compareHref = (from: string, to: string) => `/docs/changelog?from=${from}&to=${to}#compare`;

function changeItem(c: Change, withRef: boolean): string {
  const ref = withRef ? ` <a href="#${anchor(c.ref)}">[${escapeHtml(c.ref)}]</a>` : '';
  return `<li>${kindBadge(c.breaking)}${prose(c.description)}${ref}</li>`;
}

/** Groups with a breaking change first, then by name (as the diff tool orders them). */
function groups(d: Diff): [string, Change[]][] {
  const all: [string, Change[]][] = [
    ...Object.entries(d.operations).map(([name, g]): [string, Change[]] => [`Operation <code>${escapeHtml(name)}</code> (${escapeHtml(g.route)})`, g.changes]),
    ...Object.entries(d.resources).map(([name, g]): [string, Change[]] => [`Resource <code>${escapeHtml(name)}</code>${g.usedBy.length ? ` (in ${g.usedBy.map(escapeHtml).join(', ')})` : ''}`, g.changes]),
  ];
  const breaks = (c: Change[]) => c.some((x) => x.breaking);
  return all.sort(([a, x], [b, y]) => Number(breaks(y)) - Number(breaks(x)) || a.localeCompare(b));
}

function comparison(d: Diff): string {
  const s = d.summary;
  const lines = [`<section id="compare"><h2>From ${d.from} to ${d.to}</h2>`];
  if (d.swapped) lines.push(`<p>The later date came first; shown as moving a pin from ${d.from} to ${d.to}.</p>`);
  lines.push(`<p>${plural(d.versionsCrossed.length, 'version')} crossed${d.versionsCrossed.length ? `: ${d.versionsCrossed.map((v) => `<a href="#v-${v}">${v}</a>`).join(', ')}` : ''}. `
    + `<strong>${plural(s.breaking, 'breaking change')}</strong> and ${plural(s.additive, 'addition')} in ${plural(s.operations, 'operation')} `
    + `and ${plural(s.resources, 'resource')}; ${plural(s.migrations, 'migration')} crossed.</p>`);
  if (d.migrations.length) {
    lines.push('<h3>Migrations crossed (move these together)</h3><ul>', ...d.migrations.map((m) =>
      `<li><span class="badge migration">${escapeHtml(m.name)}</span> <a href="#${anchor(m.ref)}">${escapeHtml(m.ref)}</a>: ${prose(d.changelog[m.ref]?.text ?? '')}</li>`), '</ul>');
  }
  for (const [title, changes] of groups(d)) lines.push(`<h3>${title}</h3><ul>`, ...changes.map((c) => changeItem(c, true)), '</ul>');
  if (d.behaviour.length) lines.push('<h3>Behaviour (same shapes, different effects)</h3><ul>', ...d.behaviour.map((c) => changeItem(c, true)), '</ul>');
  if (d.pending.length) lines.push('<h3>Pending in this range</h3><ul>', ...d.pending.map((p) => `<li><span class="badge pending">pending</span>${prose(p.text)}</li>`), '</ul>');
  if (!d.versionsCrossed.length) lines.push('<p>Nothing to cross: both dates are the same version.</p>');
  lines.push('</section>');
  return lines.join('\n');
}

function compareForm(versions: string[], from: string, to: string): string {
  const options = (chosen: string) => versions.map((v) => `<option value="${v}"${v === chosen ? ' selected' : ''}>${v}</option>`).join('');
  return `<form class="compare" method="get" action="/docs/changelog#compare">
  What does a key pinned at <select name="from" aria-label="from version">${options(from)}</select>
  cross to reach <select name="to" aria-label="to version">${options(to)}</select>?
  <button type="submit">Compare</button>
</form>`;
}

function versionSection(data: ChangelogData, index: number): string {
  const v = data.versions[index];
  const latest = data.versions[0].date;
  const older = data.versions[index + 1]?.date;
  const step = data.steps[v.date];
  const changesOf = (ref: string): Change[] => (step
    ? [...Object.values(step.operations), ...Object.values(step.resources)].flatMap((g) => g.changes).concat(step.behaviour).filter((c) => c.ref === ref)
    : []);
  const links = [
    older ? `<a href="${compareHref(older, v.date)}">from ${older}</a>` : null,
    v.date !== latest ? `<a href="${compareHref(v.date, latest)}">from here to the latest</a>` : null,
  ].filter(Boolean).join(' · ');
  const entries = v.entries.map((e) => {
    const badges = [
      e.pending ? '<span class="badge pending">pending</span>' : kindBadge(e.breaking),
      e.migration ? `<span class="badge migration">migration ${escapeHtml(e.migration)}</span>` : '',
      ...e.flags.map((f) => `<span class="badge pending">flag ${escapeHtml(f)}</span>`),
    ].join('');
    const details = changesOf(e.ref);
    return `<li id="${anchor(e.ref)}">${badges}${prose(e.text)} <small>${escapeHtml(e.ref)}</small>`
      + (details.length ? `<ul>${details.map((c) => changeItem(c, false)).join('')}</ul>` : '') + '</li>';
  });
  return `<section class="version" id="v-${v.date}">
<h2>${v.date}${v.date === latest ? ' (latest)' : ''}</h2>
<p>${prose(v.description)}</p>
${links ? `<p>Compare: ${links}</p>` : ''}
${entries.length ? `<ul>${entries.join('\n')}</ul>` : '<p>No changes recorded (the first version).</p>'}
</section>`;
}

export function changelogPage(data: ChangelogData, compared: Diff | null): string {
  const dates = data.versions.map((v) => v.date);
  const from = compared?.from ?? dates[1] ?? dates[0];
  const to = compared?.to ?? dates[0];
  return page('Commerce Platform API changelog', `<main class="docs">
<h1>Changelog</h1>
<p>Every dated version, newest first. Send <code>Api-Version-Date</code> to choose one per request; an API key's pin
applies otherwise. Breaking changes only reach a key when its pin moves. The <a href="/docs">reference</a> shows each
version's operations and schemas.</p>
${compareForm(dates, from, to)}
${compared ? comparison(compared) : ''}
${data.versions.map((_, i) => versionSection(data, i)).join('\n')}
</main>`);
}
