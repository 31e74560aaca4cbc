-- Foreign keys to rows that every write of an account shares are dropped from the tables those
-- writes fill (issue 16, docs/decisions.md). PostgreSQL checks such a key by taking FOR KEY SHARE
-- on the parent row; with many transactions of one account at once, every one of them adds
-- itself to that row's lockers (a new MultiXact, a WAL record, a dirtied page). Measured on the
-- bookings bench (50 connections): the booking's insert took 1.9 ms, 0.7 ms without.
--
-- Nothing is lost by it: accounts and zones are never deleted (a zone is archived), and these
-- rows take account_id from the authenticated credential and zone_id from the catalog read in
-- the same transaction. The keys to rows a write does not share (customer, address, staff
-- member, endpoint, event) stay, and so do the account keys of the business-setup tables.
alter table bookings drop constraint bookings_account_id_fkey;
alter table bookings drop constraint bookings_zone_id_fkey;
alter table staff_time_blocks drop constraint staff_time_blocks_account_id_fkey;
alter table events drop constraint events_account_id_fkey;
alter table webhook_deliveries drop constraint webhook_deliveries_account_id_fkey;
alter table invoices drop constraint invoices_account_id_fkey;
alter table payments drop constraint payments_account_id_fkey;
alter table idempotency_keys drop constraint idempotency_keys_account_id_fkey;
alter table emails drop constraint emails_account_id_fkey;

-- An event row holds its payload twice (jsonb for queries, text as delivered): a booking's is
-- ~2.6 kB, past the 2 kB at which PostgreSQL compresses a row's wide values before storing it,
-- on every insert. Rows up to a page's worth are stored as they are.
alter table events set (toast_tuple_target = 8160);
