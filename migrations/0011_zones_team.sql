-- Zones, crew and time off managed through the API and the dashboard (CONTRACT §11).

alter table zones add column updated_at timestamptz;
update zones set updated_at = created_at;
alter table zones alter column updated_at set not null, alter column updated_at set default now();

alter table staff add column updated_at timestamptz;
update staff set updated_at = created_at;
alter table staff alter column updated_at set not null, alter column updated_at set default now();

-- One row per ZIP x industry of each active, unarchived zone, written with every zone change in
-- its transaction. The unique index is the rule "a ZIP is served for an industry by at most one
-- active zone", so two instances racing cannot both claim one.
create table zone_coverage (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  zone_id text not null references zones (id),
  zip text not null,
  industry text not null,
  primary key (zone_id, zip, industry)
);
create unique index zone_coverage_one_zone on zone_coverage (account_id, environment, zip, industry);

-- Where two zones already claimed the same ZIP and industry, the first in catalog order keeps it
-- (the one availability and pricing used until now).
insert into zone_coverage (account_id, environment, zone_id, zip, industry)
select z.account_id, z.environment, z.id, zz.zip, industry
from zones z
join zone_zips zz on zz.zone_id = z.id
cross join lateral unnest(z.industries) as industry
where z.is_active and z.archived_at is null
order by z.position, z.id
on conflict do nothing;

-- Time off is crew time too: a row of staff_time_blocks without a booking, so that the one
-- exclusion constraint staff_time_blocks_no_overlap keeps bookings and time off apart.
alter table staff_time_blocks add column time_off_id text;
alter table staff_time_blocks add column reason text;
alter table staff_time_blocks add constraint staff_time_blocks_one_holder
  check (booking_id is null or time_off_id is null);
create unique index staff_time_blocks_time_off on staff_time_blocks (time_off_id) where time_off_id is not null;
create index staff_time_blocks_staff_time_off on staff_time_blocks (staff_id, created_at desc, time_off_id desc)
  where time_off_id is not null;
