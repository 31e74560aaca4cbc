// Settings > Catalog file: the dashboard's `fieldhand catalog export|import`, through the same
// services as the CLI (one transaction; a file with a problem changes nothing).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { invalidParameter } from '../../core/errors.ts';
import { fieldError, formField } from '../../web/forms.ts';
import { CatalogFileError, exportCatalog, importCatalog } from '../catalog/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { CATALOG_FILE, CATALOG_FILE_MAX_BYTES, catalogFileView } from './catalog-file.view.ts';
import { PAGE } from './pages.ts';
import { sendShell } from './shell.ts';

export function catalogFilePages(app: FastifyInstance, deps: Deps): void {
  app.get(CATALOG_FILE, PAGE, async (request, reply) =>
    sendShell(request, reply, { title: 'Catalog file', content: catalogFileView(request.session) }),
  );

  app.get(`${CATALOG_FILE}/export`, PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const catalog = await exportCatalog(deps, tenant);
    const day = deps.clock.now().toISOString().slice(0, 10);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="fieldhand-catalog-${tenant.environment}-${day}.json"`)
      .header('cache-control', 'no-store')
      .send(`${JSON.stringify(catalog, null, 2)}\n`);
  });

  app.post(CATALOG_FILE, { ...PAGE, config: { uploadMaxBytes: CATALOG_FILE_MAX_BYTES } }, async (request, reply) => {
    const file = request.upload?.files.get('file');
    try {
      if (request.upload?.problem) throw invalidParameter('file', request.upload.problem);
      if (!file) throw invalidParameter('file', 'Choose the catalog file to upload.');
      if (file.tooLarge) {
        throw invalidParameter('file', `The file must be at most ${CATALOG_FILE_MAX_BYTES / 1024 / 1024} MB.`);
      }
      if (formField(request, 'confirm') !== '1') {
        throw invalidParameter('confirm', 'Tick the box to confirm that this file replaces the whole catalog.');
      }
      const summary = await importCatalog(deps, sessionTenant(request.session), file.bytes.toString('utf8'));
      return sendShell(request, reply, {
        title: 'Catalog imported',
        content: catalogFileView(request.session, { result: { fileName: file.fileName, summary } }),
      });
    } catch (error) {
      if (error instanceof CatalogFileError && file) {
        return sendShell(request, reply, {
          title: 'Catalog file not imported',
          status: 400,
          content: catalogFileView(request.session, { result: { fileName: file.fileName, problems: error.problems } }),
        });
      }
      return sendShell(request, reply, {
        title: 'Catalog file',
        status: 400,
        content: catalogFileView(request.session, { error: fieldError(error) }),
      });
    }
  });
}
