import { describe, expect, it } from 'vitest';
import { redirectUriProblem } from './apps.service.ts';

// https anywhere, http only on loopback, and reverse-domain private schemes
const TAKEN = [
  'https://app.example.com/callback',
  'https://app.example.com/cb?tenant=1',
  'http://localhost:8080/callback',
  'http://127.0.0.1/cb',
  'http://[::1]:3000/cb',
  'com.example.crew:/oauth/callback',
];
const REFUSED = [
  'http://app.example.com/callback',
  'http://localhost.evil.com/cb',
  'https://app.example.com/cb#fragment',
  'https://user:pass@app.example.com/cb',
  'javascript:alert(1)',
  'data:text/html,hi',
  'file:///etc/passwd',
  '/relative/callback',
  'not a url',
  `https://app.example.com/${'a'.repeat(2000)}`,
];

describe('redirect URIs', () => {
  it.each(TAKEN)('takes %s', (uri) => expect(redirectUriProblem(uri)).toBeNull());
  it.each(REFUSED)('refuses %s', (uri) => expect(redirectUriProblem(uri)).not.toBeNull());
});
