import { badge, esc, page } from './html.js';
import { type CaseResult, type ProofSummary, type Results, type RuleProofRow, WAITS_REPORTED } from './results.js';

function caseBlock(c: CaseResult): string {
  const rows: string[] = [];
  if (c.documented !== undefined) rows.push(`<div>Documented</div><div>${esc(c.documented)}</div>`, `<div>Received</div><div>${esc(c.received)}</div>`);
  if (c.chosen) rows.push(`<div>Chosen</div><div>${esc(c.chosen)}</div>`);
  for (const o of c.observed ?? []) rows.push(`<div>Observed</div><div>${esc(o)}</div>`);
  if (c.outcome === 'skip') rows.push(`<div>Skipped</div><div>${esc(c.detail)}</div>`);
  if (c.timings)
    rows.push(
      `<div>Timings</div><div>${Object.entries(c.timings)
        .map(([k, v]) => `${esc(k)} ${v} ms`)
        .join(' · ')}</div>`,
    );
  const reproduce = c.reproduce?.length ? `<div class="muted">Reproduce</div>${c.reproduce.map((r) => `<pre>${esc(r)}</pre>`).join('')}` : '';
  const wire = c.wire?.length
    ? `<details><summary>Wire log (${c.wire.length} exchange${c.wire.length === 1 ? '' : 's'})</summary>${c.wire
        .map((w) => `<pre>${esc(w.request)}</pre><pre>${esc(w.response)}\n(${w.ms} ms)</pre>`)
        .join('')}</details>`
    : '';
  return (
    `<details class="case" data-outcome="${esc(c.outcome)}" id="case-${esc(c.rule)}"><summary>${badge(c.outcome)} <code>${esc(c.title)}</code> ` +
    `<span class="muted">${c.duration_ms} ms</span></summary><div class="kv">${rows.join('')}</div>${reproduce}${wire}</details>`
  );
}

const FILTER_SCRIPT = `for(const b of document.querySelectorAll('.filter input'))b.addEventListener('change',()=>{const on=new Set([...document.querySelectorAll('.filter input:checked')].map(i=>i.value));for(const el of document.querySelectorAll('[data-outcome]'))el.style.display=on.has(el.dataset.outcome)?'':'none'});`;

/** The conformance report page: totals, the rule catalogue with outcomes, and a page section per case. */
/** How one rule is proven able to fail, for its row in the catalogue. */
function provenBy(p: RuleProofRow | undefined): string {
  if (!p) return '<span class="muted">open rule: never fails</span>';
  const parts = [
    ...p.defects.map((d) => `defect <code>${esc(d)}</code>`),
    ...(p.mutation
      ? [`${p.proven ? badge('pass') : badge(p.skipped ? 'skip' : 'fail')} mutation ${esc(p.mutation)}${p.check ? ` (failed check: ${esc(p.check)})` : ''}`]
      : []),
  ];
  const why = p.why && !p.proven ? `<div class="muted">${esc(p.why)}</div>` : '';
  return `${parts.join('<br>') || badge('uncovered')}${why}`;
}

/** The proof section: per surface, how many documented rules a defect or a mutation proves able to fail. */
function proofSection(p: ProofSummary): string {
  const surfaces = [...new Set(p.rules.map((x) => x.surface))];
  const row = (name: string, rows: RuleProofRow[]) => {
    const proven = rows.filter((x) => x.proven || x.defects.length).length;
    return `<tr><td>${esc(name)}</td><td>${rows.length}</td><td>${rows.filter((x) => x.defects.length).length}</td><td>${rows.filter((x) => x.proven).length}</td><td>${proven} (${rows.length ? Math.round((proven / rows.length) * 100) : 0}%)</td></tr>`;
  };
  return `<h2>Rules proven able to fail: ${p.proven}/${p.closed} (${Math.round(p.share * 100)}%)</h2>
<p class="muted">A defect proves a rule when the reference target started with it fails exactly the rules it breaks. A mutation proves a rule when, with the mutation rewriting the target's answers in that rule's own case only, the case fails on a named check (not a crash or a timeout). The catalogue below says, per rule, which.</p>
<table><tr><th>Surface</th><th>Documented rules</th><th>By a defect</th><th>By a mutation</th><th>Proven</th></tr>${surfaces
    .map((s) =>
      row(
        s,
        p.rules.filter((x) => x.surface === s),
      ),
    )
    .join('')}${row('all', p.rules)}</table>`;
}

