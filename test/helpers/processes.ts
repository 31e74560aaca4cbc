// Real server processes (`node bin/fieldhand.js serve`) for the tests that need several
// instances or a kill -9. Every process started here is SIGKILLed by killServers().
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll } from 'vitest';
import { waitFor } from './webhooks.ts';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Every line the process wrote to stdout (its JSON log lines), as they come. */
  logs: string[];
}

const children = new Set<ChildProcess>();

/** A port nothing listens on now (the OS picks it), for a server process to take. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A server on its own port with `env` (DATABASE_URL and settings); resolves once it answers
 * /healthz, or at once with `waitUntilUp: false` (then `up()` waits).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { waitUntilUp?: boolean } = {},
): Promise<ServerProcess & { up(): Promise<void> }> {
  const port = await freePort();
  const child = spawnServe(port, env, ['ignore', 'pipe', 'inherit']);
  children.add(child);
  child.on('exit', () => children.delete(child));
  const logs: string[] = [];
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    logs.push(...lines);
  });
  const up = () =>
    waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        return fetch(`http://127.0.0.1:${port}/healthz`).then(
          (res) => res.ok,
          () => false,
        );
      },
      // two processes compiling the sources on a busy machine can take a while
      { timeoutMs: 120_000, everyMs: 200, what: 'the server to start' },
    ).then(() => {});
  if (options.waitUntilUp !== false) await up();
  return { child, url: `http://127.0.0.1:${port}`, logs, up };
}

/**
 * `fieldhand serve` on 127.0.0.1:`port` with a bare environment: PATH, HOME, LOG_LEVEL (warn
 * unless `env` says) and `env`.
 */
export function spawnServe(port: number, env: Record<string, string>, stdio: StdioOptions = 'pipe'): ChildProcess {
  return spawn(process.execPath, ['bin/fieldhand.js', 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio,
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** For afterAll: kills whatever is still running. */
export function killServers(): void {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * For a test file that starts server processes: returns the list its tests push their cleanups
 * onto; after all its tests the processes are killed, then the cleanups run, last first.
 */
export function cleanUpAfterAll(): (() => Promise<void>)[] {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    killServers();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return cleanups;
}

/** Waits for a process to end: its exit code and everything it printed. */
export function outputOf(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
