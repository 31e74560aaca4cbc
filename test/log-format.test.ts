// The log is for people in a terminal and for machines elsewhere: LOG_FORMAT=pretty writes
// pino-pretty lines, json (the default off a terminal) one JSON object a line; anything else is
// refused at start with the variable named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logFormat } from '../src/core/config.ts';
import { cleanUpAfterAll, freePort, outputOf, spawnServe } from './helpers/processes.ts';

const cleanups = cleanUpAfterAll();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-logs-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Starts `serve` on the embedded database and returns its stdout once it says it listens. */
async function firstLines(env: Record<string, string>): Promise<string> {
  const child = spawnServe(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env });
  cleanups.push(async () => {
    child.kill('SIGKILL');
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  while (!/listening/i.test(stdout)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start: ${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  return stdout;
}

describe('LOG_FORMAT', { timeout: 120_000 }, () => {
  it('defaults to pretty in a terminal and to JSON elsewhere, and refuses other values', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(() => logFormat({ LOG_FORMAT: 'xml' }, false)).toThrow('LOG_FORMAT must be "json" or "pretty", got "xml"');
  });

  it('writes pino-pretty lines with pretty and JSON lines with json', async () => {
    const pretty = (await firstLines({ LOG_FORMAT: 'pretty' })).split('\n').find((line) => /listening/i.test(line));
    expect(pretty).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO/);
    const json = (await firstLines({ LOG_FORMAT: 'json' })).split('\n').find((line) => /listening/i.test(line));
    expect(JSON.parse(json ?? '')).toMatchObject({ level: 30 });
  });

  it('exits at start with the variable named when the value is not one it knows', async () => {
    const { code, stderr, stdout } = await outputOf(
      spawnServe(await freePort(), { DATA_DIR: dataDir, LOG_FORMAT: 'xml' }),
    );
    expect(code).not.toBe(0);
    expect(`${stdout}${stderr}`).toContain('LOG_FORMAT must be "json" or "pretty"');
  });
});
