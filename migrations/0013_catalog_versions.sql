-- A counter per account and environment that moves with every change to the business setup the
-- servers cache (industries, categories, products, extras, zones and their ZIPs, staff and their
-- zones, settings). Each server keeps what pricing, availability and the industries list read,
-- keyed by this number, and checks it with one primary-key read per request: a change made
-- through any instance is seen by the next request on every instance, with nothing shared but
-- the database (no LISTEN, so PgBouncer in transaction mode is fine).
--
-- Triggers rather than a call in each service: every write path bumps it, the API, the
-- dashboard, the catalog file import, the demo seeder and whatever comes next, in the writing
-- transaction, so a rolled-back change bumps nothing. Coupons and crew time (bookings and time
-- off) are not cached and have no trigger: pricing and availability read them on every request
-- (a coupon's redemption count moves with every booking).
-- Versions are drawn from one sequence, which a rollback does not give back: a number read
-- inside a transaction that then rolls back is never the number of another catalog.
create sequence catalog_version_numbers;
create table catalog_versions (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  version bigint not null,
  primary key (account_id, environment)
);

create function bump_catalog_version() returns trigger language plpgsql as $$
declare
  changed record;
begin
  if tg_op = 'DELETE' then changed := old; else changed := new; end if;
  insert into catalog_versions (account_id, environment, version)
  values (changed.account_id, changed.environment, nextval('catalog_version_numbers'))
  on conflict (account_id, environment) do update set version = nextval('catalog_version_numbers');
  -- a row moved to another tenant (never done, but then both must move)
  if tg_op = 'UPDATE' and (old.account_id, old.environment) is distinct from (new.account_id, new.environment) then
    insert into catalog_versions (account_id, environment, version)
    values (old.account_id, old.environment, nextval('catalog_version_numbers'))
    on conflict (account_id, environment) do update set version = nextval('catalog_version_numbers');
  end if;
  return null;
end
$$;

-- one trigger per cached table, named <table>_catalog_version
do $$
declare
  cached text;
begin
  foreach cached in array array['industries', 'product_categories', 'products', 'extras', 'zones', 'zone_zips',
                                'zone_coverage', 'staff', 'staff_zones', 'catalog_settings'] loop
    execute format('create trigger %I after insert or update or delete on %I for each row execute function bump_catalog_version()',
                   cached || '_catalog_version', cached);
  end loop;
end
$$;
