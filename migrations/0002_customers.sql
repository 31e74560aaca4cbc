create table customers (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  first_name text not null,
  last_name text not null,
  email text not null,
  phone text,
  status text not null default 'active' check (status in ('active', 'inactive', 'deactivated')),
  preferences jsonb not null default '{"preferred_contact": "email", "marketing_opt_in": false}',
  credit_balance bigint not null default 0,
  -- stats, kept exact by the modules that change bookings and payments, in their transactions
  total_bookings integer not null default 0,
  total_spent bigint not null default 0,
  last_booking_at timestamptz,
  active_subscription boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- what `search` matches: names, e-mail and the phone's digits, lower-cased
  search_text text generated always as (
    lower(first_name || ' ' || last_name || ' ' || email || ' ' ||
      regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))
  ) stored
);
create unique index customers_email_unique on customers (account_id, environment, lower(email));
create index customers_list on customers (account_id, environment, created_at desc, id desc);
create index customers_search on customers using gin (search_text gin_trgm_ops);

create table addresses (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  customer_id text not null references customers (id),
  label text not null default 'Home',
  street text not null,
  city text not null,
  state text not null,
  zip text not null,
  access_notes text,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  -- removed addresses stay so that bookings keep their reference
  removed_at timestamptz
);
create index addresses_customer on addresses (customer_id) where removed_at is null;
create unique index addresses_one_default on addresses (customer_id) where is_default and removed_at is null;
create index addresses_zip on addresses (account_id, environment, zip) where removed_at is null;
