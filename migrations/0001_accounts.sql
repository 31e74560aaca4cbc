-- Accounts (one field-service business each), their users, API keys, and the cross-cutting
-- tables every module uses: idempotency records, the event outbox and the e-mail outbox.
create extension if not exists btree_gist;
create extension if not exists pg_trgm;

create table accounts (
  id text primary key,
  name text not null,
  currency text not null default 'usd',
  settings jsonb not null default '{}',
  created_at timestamptz not null default now()
);

create table users (
  id text primary key,
  account_id text not null references accounts (id),
  email text not null,
  name text not null default '',
  password_hash text not null,
  role text not null default 'admin',
  created_at timestamptz not null default now()
);
create unique index users_email_unique on users (lower(email));
create index users_account on users (account_id);

create table api_keys (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  name text not null default '',
  key_hash text not null unique,
  last4 text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_account on api_keys (account_id, environment);

create table idempotency_keys (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('in_flight', 'done')),
  response_status integer,
  response_body text,
  created_at timestamptz not null default now(),
  locked_at timestamptz not null default now(),
  primary key (account_id, environment, key)
);
create index idempotency_keys_created on idempotency_keys (created_at);

-- The outbox: an event is written in the same transaction as the change that causes it.
create table events (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  type text not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index events_account on events (account_id, environment, created_at desc);

-- The e-mail outbox: every message is kept; with SMTP configured a worker sends it.
create table emails (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  kind text not null,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  status text not null check (status in ('pending', 'sent', 'kept', 'failed')),
  attempts integer not null default 0,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index emails_pending on emails (next_attempt_at) where status = 'pending';
create index emails_account on emails (account_id, environment, created_at desc);
