// `fieldhand catalog export|import --account ID --env test|live FILE`: a business edits its
// catalog as a JSON file (docs/catalog.md) instead of SQL.
import fs from 'node:fs';
import type { Database } from '../../core/db.ts';
import { AppError, invalidParameter } from '../../core/errors.ts';
import { migrate } from '../../core/migrate.ts';
import type { Tenant } from '../../core/tenant.ts';
import { findAccount } from '../accounts/index.ts';
import { exportCatalog, importCatalog } from './catalog-file.service.ts';

type Options = Record<string, string | boolean | string[] | undefined>;

async function tenantFrom(options: Options, db: Database): Promise<Tenant> {
  const accountId = options.account;
  if (typeof accountId !== 'string' || !accountId) throw invalidParameter('account', '--account is required');
  const environment = options.env;
  if (environment !== 'test' && environment !== 'live') throw invalidParameter('env', '--env must be test or live');
  await migrate(db.sql);
  if (!(await findAccount(db.sql, accountId))) {
    throw new AppError('resource_not_found', `No such account: '${accountId}'`, { param: 'account' });
  }
  return { accountId, environment };
}

const tenantOptions = { account: { type: 'string' }, env: { type: 'string' } } as const;

export const catalogCommands = {
  'catalog export': {
    options: tenantOptions,
    positionals: 'FILE',
    /** Writes the catalog to FILE, or prints it when no FILE is given. */
    run: async (options: Options, db: Database, positionals: string[] = []) => {
      const tenant = await tenantFrom(options, db);
      const catalog = await exportCatalog(db.sql, tenant);
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
    run: async (options: Options, db: Database, positionals: string[] = []) => {
      const file = positionals[0];
      if (!file) throw invalidParameter('FILE', 'Give the catalog file to import: catalog import ... FILE');
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw invalidParameter('FILE', `Cannot read ${file}: ${(error as Error).message}`);
      }
      const tenant = await tenantFrom(options, db);
      const summary = await importCatalog(db.sql, tenant, text, new Date());
      return { imported: file, account: tenant.accountId, environment: tenant.environment, ...summary };
    },
  },
};
