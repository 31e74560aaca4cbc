-- OAuth 2.0 authorization server: registered apps (clients), short-lived authorization codes,
-- grants (one per approved authorization) and the tokens issued under them. Secrets, codes and
-- tokens are stored only as SHA-256 hashes. An app belongs to one account and environment, and
-- so does everything issued for it.
create table oauth_apps (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  name text not null,
  description text not null default '',
  -- confidential apps authenticate with a secret; public apps (SPAs, mobile) use PKCE alone
  client_type text not null check (client_type in ('confidential', 'public')),
  secret_hash text,
  secret_last4 text,
  secret_rotated_at timestamptz,
  redirect_uris text[] not null,
  -- an uploaded image as a base64 data: URL, shown inline on the consent page
  logo_url text,
  allowed_scopes text[] not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  check ((client_type = 'confidential') = (secret_hash is not null))
);
create index oauth_apps_account on oauth_apps (account_id, environment, created_at desc) where deleted_at is null;

-- One approved authorization of an app by a user; revoking it revokes every token under it.
create table oauth_grants (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  app_id text not null references oauth_apps (id),
  user_id text not null references users (id),
  scopes text[] not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index oauth_grants_user on oauth_grants (account_id, user_id) where revoked_at is null;
create index oauth_grants_app on oauth_grants (app_id);

create table oauth_authorization_codes (
  code_hash text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  app_id text not null references oauth_apps (id),
  user_id text not null references users (id),
  redirect_uri text not null,
  scopes text[] not null,
  code_challenge text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  -- the grant the code was exchanged for: a replayed code revokes it
  grant_id text references oauth_grants (id)
);
create index oauth_codes_expiry on oauth_authorization_codes (expires_at);

create table oauth_tokens (
  id text primary key,
  token_hash text not null unique,
  kind text not null check (kind in ('access', 'refresh')),
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  app_id text not null references oauth_apps (id),
  grant_id text not null references oauth_grants (id),
  user_id text not null references users (id),
  scopes text[] not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  -- refresh tokens: set when exchanged for a new pair; presenting it again is reuse
  rotated_at timestamptz,
  revoked_at timestamptz
);
create index oauth_tokens_grant on oauth_tokens (grant_id);
