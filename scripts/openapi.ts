// Writes the OpenAPI document the app serves at /v1/openapi.json to a file (or stdout), for
// `npm run lint:openapi` (Redocly's recommended rules) and for generating clients. The app is
// built as the server builds it, on an in-memory database that is never queried.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db.ts';

const [target] = process.argv.slice(2);
const database = await openDatabase({});
const app = await buildApp({
  config: loadConfig({ BASE_URL: process.env.BASE_URL ?? '' }),
  database,
  clock: systemClock,
  logger: false,
});
await app.server.ready();
// Without BASE_URL the document names no host (a server relative to where it is read): it
// describes every installation rather than this machine's localhost.
const served = app.server.swagger() as { servers?: { url: string }[] };
const servers = process.env.BASE_URL ? served.servers : [{ url: '/' }];
const document = `${JSON.stringify({ ...served, servers }, null, 2)}\n`;
await app.close();
await database.close();
if (target) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, document);
} else process.stdout.write(document);
