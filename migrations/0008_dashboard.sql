-- Dashboard sign-in: server-side sessions and login throttling.

-- One row per signed-in browser. Only a hash of the cookie's token is kept, so a leaked
-- table cannot be replayed. `environment` is the dashboard's test/live switch.
create table sessions (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  user_id text not null references users (id),
  token_hash text not null unique,
  csrf_secret text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
);
create index sessions_user on sessions (user_id);

-- Failed sign-ins per subject (a hashed e-mail or IP address). A sign-in comes before any
-- account is known, so this table alone carries no account_id or environment.
create table login_throttles (
  subject_hash text primary key,
  failures integer not null,
  window_started_at timestamptz not null,
  locked_until timestamptz
);
