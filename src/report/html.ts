import { DIALTONE_VERSION } from '../version.js';

/** Escapes text for HTML element and attribute content. */
export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The one stylesheet every dialtone page inlines, so a report opens offline from a file. */
export const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--skip:#6e7781;--observed:#8250df;--uncovered:#bf8700;--bg:#fff;--fg:#1f2328;--mute:#f6f8fa;--line:#d0d7de}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0;padding:24px;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--mute)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:var(--mute);padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0}
.badge{display:inline-block;padding:0 8px;border-radius:10px;color:#fff;font-size:12px;font-weight:600}
.pass{background:var(--pass)}.fail{background:var(--fail)}.skip{background:var(--skip)}.observed{background:var(--observed)}
.uncovered{background:var(--uncovered)}.interrupted{background:var(--skip)}.not_run{background:var(--uncovered)}
.totals span{margin-right:12px}.muted{color:#57606a}details{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}
summary{cursor:pointer}details[open]>summary{margin-bottom:6px}.kv{display:grid;grid-template-columns:110px 1fr;gap:2px 10px}
nav a{margin-right:14px}.filter label{margin-right:12px}
`;

/** Wraps a body in a complete, self-contained page; its footer names the dialtone that wrote it. */
export function page(title: string, body: string, script = ''): string {
  const footer = `<footer class="muted"><p>dialtone ${esc(DIALTONE_VERSION)}</p></footer>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}${footer}${script ? `<script>${script}</script>` : ''}</body></html>\n`;
}

export const badge = (outcome: string) => `<span class="badge ${esc(outcome)}">${esc(outcome.replaceAll('_', ' '))}</span>`;

/**
 * A run's badge: interrupted when a stop signal cut it short (neither passed nor failed), else pass or fail.
 *
 * @example
 * runBadge({ passed: false, interrupted: { signal: 'SIGINT', at } }); // '<span class="badge interrupted">interrupted</span>'
 */
export const runBadge = (r: { readonly passed: boolean; readonly interrupted?: unknown }) => badge(r.interrupted ? 'interrupted' : r.passed ? 'pass' : 'fail');
