// Settings > Catalog file: download the environment's catalog as a file, upload one to replace
// it, and what an upload did: the problems by line (nothing changed) or what was imported.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { ImportSummary, Problem } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import { csrfField, pageHeader } from './shell.ts';

export const CATALOG_FILE = '/dashboard/settings/catalog-file';
export const CATALOG_FILE_MAX_BYTES = 1024 * 1024;

function problemRow(problem: Problem): SafeHtml {
  return html`<tr><td class="num">${problem.line ?? '—'}</td>
    <td class="problem-cell"><code>${problem.path || '(whole file)'}</code><div>${problem.message}</div></td></tr>`;
}

function problemTable(fileName: string, problems: Problem[]): SafeHtml {
  return html`<section class="panel" aria-labelledby="problems-heading" id="import-problems">
  <h2 id="problems-heading">${fileName} has ${problems.length} problem${problems.length === 1 ? '' : 's'}</h2>
  <div class="alert error" role="alert">Nothing was changed. Fix these in the file and upload it again.</div>
  <div class="table-wrap"><table>
    <caption class="visually-hidden">Problems in the catalog file</caption>
    <thead><tr><th scope="col" class="num">Line</th><th scope="col">Where, and the problem</th></tr></thead>
    <tbody>${problems.map((problem) => problemRow(problem))}</tbody>
  </table></div>
</section>`;
}

function summaryPanel(fileName: string, summary: ImportSummary): SafeHtml {
  const counts: [string, number][] = [
    ['Industries', summary.industries],
    ['Categories', summary.categories],
    ['Products', summary.products],
    ['Extras', summary.extras],
    ['Zones', summary.zones],
    ['Crew members', summary.staff],
    ['Coupons', summary.coupons],
  ];
  return html`<section class="panel" aria-labelledby="imported-heading" id="import-summary">
  <h2 id="imported-heading">Imported ${fileName}</h2>
  <div class="alert success" role="status">The catalog now is what the file says. Items the file left out were archived; bookings that name them still find them.</div>
  <div class="stats">${counts.map(
    ([label, count]) =>
      html`<div class="stat"><div class="label">${label}</div><div class="value">${count}</div></div>`,
  )}</div>
</section>`;
}

export function catalogFileView(
  session: Session,
  options: {
    error?: FieldError;
    result?: { fileName: string; problems?: Problem[]; summary?: ImportSummary };
  } = {},
): SafeHtml {
  const { error, result } = options;
  const environment = session.environment;
  return html`${pageHeader({
    title: 'Catalog file',
    description: `Your whole ${environment} catalog (services, zones, crew, coupons, policies) as one JSON file: download it, edit it, upload it. docs/catalog.md describes the format.`,
  })}
${result?.problems ? problemTable(result.fileName, result.problems) : null}
${result?.summary ? summaryPanel(result.fileName, result.summary) : null}
<section class="panel" aria-labelledby="download-heading">
  <h2 id="download-heading">Download</h2>
  <p>The ${environment} catalog as it is now. Keep the ids in it: items keep their ids across imports.</p>
  <a class="button secondary" href="${CATALOG_FILE}/export" download>Download ${environment} catalog</a>
</section>
<form class="panel narrow-form" method="post" action="${CATALOG_FILE}" enctype="multipart/form-data" id="catalog-import-form">
  <h2>Upload</h2>
  ${formError(error, ['file', 'confirm'])}
  ${csrfField(session)}
  <div class="field">
    <label for="catalog-file">Catalog file (JSON, up to ${CATALOG_FILE_MAX_BYTES / 1024 / 1024} MB)</label>
    <input id="catalog-file" name="file" type="file" accept=".json,application/json" required ${invalidIf(error, 'file')}>
    ${errorNextTo(error, 'file')}
  </div>
  <label class="choice"><input type="checkbox" name="confirm" value="1" required ${invalidIf(error, 'confirm')}>
    <span>Replace the whole ${environment} catalog with this file. What the file leaves out is archived.</span></label>
  ${errorNextTo(error, 'confirm')}
  <p class="hint">A file with a problem changes nothing; its problems are listed by line.</p>
  <div class="actions"><button type="submit" class="danger">Replace ${environment} catalog</button></div>
</form>`;
}
