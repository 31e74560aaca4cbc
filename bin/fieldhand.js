#!/usr/bin/env node
// Runs the TypeScript sources, so `npx fieldhand` and `npm start` need no build step. The
// sources are bundled into one file under node_modules/.cache/fieldhand the first time (about
// 0.3 s; again whenever a file under src/ changes) and later starts load that file: going
// through tsx, every start transpiled or re-read some 200 modules through a loader thread,
// about a second and 60 MB. If the bundle cannot be built or loaded, tsx runs the sources.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'fieldhand');

/**
 * Names the bundle after every source file's path, size and time of change, the Node version
 * and this file (which says how the bundle is built).
 */
function sourcesStamp() {
  const hash = createHash('sha256').update(`${process.version}\n`).update(fs.readFileSync(fileURLToPath(import.meta.url)));
  for (const file of fs.readdirSync(SRC, { recursive: true }).sort()) {
    const stat = fs.statSync(path.join(SRC, file));
    if (stat.isFile()) hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function build(bundle) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(SRC, 'cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    packages: 'external',
    // a separate .map file: inline, the map (larger than the code) was part of the module's
    // source text and stayed in memory with it, about 8 MB of every process
    sourcemap: 'linked',
    // which packages the bundle imports, for loadCli to load before source maps are enabled
    metafile: true,
    outdir: CACHE,
    entryNames: path.basename(bundle, '.mjs'),
    outExtension: { '.js': '.mjs' },
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        // files found next to a module (migrations, web assets) stay where its source is
        name: 'source-import-meta-url',
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, (args) => ({
            loader: 'ts',
            contents: fs
              .readFileSync(args.path, 'utf8')
              .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          }));
        },
      },
    ],
  });
  const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.mjs'))?.[1];
  const packages = (output?.imports ?? [])
    .filter((entry) => entry.external && entry.kind === 'import-statement' && !entry.path.startsWith('node:'))
    .map((entry) => entry.path);
  const files = [
    ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    { path: `${bundle}.packages.json`, contents: JSON.stringify([...new Set(packages)]) },
  ];
  fs.mkdirSync(CACHE, { recursive: true });
  // several processes may start at once: each writes its own file, and renaming is atomic
  // (the bundle last, so that a bundle found is never without its map and package list)
  files.sort((a, b) => Number(a.path === bundle) - Number(b.path === bundle));
  for (const file of files) {
    const partial = `${file.path}.${process.pid}.partial`;
    fs.writeFileSync(partial, file.contents);
    fs.renameSync(partial, file.path);
  }
  for (const old of fs.readdirSync(CACHE)) {
    const keep = [bundle, `${bundle}.map`, `${bundle}.packages.json`].includes(path.join(CACHE, old));
    if (/\.mjs(\.map|\.packages\.json)?$/.test(old) && !keep) fs.rmSync(path.join(CACHE, old), { force: true });
  }
}

/**
 * Loads the packages the bundle imports, in the bundle's order (which is the order it would
 * evaluate them in), while source maps are still off: with them on, Node reads and keeps the
 * source map of every module it loads, and packages such as drizzle-orm and ajv ship maps
 * with their TypeScript sources inside, about 4 MB of every process for stack frames in
 * library code. Only the bundle's own map is wanted.
 */
async function loadPackages(bundle) {
  let packages;
  try {
    packages = JSON.parse(fs.readFileSync(`${bundle}.packages.json`, 'utf8'));
  } catch {
    return;
  }
  for (const name of packages) await import(name);
}

async function loadCli() {
  try {
    const bundle = path.join(CACHE, `cli-${sourcesStamp()}.mjs`);
    if (!fs.existsSync(bundle)) await build(bundle);
    await loadPackages(bundle);
    // stack traces name the TypeScript files, as they did under tsx
    process.setSourceMapsEnabled(true);
    return await import(pathToFileURL(bundle).href);
  } catch {
    const { register } = await import('tsx/esm/api');
    register();
    return import('../src/cli.ts');
  }
}

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
