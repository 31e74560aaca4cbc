-- Webhook endpoints and their delivery attempts. A delivery attempt row is written in the same
-- transaction as the event it carries (see events.service.ts), so nothing is lost.

-- The exact JSON text of each event, so deliveries keep the API's key order (jsonb reorders keys).
alter table events add column body text;

create table webhook_endpoints (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  url text not null,
  events text[] not null,
  description text,
  status text not null default 'active' check (status in ('active', 'disabled')),
  disabled_reason text check (disabled_reason in ('manual', 'gone', 'failing')),
  -- kept in clear: the server needs it to sign every delivery (HMAC), unlike an API key
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- first failure since the last success; 5 days of it disables the endpoint
  failing_since timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhook_endpoints_list on webhook_endpoints (account_id, environment, created_at desc, id desc);
create index webhook_endpoints_active on webhook_endpoints (account_id, environment) where status = 'active';

-- One row per attempt. A pending row is an attempt waiting for `next_attempt_at`; a worker
-- claims it under a lease (leased_until, lease_owner) so no two workers attempt it at once.
create table webhook_deliveries (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  endpoint_id text not null references webhook_endpoints (id) on delete cascade,
  event_id text not null references events (id),
  event_type text not null,
  attempt integer not null check (attempt >= 1),
  -- test sends and retries asked for by hand: one attempt, no automatic schedule
  manual boolean not null default false,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  response_code integer,
  response_time_ms integer,
  error_type text,
  error_message text,
  attempted_at timestamptz,
  next_attempt_at timestamptz,
  leased_until timestamptz,
  lease_owner text,
  created_at timestamptz not null
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_event on webhook_deliveries (event_id);
