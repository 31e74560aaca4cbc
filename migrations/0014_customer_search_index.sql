-- Customer search reads its trigram index alone. With GIN's fastupdate (the default) new
-- customers wait in a pending list that every search scans in full until a vacuum merges it:
-- after an import of thousands of customers that was most of a search's time. Adding a
-- customer now updates the index at once instead, a small cost on a rare write.
alter index customers_search set (fastupdate = off);
select gin_clean_pending_list('customers_search');
