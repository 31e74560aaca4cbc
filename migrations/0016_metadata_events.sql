-- Metadata (CONTRACT §13): the integrator's own key-value pairs on customers, bookings, invoices
-- and webhook endpoints. Lists filter by `metadata @> {"key": "value"}`, which a GIN index with
-- jsonb_path_ops answers (smaller than the default operator class, and containment is all we ask).
alter table customers add column metadata jsonb not null default '{}';
alter table bookings add column metadata jsonb not null default '{}';
alter table invoices add column metadata jsonb not null default '{}';
alter table webhook_endpoints add column metadata jsonb not null default '{}';

create index customers_metadata on customers using gin (metadata jsonb_path_ops);
create index bookings_metadata on bookings using gin (metadata jsonb_path_ops);
create index invoices_metadata on invoices using gin (metadata jsonb_path_ops);
create index webhook_endpoints_metadata on webhook_endpoints using gin (metadata jsonb_path_ops);

-- GET /v1/events: one tenant's events newest first (id breaks ties), and by type.
create index events_list on events (account_id, environment, created_at desc, id desc);
create index events_type on events (account_id, environment, type, created_at desc, id desc);
drop index events_account;