const OUTCOMES = ['pass', 'fail', 'skip', 'observed', 'uncovered'] as const;

export function conformancePage(r: Results): string {
  const t = r.totals;
  // An interrupted gate also counts the rules no case of which finished: never among the skipped or the covered.
  const kinds = [...OUTCOMES, ...(r.interrupted ? (['not_run'] as const) : [])];
  const totals = kinds.map((k) => `<span>${badge(k)} ${t[k] ?? 0}</span>`).join('');
  const allExact = r.selftest?.defects.every((d) => d.exact) ?? true;
  const selftest = r.selftest
    ? `<h2>Defect self-test: mutation score ${(r.selftest.mutation_score * 100).toFixed(0)}% (${r.selftest.caught}/${r.selftest.total})</h2>
<details${allExact ? '' : ' open'}><summary>Each defect of the reference target, the rules it breaks and the rules the suite failed</summary><table><tr><th>Defect</th><th>Breaks</th><th>Failed rules</th><th>Verdict</th></tr>${r.selftest.defects
        .map(
          (d) =>
            `<tr><td><code>${esc(d.id)}</code><div class="muted">${esc(d.description)}</div></td><td>${d.breaks.map((b) => `<code>${esc(b)}</code>`).join('<br>')}</td><td>${d.failed_rules.map((b) => `<code>${esc(b)}</code>`).join('<br>') || '—'}</td><td>${d.exact ? badge('pass') : badge('fail')} ${d.caught ? (d.exact ? 'caught exactly' : 'caught, with other rules') : 'not caught'}${(d.unexpected ?? []).map((u) => `<div class="muted"><code>${esc(u.rule)}</code>: ${esc(u.detail)}</div>`).join('')}${(d.beside_others ?? []).map((u) => `<div class="muted">failed beside the other lanes, held when run by itself: <code>${esc(u.rule)}</code>: ${esc(u.detail)}</div>`).join('')}</td></tr>`,
        )
        .join('')}</table></details>`
    : '';
  const surfaces = [...new Set(r.rules.map((x) => x.surface))];
  const proofOf = new Map((r.proof?.rules ?? []).map((p) => [p.rule, p]));
  const outcomes = kinds;
  const bySurface = surfaces
    .map((sf) => {
      const rules = r.rules.filter((x) => x.surface === sf);
      return `<tr><td><a href="#surface-${esc(sf)}">${esc(sf)}</a></td><td>${rules.length}</td>${outcomes.map((o) => `<td>${rules.filter((x) => x.outcome === o).length || ''}</td>`).join('')}</tr>`;
    })
    .join('');
  const surfaceTable = `<table><tr><th>Surface</th><th>Rules</th>${outcomes.map((o) => `<th>${badge(o)}</th>`).join('')}</tr>${bySurface}</table>`;
  const ruleTables = surfaces
    .map((s) => {
      const rows = r.rules
        .filter((x) => x.surface === s)
        .map(
          (x) =>
            `<tr data-outcome="${esc(x.outcome)}"><td>${x.cases ? `<a href="#case-${esc(x.id)}"><code>${esc(x.id)}</code></a>` : `<code>${esc(x.id)}</code>`}</td><td>${badge(x.outcome)}</td><td>${esc(x.statement)}${x.chosen ? `<div class="muted">target chose: ${esc(x.chosen)}</div>` : ''}</td><td class="muted">doc ${x.doc} · ${esc(x.section)}</td>${r.proof ? `<td>${provenBy(proofOf.get(x.id))}</td>` : ''}</tr>`,
        )
        .join('');
      return `<h3 id="surface-${esc(s)}">${esc(s)}</h3><table><tr><th>Rule</th><th>Outcome</th><th>Statement</th><th>Where</th>${r.proof ? '<th>Proven able to fail by</th>' : ''}</tr>${rows}</table>`;
    })
    .join('');
  const failures = r.cases.filter((c) => c.outcome === 'fail');
  const errors = r.errors.length ? `<h2>Suite errors</h2>${r.errors.map((e) => `<pre>${esc(e)}</pre>`).join('')}` : '';
  const body = `<nav><a href="../index.html">← all reports</a><a href="results.json">results.json</a><a href="junit.xml">junit.xml</a></nav>
<h1>Conformance: ${esc(r.target.name)} ${r.interrupted ? badge('interrupted') : badge(r.gate)}</h1>
<p class="muted">${esc(r.started_at)} · ${(r.duration_ms / 1000).toFixed(1)} s · ${esc(r.target.kind)} target, ${esc(r.target.environment)}${r.filter ? ` · only <code>${esc(r.filter)}</code>` : ''}</p>
${r.target.tls?.insecure ? '<p><strong>TLS certificate verification was off for this run (the profile says <code>tls.insecure</code>).</strong></p>' : ''}
${r.interrupted ? `<p><strong>Interrupted by ${esc(r.interrupted.signal)} at ${esc(r.interrupted.at)}: the cases below finished; ${r.interrupted.rules_not_run.length} rules got no finished case, so the gate fails.</strong></p>` : ''}
<p class="totals">${totals}</p>
<p class="filter">Show: ${kinds.map((k) => `<label><input type="checkbox" value="${k}" checked> ${k}</label>`).join('')}</p>
<h2>Rules by surface</h2>${surfaceTable}
${errors}${selftest}${r.proof ? proofSection(r.proof) : ''}
${failures.length ? `<h2>Failures (${failures.length})</h2>${failures.map(caseBlock).join('')}` : ''}
<h2>Cases (${r.cases.length})</h2>${r.cases.map(caseBlock).join('')}
<h2>Rule catalogue (${r.rules.length})</h2>${ruleTables}
${namesSection(r)}`;
  return page(`dialtone conformance: ${r.target.name}`, body, FILTER_SCRIPT);
}

