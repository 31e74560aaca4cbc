// `fieldhand catalog export|import --account ID --env test|live FILE`: a business edits its
// catalog as a JSON file (docs/catalog.md) instead of SQL.
import fs from 'node:fs';
import { type CliCommand, CliError, type CliOptions, environmentOption, requiredText } from '../../core/cli.ts';
import type { Deps } from '../../core/deps.ts';
import { migrate } from '../../core/migrate.ts';
import type { Tenant } from '../../core/tenant.ts';
import { accountExists } from '../accounts/index.ts';
import { exportCatalog, importCatalog } from './catalog-file.service.ts';

async function tenantFrom(options: CliOptions, deps: Deps): Promise<Tenant> {
  const accountId = requiredText(options, 'account');
  const environment = environmentOption(typeof options.env === 'string' ? options.env : undefined);
  await migrate(deps.db);
  if (!(await accountExists(deps, accountId))) throw new CliError(`No such account: '${accountId}'`, 'failed');
  return { accountId, environment };
}

const tenantOptions = { account: { type: 'string' }, env: { type: 'string' } } as const;

export const catalogCommands: Record<string, CliCommand> = {
  'catalog export': {
    options: tenantOptions,
    positionals: 'FILE',
    /** Writes the catalog to FILE, or prints it when no FILE is given. */
    run: async (options, deps, positionals) => {
      const tenant = await tenantFrom(options, deps);
      const catalog = await exportCatalog(deps, tenant);
      const file = positionals[0];
      if (!file || file === '-') return catalog;
      fs.writeFileSync(file, `${JSON.stringify(catalog, null, 2)}\n`);
      return {
        exported: file,
        account: tenant.accountId,
        environment: tenant.environment,
        industries: catalog.industries.length,
        zones: catalog.zones.length,
        staff: catalog.staff.length,
        coupons: catalog.coupons.length,
      };
    },
  },
  'catalog import': {
    options: tenantOptions,
    positionals: 'FILE',
    /** Replaces the environment's catalog with FILE, all or nothing. */
    run: async (options, deps, positionals) => {
      const file = positionals[0];
      if (!file) throw new CliError('Give the catalog file to import: catalog import ... FILE');
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, 'failed');
      }
      const tenant = await tenantFrom(options, deps);
      const summary = await importCatalog(deps, tenant, text);
      return { imported: file, account: tenant.accountId, environment: tenant.environment, ...summary };
    },
  },
};
