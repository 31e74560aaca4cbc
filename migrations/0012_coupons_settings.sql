-- Coupons and settings edited through the API and the dashboard (CONTRACT §11).
--
-- A coupon's code is unique among the environment's live coupons only: DELETE archives a
-- coupon, and its code may then be given to a new one. Two servers creating the same code at
-- once still cannot both succeed: the index decides.
drop index coupons_code;
create unique index coupons_code on coupons (account_id, environment, lower(code)) where archived_at is null;

-- Business details and currency are per environment, like everything else (CONTRACT §1): test
-- can try a currency before live uses it. Absent values fall back to the account's name and
-- currency (accounts.name, accounts.currency).
alter table catalog_settings add column business jsonb not null default '{}';
alter table catalog_settings add column currency text check (currency ~ '^[a-z]{3}$');
