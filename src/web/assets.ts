// The pages' static files (assets/), read once at start and served under /dashboard/assets.
// Their URLs carry a hash of their content, so browsers may cache them for long and still get a
// changed file at once.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';

const FILES = {
  stylesheet: { name: 'style.css', type: 'text/css; charset=utf-8' },
  script: { name: 'app.js', type: 'text/javascript; charset=utf-8' },
  icon: { name: 'icon.svg', type: 'image/svg+xml' },
} as const;

type AssetKind = keyof typeof FILES;

/** Served files by name: body and content type. */
const ASSET_FILES = new Map<string, { body: Buffer; type: string }>();

function load(kind: AssetKind): string {
  const file = FILES[kind];
  const body = fs.readFileSync(new URL(`./assets/${file.name}`, import.meta.url));
  ASSET_FILES.set(file.name, { body, type: file.type });
  const version = createHash('sha256').update(body).digest('hex').slice(0, 10);
  return `/dashboard/assets/${file.name}?v=${version}`;
}

/** Public paths of the static files. */
export const ASSETS: Record<AssetKind, string> = {
  stylesheet: load('stylesheet'),
  script: load('script'),
  icon: load('icon'),
};

export function assetRoutes(app: FastifyInstance): void {
  app.get<{ Params: { name: string } }>(
    '/dashboard/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = ASSET_FILES.get(request.params.name);
      if (!asset) return reply.code(404).type('text/plain').send('Not found');
      // URLs carry a content hash (ASSETS), so browsers may keep the files for a day.
      return reply.header('cache-control', 'public, max-age=86400').type(asset.type).send(asset.body);
    },
  );
  // Browsers ask for this on their own.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect(ASSETS.icon, 301));
}
