-- Customer search by name, a second index. The GiST index of 0015 keeps a search inside one
-- tenant's part of the tree and answers e-mail and phone terms in 0.15 ms, but a name term
-- walks most of it: every leaf page holds an Olivia and a Smith, so nearly every signature
-- matches and "olivia smith" read ~170 pages (1.3-1.5 ms on 100,000 customers in 10 accounts,
-- PostgreSQL 15). A GIN index with account and environment as entries of their own
-- (btree_gin) intersects the term's trigram lists with the tenant's and visits only the
-- matches: 0.4-0.6 ms. Rare trigrams (e-mail, phone) are the other way round (GIN 0.4-0.6 ms),
-- so both stay, and the query picks: the planner always costs the GiST index lower, so this
-- index is on `' ' || search_text` (the same matches: a trimmed term never starts with a
-- space), which only name terms ask for (customers.repository.ts, `searchMatch`).
-- fastupdate is off: with it, new customers wait in a pending list (up to 4 MB) that every
-- search reads through until a vacuum merges it (the bench's searches ran at half speed); a
-- customer's insert updates the index itself instead.
create extension if not exists btree_gin;
create index customers_search_by_name on customers
  using gin (account_id, environment, (' ' || search_text) gin_trgm_ops) with (fastupdate = off);
