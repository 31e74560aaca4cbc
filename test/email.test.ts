// The invitation e-mail goes through a real SMTP server when SMTP_URL is set.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startTestApp, type TestApp } from './helpers/app.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp.ts';

let smtp: SmtpSink;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Fieldhand <hello@fieldhand.test>' },
    workers: false,
  });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

it('sends the customer invitation over SMTP and marks it sent', async () => {
  const acct = await createTestAccount(t);
  const res = await acct.api.post('/v1/customers', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
  });
  expect(res.status).toBe(201);
  expect(await t.app.workers.emails.runOnce()).toBe(1);
  const message = smtp.received.find((m) => m.to.includes('grace@example.com'));
  expect(message).toBeDefined();
  expect(message?.from).toBe('hello@fieldhand.test');
  expect(message?.data).toContain('Hello Grace');
  expect(message?.data).toMatch(/Subject: .*invited you/);

  const rows = await query<{ status: string }>(
    t.database.sql,
    sql`select status from emails where account_id = ${acct.accountId} and to_address = 'grace@example.com'`,
  );
  expect(rows.map((row) => row.status)).toEqual(['sent']);
});
