// A small HTTP client for tests: real requests, parsed JSON, headers kept.
import { expect } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Api {
  get<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  raw(path: string, init: RequestInit): Promise<ApiResponse>;
}

/** The body of a 201 that created a resource, after checking its new id: `prefix`_ and 24 base62 characters. */
export function createdBody(res: ApiResponse, prefix: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.id).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`));
  return res.body;
}

/** Status, headers and the body: parsed when it is JSON, else the text. */
export async function responseOf(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

export function apiClient(baseUrl: string, token?: string): Api {
  const raw = async (path: string, init: RequestInit): Promise<ApiResponse> => {
    const headers = new Headers(init.headers);
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return responseOf(await fetch(baseUrl + path, { ...init, headers, redirect: 'manual' }));
  };
  const withBody =
    (method: string) =>
    (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      raw(path, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
  return {
    get: (path, headers) => raw(path, { method: 'GET', headers }),
    post: withBody('POST'),
    patch: withBody('PATCH'),
    delete: (path, headers) => raw(path, { method: 'DELETE', headers }),
    raw,
  };
}
