// The pages' static files, read once at start. Their URLs carry a hash of their content, so
// browsers may cache them for long and still get a changed file at once.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

const FILES = {
  stylesheet: { name: 'style.css', type: 'text/css; charset=utf-8' },
  script: { name: 'app.js', type: 'text/javascript; charset=utf-8' },
  icon: { name: 'icon.svg', type: 'image/svg+xml' },
} as const;

type AssetKind = keyof typeof FILES;

/** Served files by name: body and content type. */
export const ASSET_FILES = new Map<string, { body: Buffer; type: string }>();

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
