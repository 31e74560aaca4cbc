-- Bookings and the subscriptions that recurring bookings form. A booking's crew time lives in
-- staff_time_blocks (0003), whose exclusion constraint is what refuses double-booking.

-- A recurring service: one open occurrence at a time; completing it books the next.
create table subscriptions (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  customer_id text not null references customers (id),
  frequency text not null check (frequency in ('weekly', 'bi-weekly', 'monthly')),
  -- needs_attention: the next occurrence could not be booked; cancelled: its open occurrence was
  status text not null check (status in ('active', 'needs_attention', 'cancelled')),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index subscriptions_customer on subscriptions (customer_id) where status = 'active';

create table bookings (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  customer_id text not null references customers (id),
  address_id text not null references addresses (id),
  zone_id text references zones (id),
  subscription_id text references subscriptions (id),
  status text not null check (status in ('confirmed', 'in_progress', 'completed', 'cancelled')),
  industry text not null,
  configuration jsonb not null,
  -- the coupon's terms when booked (re-pricing keeps them; the redemption was counted once)
  coupon jsonb,
  -- the pricing breakdown exactly as POST /v1/services/pricing quotes it
  pricing jsonb not null,
  total bigint not null check (total >= 0),
  estimated_duration integer not null check (estimated_duration >= 0),
  scheduled_at timestamptz not null,
  assigned_crew text[] not null,
  notes text,
  -- [{status, at, note}], oldest first
  timeline jsonb not null,
  cancellation jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
-- the lists: newest first, by status, by scheduled time; keyed by id as the tie-break
create index bookings_list on bookings (account_id, environment, created_at desc, id desc);
create index bookings_status on bookings (account_id, environment, status, created_at desc, id desc);
create index bookings_scheduled on bookings (account_id, environment, scheduled_at, id);
create index bookings_customer on bookings (customer_id, created_at desc, id desc);
create index bookings_subscription on bookings (subscription_id) where subscription_id is not null;

-- Bookings per status, moved by the transactions that change them (as their last statement, so
-- a row lock is held only until commit): a list's `total` for all bookings or one status
-- without counting every row. Each transaction moves one of 16 shards, picked at random, so
-- concurrent bookings rarely wait for each other; a total is the sum over the shards.
create table booking_counts (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  status text not null check (status in ('confirmed', 'in_progress', 'completed', 'cancelled')),
  shard smallint not null check (shard between 0 and 15),
  -- no check (count >= 0): a shard may go below zero; the sum over the shards cannot
  count bigint not null,
  primary key (account_id, environment, status, shard)
);
