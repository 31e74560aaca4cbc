-- Customer search by name through trigrams that belong to one tenant (issue 16).
--
-- The GIN index of 0017 keyed each trigram alone and took the account and the environment as
-- entries of their own, so "olivia smith" intersected trigram lists as long as every tenant's
-- Smiths (5,000 items each on 100,000 customers in 10 accounts) with the account's 10,000 and
-- the environment's 100,000: 0.6-1.0 ms of index scan for 50 matches, most of a name search's
-- cost, and growing with every other tenant. Here each key is a trigram hashed together with
-- its tenant (account and environment): the high 32 bits hash the tenant, the low 32 the
-- trigram. A search's lists hold its own tenant's customers only (500 Smiths, not 5,000), and
-- the same search scans 0.06-0.14 ms of index, however many other tenants there are.
--
-- The keys are a filter, never the answer: the query keeps `search_text like '%term%'` and
-- `account_id = … and environment = …`, so a hash collision only costs a recheck. What must
-- hold is the other way: every customer the LIKE matches has all of the term's keys.
-- `customer_search_keys` keys every trigram pg_trgm gives the customer's text, the word-edge
-- ones ("  s", "th ") included, plus the tenant's own key. `customer_search_term_keys` keys
-- only the term's trigrams that a match must contain: those it shares with the term wrapped in
-- a letter on each side, twice ('q' and 'z'), which drops the padding pg_trgm adds at the
-- term's two ends (a match may sit inside a longer word: "livia" in "olivia") and keeps the
-- word edges inside the term (its space is the customer's space). pg_trgm's hashed multibyte
-- trigrams ("0x1a2b3c") carry no visible padding, which is why the wrapping and not a test for
-- spaces finds them. A term without such a trigram (one or two letters) gets the tenant's key:
-- a walk of the tenant's customers, as short terms cost before.
--
-- The functions fix their search_path (pg_trgm's schema is the migration's): PostgreSQL 17
-- builds and analyses index expressions with a search_path of pg_catalog only.
create function customer_search_keys(account_id text, environment text, search_text text) returns bigint[]
language sql immutable parallel safe set search_path from current
as $$
  select array(
    select hashtext(account_id || '/' || environment)::bigint << 32
    union
    select (hashtext(account_id || '/' || environment)::bigint << 32) | (hashtext(trigram)::bigint & 4294967295)
    from unnest(show_trgm(search_text)) as trigram)
$$;

-- plpgsql, so that the statement is planned once per connection, not at every call (a SQL
-- function's body is planned again for every query that calls it: 0.1 ms a search)
create function customer_search_term_keys(account_id text, environment text, term text) returns bigint[]
language plpgsql immutable parallel safe set search_path from current
as $$
begin
  return coalesce(
    nullif(array(
      select distinct (hashtext(account_id || '/' || environment)::bigint << 32) | (hashtext(trigram)::bigint & 4294967295)
      from unnest(show_trgm(term)) as trigram
      where trigram = any (show_trgm('q' || term || 'q')) and trigram = any (show_trgm('z' || term || 'z'))), '{}'),
    array[hashtext(account_id || '/' || environment)::bigint << 32]);
end
$$;

-- The index leads with the account, as every index here does: a search's plan then needs no
-- other index for its tenant (with the keys alone, the plan the server keeps for the statement
-- ANDed them with the account's 10,000 rows of customers_list: 1.4 against 0.6 ms). The
-- environment is in the keys. fastupdate is off, as in 0017: a pending list would be read
-- through by every search.
create index customers_search_keys on customers
  using gin (account_id, customer_search_keys(account_id, environment, search_text)) with (fastupdate = off);
drop index customers_search_by_name;
-- No statistics for the keys: no plan reads them (a search's keys are a subquery, estimated
-- without them), and ANALYZE would hash every sampled customer's trigrams again for them
-- (analysing 100,000 customers: 1.07 s with them, 0.25 s without).
alter index customers_search_keys alter column 2 set statistics 0;
