// What every module's `*.cli.ts` builds on: the command shape, option readers, and the one
// error type. A usage mistake (missing or malformed option) exits 2; a refused or failed
// command exits 1. src/cli.ts collects the commands and prints the results.
import type { Deps } from './deps.ts';
import type { Environment } from './tenant.ts';

export type CliOptions = Record<string, string | boolean | string[] | undefined>;

export interface CliCommand {
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  /** The name of the positional arguments the command takes, if any (e.g. FILE). */
  positionals?: string;
  run(options: CliOptions, deps: Deps, positionals: string[]): Promise<unknown>;
}

/** A mistake in how a command was called (exit 2), or a command that could not be done (exit 1). */
export class CliError extends Error {
  readonly exitCode: 1 | 2;
  constructor(message: string, kind: 'usage' | 'failed' = 'usage') {
    super(message);
    this.exitCode = kind === 'usage' ? 2 : 1;
  }
}

export function optionalText(options: CliOptions, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requiredText(options: CliOptions, name: string): string {
  const value = optionalText(options, name);
  if (value === undefined) throw new CliError(`--${name} is required`);
  return value;
}

/** A repeatable option, each value also split on commas and spaces. */
export function textList(options: CliOptions, name: string): string[] {
  const value = options[name];
  const values = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return values.flatMap((item) => item.split(/[\s,]+/)).filter(Boolean);
}

export function environmentOption(value: string | undefined): Environment {
  if (value === undefined) throw new CliError('--env is required');
  if (value !== 'test' && value !== 'live') throw new CliError('--env must be test or live');
  return value;
}
