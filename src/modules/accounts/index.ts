export {
  apiKeyView,
  countAccounts,
  findAccount,
  findUser,
  listAdminEmails,
  listApiKeys,
} from './accounts.repository.ts';
export { accountExists, authenticateUser, createAccount, type DemoSeeder } from './accounts.service.ts';
export { apiKeyResolver, createApiKey, hashSecret, revokeApiKey } from './api-keys.service.ts';
export { hashPassword, verifyPassword } from './passwords.ts';
