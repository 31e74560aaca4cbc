-- The service catalog (industries, categories, products, extras), coupons, zones and crews,
-- the per-environment catalog settings, and the crews' booked time.
-- Catalog rows are archived rather than deleted when an import drops them, so that bookings
-- made earlier still resolve their ids; every read filters `archived_at is null`.

create table industries (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  slug text not null,
  name text not null,
  description text not null default '',
  icon text not null default '',
  configuration_type text not null check (configuration_type in ('room_based', 'item_based', 'section_based')),
  is_active boolean not null default true,
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index industries_slug on industries (account_id, environment, slug);

create table product_categories (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  industry_id text not null references industries (id),
  slug text not null,
  name text not null,
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create index product_categories_industry on product_categories (industry_id);

create table products (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  industry_id text not null references industries (id),
  category_id text not null references product_categories (id),
  slug text not null,
  name text not null,
  description text not null default '',
  base_price integer not null check (base_price >= 0),
  minutes integer not null check (minutes >= 0),
  in_catalog boolean not null default true,
  -- room_based industries price a visit plus every bedroom and bathroom from these products
  room text check (room in ('visit', 'bedroom', 'bathroom')),
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create index products_industry on products (industry_id);

create table extras (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  industry_id text not null references industries (id),
  slug text not null,
  name text not null,
  description text not null default '',
  price integer not null check (price >= 0),
  price_type text not null check (price_type in ('per_unit', 'flat')),
  unit_label text,
  minutes integer not null default 0 check (minutes >= 0),
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create index extras_industry on extras (industry_id);

create table coupons (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  code text not null,
  description text not null default '',
  percent_off numeric(6, 3) check (percent_off > 0 and percent_off <= 100),
  amount_off integer check (amount_off > 0),
  valid_from timestamptz,
  valid_until timestamptz,
  max_redemptions integer check (max_redemptions > 0),
  -- counted by bookings, in the booking's transaction (see redeemCoupon)
  times_redeemed integer not null default 0 check (times_redeemed >= 0),
  -- industry slugs the coupon is limited to; null = every industry
  industries text[],
  is_active boolean not null default true,
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  check ((percent_off is null) <> (amount_off is null)),
  check (max_redemptions is null or times_redeemed <= max_redemptions)
);
create unique index coupons_code on coupons (account_id, environment, lower(code));

create table zones (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  name text not null,
  timezone text not null,
  -- industry slugs served
  industries text[] not null default '{}',
  -- {"monday": {"open": "08:00", "close": "18:00"}, ..., "sunday": null}
  hours jsonb not null,
  slot_interval_minutes integer not null check (slot_interval_minutes > 0),
  travel_buffer_minutes integer not null check (travel_buffer_minutes >= 0),
  lead_time_minutes integer not null check (lead_time_minutes >= 0),
  price_adjustment_percent numeric(7, 3) not null default 0,
  tax_rate numeric(6, 3) not null default 0 check (tax_rate >= 0),
  is_active boolean not null default true,
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create index zones_account on zones (account_id, environment);

-- A zone's ZIP list (also what the customers list filter `zone_id` matches addresses against).
create table zone_zips (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  zone_id text not null references zones (id),
  zip text not null,
  primary key (zone_id, zip)
);
create index zone_zips_zip on zone_zips (account_id, environment, zip);

create table staff (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  name text not null,
  email text,
  phone text,
  -- industry slugs the crew member works in
  industries text[] not null default '{}',
  -- working days and hours, same shape as zones.hours
  hours jsonb not null,
  is_active boolean not null default true,
  position integer not null default 0,
  archived_at timestamptz,
  created_at timestamptz not null default now()
);
create index staff_account on staff (account_id, environment);

create table staff_zones (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  staff_id text not null references staff (id),
  zone_id text not null references zones (id),
  primary key (staff_id, zone_id)
);
create index staff_zones_zone on staff_zones (zone_id);

-- A crew member's booked time: the job plus the zone's travel buffer after it, [start, end + buffer).
-- The exclusion constraint is what keeps two bookings off the same person at once, whatever
-- the concurrency and however many server instances run.
create table staff_time_blocks (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  staff_id text not null references staff (id),
  booking_id text,
  during tstzrange not null check (not isempty(during)),
  created_at timestamptz not null default now(),
  constraint staff_time_blocks_no_overlap exclude using gist (staff_id with =, during with &&)
);
create index staff_time_blocks_booking on staff_time_blocks (booking_id) where booking_id is not null;
-- availability reads one environment's booked time around a day in one index scan
create index staff_time_blocks_window on staff_time_blocks using gist (account_id, environment, during);

-- Per-environment settings: frequency discounts (percent) and the cancellation policy.
create table catalog_settings (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  frequency_discounts jsonb not null,
  cancellation_policy jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (account_id, environment)
);
