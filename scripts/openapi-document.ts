// The OpenAPI document the app serves at /v1/openapi.json, built without a server: the app is
// built as the server builds it, on an in-memory database that is never queried. Shared by
// `npm run openapi` (the file Redocly lints) and `npm run client` (the typed client's types).
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db.ts';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const database = await openDatabase({});
  const app = await buildApp({
    config: loadConfig({ BASE_URL: process.env.BASE_URL ?? '' }),
    database,
    clock: systemClock,
    logger: false,
  });
  try {
    await app.server.ready();
    // Without BASE_URL the document names no host (a server relative to where it is read): it
    // describes every installation rather than this machine's localhost.
    const served = app.server.swagger() as { servers?: { url: string }[] };
    const servers = process.env.BASE_URL ? served.servers : [{ url: '/' }];
    return { ...served, servers };
  } finally {
    await app.close();
    await database.close();
  }
}
