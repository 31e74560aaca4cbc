-- Invoices, payment methods, payments and refunds. Money is integer cents.

-- One counter per (account, environment): taking a number locks this row until the issuing
-- transaction ends, so numbers have no gaps and no duplicates under any concurrency.
create table invoice_counters (
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  last_number integer not null,
  primary key (account_id, environment)
);

-- Cards on file: only the processor's token, brand and last4; never the number or the cvc.
create table payment_methods (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  customer_id text not null references customers (id),
  type text not null default 'card' check (type = 'card'),
  brand text not null,
  last4 text not null,
  exp_month integer not null,
  exp_year integer not null,
  processor_token text not null,
  is_default boolean not null default false,
  created_at timestamptz not null,
  -- removed cards stay so that payments keep their reference
  removed_at timestamptz
);
create index payment_methods_customer on payment_methods (customer_id, created_at desc, id desc) where removed_at is null;
create unique index payment_methods_one_default on payment_methods (customer_id) where is_default and removed_at is null;

create table invoices (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  number text,
  -- 'overdue' is stored by the overdue job; reads also show pending past due_date as overdue
  status text not null check (status in ('draft', 'pending', 'paid', 'overdue', 'void')),
  customer_id text not null references customers (id),
  -- a plain reference for now: the bookings table lands from another module
  booking_id text,
  currency text not null,
  line_items jsonb not null,
  subtotal bigint not null check (subtotal >= 0),
  discount bigint not null default 0 check (discount >= 0),
  discount_description text,
  tax_rate numeric(7, 4) not null default 0,
  tax bigint not null check (tax >= 0),
  total bigint not null check (total >= 0),
  amount_paid bigint not null default 0 check (amount_paid >= 0 and amount_paid <= total),
  amount_refunded bigint not null default 0 check (amount_refunded >= 0 and amount_refunded <= amount_paid),
  due_date date not null,
  send_email boolean not null default false,
  issued_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  void_reason text,
  payment_method jsonb,
  last_payment_error jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- drafts have no number; every issued invoice has one (a voided draft never got one)
  check (status <> 'draft' or number is null),
  check (status in ('draft', 'void') or number is not null)
);
create unique index invoices_number_unique on invoices (account_id, environment, number);
create index invoices_list on invoices (account_id, environment, created_at desc, id desc);
create index invoices_customer on invoices (customer_id, created_at desc, id desc);
create index invoices_booking on invoices (booking_id) where booking_id is not null;
create index invoices_due on invoices (due_date) where status = 'pending';

create table payments (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  invoice_id text not null references invoices (id),
  customer_id text not null references customers (id),
  amount bigint not null check (amount > 0),
  method text not null check (method in ('card', 'cash', 'check')),
  payment_method_id text references payment_methods (id),
  brand text,
  last4 text,
  status text not null check (status in ('succeeded', 'failed')),
  failure_code text,
  failure_message text,
  processor_reference text,
  -- how much of this payment went back to where it came from (refunds to the original method)
  amount_refunded bigint not null default 0 check (amount_refunded >= 0 and amount_refunded <= amount),
  created_at timestamptz not null,
  -- insertion order, for a stable order among rows with the same timestamp
  seq bigint generated always as identity
);
create index payments_invoice on payments (invoice_id, seq);
create index payments_customer on payments (customer_id);

create table refunds (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null check (environment in ('test', 'live')),
  invoice_id text not null references invoices (id),
  customer_id text not null references customers (id),
  amount bigint not null check (amount > 0),
  reason text,
  refund_to text not null check (refund_to in ('original_payment_method', 'account_credit')),
  status text not null check (status in ('succeeded')),
  created_at timestamptz not null,
  seq bigint generated always as identity
);
create index refunds_invoice on refunds (invoice_id, seq);
create index refunds_customer on refunds (customer_id);