/** The names the documents leave out, as this run spelled them, and where TLS trust came from. */
function namesSection(r: Results): string {
  const names = r.target.names;
  const tls = r.target.tls;
  const rows = Object.entries(names ?? {}).flatMap(([group, v]) =>
    typeof v === 'object' && v !== null
      ? Object.entries(v).map(([k, name]) => `<tr><td>${esc(group)}.${esc(k)}</td><td><code>${esc(String(name))}</code></td></tr>`)
      : [`<tr><td>${esc(group)}</td><td><code>${esc(String(v))}</code></td></tr>`],
  );
  const trust = tls
    ? tls.insecure
      ? 'verification off (tls.insecure)'
      : tls.ca_file
        ? `system store plus ${esc(tls.ca_file)}`
        : 'system store'
    : 'system store';
  const left = r.left_behind?.length
    ? `<h2>Left on the target (${r.left_behind.length})</h2><p>The profile names no delete path for these; remove them by hand.</p><table><tr><th>Kind</th><th>Id</th><th>Rule</th></tr>${r.left_behind
        .map((x) => `<tr><td>${esc(x.kind)}</td><td><code>${esc(x.id)}</code></td><td>${esc(x.rule)}</td></tr>`)
        .join('')}</table>`
    : '';
  const waited = Object.entries(WAITS_REPORTED)
    .map(([key, { field, label }]) => {
      const wait = r.target[field];
      const from = wait?.source === 'profile' ? `from the profile, <code>waits.${key}</code>` : `default; a profile sets <code>waits.${key}</code>`;
      return wait ? `<p>${label}: ${wait.ms} ms (${from})</p>` : '';
    })
    .join('');
  return (
    `<h2>Names and trust this run used</h2><p>TLS: ${trust}</p>${waited}<table><tr><th>Name the documents leave out</th><th>As ` +
    `used</th></tr>${rows.join('')}</table>${left}`
  );
}
