// The invitation e-mail goes through a real SMTP server when SMTP_URL is set.
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startTestApp, type TestApp } from './helpers/app.ts';

interface Received {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as { port: number }).port;
  t = await startTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: 'Fieldhand <hello@fieldhand.test>' },
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

it('sends the customer invitation over SMTP and marks it sent', async () => {
  const acct = await createTestAccount(t);
  const res = await acct.api.post('/v1/customers', {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
  });
  expect(res.status).toBe(201);
  const deadline = Date.now() + 10_000;
  while (!received.some((m) => m.to.includes('grace@example.com')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const message = received.find((m) => m.to.includes('grace@example.com'));
  expect(message).toBeDefined();
  expect(message?.from).toBe('hello@fieldhand.test');
  expect(message?.data).toContain('Hello Grace');
  expect(message?.data).toMatch(/Subject: .*invited you/);

  let status = '';
  while (status !== 'sent' && Date.now() < deadline) {
    const rows = await query<{ status: string }>(
      t.database.sql,
      sql`select status from emails where account_id = ${acct.accountId} and to_address = 'grace@example.com'`,
    );
    status = rows[0]?.status ?? '';
    if (status !== 'sent') await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(status).toBe('sent');
});
