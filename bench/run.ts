// `npm run bench [name…]`: runs bench/<name>.bench.ts (all of them by default) one after another
// on real PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace('.bench.ts', '')))
  .sort();

for (const file of files) {
  const scenario = (await import(`./${file}`)) as { default: () => Promise<void> };
  await scenario.default();
}

// every figure of the run again, in one table to paste (ratios against the run's bare ceiling)
const { figures } = await import('./harness.ts');
console.log('\n== summary (req/s, × bare ceiling at 50 connections, p50/p99 ms)');
for (const figure of figures) {
  const ratio = figure.ratio === undefined ? '' : `${figure.ratio.toFixed(2)}×`;
  console.log(
    `| ${figure.name.trim()} | ${figure.requestsPerSecond} | ${ratio} | ${figure.p50}/${figure.p99} |` +
      (figure.errors || figure.non2xx ? ` errors ${figure.errors}, non-2xx ${figure.non2xx}` : ''),
  );
}
process.exit(0);
