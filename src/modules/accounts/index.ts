// Accounts, their users and API keys: creating an account, checking a password, issuing and
// revoking keys, and the resolver that turns an API key into a /v1 principal.
export {
  accountExists,
  adminEmails,
  authenticateUser,
  createAccount,
  type DemoSeeder,
  hasAccounts,
  type NewAccount,
  type SignedInUser,
} from './accounts.service.ts';
export {
  type ApiKeyView,
  apiKeyResolver,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from './api-keys.service.ts';
