// Writes the OpenAPI document the app serves at /v1/openapi.json to a file (or stdout), for
// `npm run lint:openapi` (Redocly's recommended rules) and for reading by other tools.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './openapi-document.ts';

const [target] = process.argv.slice(2);
const document = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
if (target) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, document);
} else process.stdout.write(document);
