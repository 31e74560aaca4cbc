-- Browsers that have signed in to a user before (OWASP's "device cookies"): a failed sign-in
-- from one of them counts against that browser only, so someone who knows an admin's e-mail
-- cannot pause the admin's own browser. Only a hash of the cookie's value is kept. A user signs
-- in to both environments, so this table has account_id but no environment (as users).
create table login_devices (
  token_hash text primary key,
  account_id text not null references accounts (id),
  user_id text not null references users (id),
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index login_devices_user on login_devices (user_id, expires_at);
