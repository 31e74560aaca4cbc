-- An event's payload is stored once, as the text that was delivered (body). The jsonb copy was
-- read only for the `test` flag of Send Test's samples, and cost every published event a jsonb
-- parse in PostgreSQL and twice the row, heap and WAL (issue 16; measured in docs/performance.md).
-- Events stored before 0006 kept only the jsonb: their text is taken from it, as deliveries did.
update events set body = payload::text where body is null;
alter table events add column sample boolean not null default false;
update events set sample = true where payload ->> 'test' = 'true';
alter table events alter column body set not null;
alter table events drop column payload;
