export type Environment = 'test' | 'live';
export const ENVIRONMENTS: readonly Environment[] = ['test', 'live'];

/** Whose data a request touches: one account, one of its two environments. */
export interface Tenant {
  accountId: string;
  environment: Environment;
}
