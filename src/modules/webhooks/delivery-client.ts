// One HTTP POST per attempt: 30 s for the whole exchange, redirects not followed (Node's http
// never follows them), keep-alive agents for throughput, and, unless private URLs are allowed,
// the SSRF guard as the agents' `lookup`, so a socket only ever opens to a checked address.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { guardedLookup, parseWebhookUrl, UnsafeUrlError } from './url-guard.ts';

export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  responseTimeMs: number;
  error: { type: string; message: string } | null;
  /** The Retry-After header, as sent. */
  retryAfter: string | undefined;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

export class DeliveryClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: { allowPrivateUrls: boolean; timeoutMs?: number; maxSockets?: number }) {
    const lookup = options.allowPrivateUrls ? undefined : guardedLookup();
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 50, lookup };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }

  post(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (result: Omit<AttemptResult, 'responseTimeMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, responseTimeMs: elapsed() });
      };
      const fail = (type: string, message: string) =>
        settle({ ok: false, responseCode: null, error: { type, message }, retryAfter: undefined });

      let url: URL;
      try {
        // an IP literal never reaches `lookup`, so it is checked here
        url = parseWebhookUrl(rawUrl, this.options.allowPrivateUrls);
      } catch (error) {
        fail('unsafe_url', (error as Error).message);
        return;
      }
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Fieldhand-Webhooks/1.0',
          ...headers,
        },
      });
      timer = setTimeout(() => {
        fail('timeout', `No complete response within ${Math.round(this.timeoutMs / 1000)} seconds.`);
        request.destroy();
      }, this.timeoutMs);

      request.on('response', (response) => {
        const code = response.statusCode ?? 0;
        const finish = () => {
          const ok = code >= 200 && code < 300;
          const redirect = code >= 300 && code < 400;
          settle({
            ok,
            responseCode: code,
            error: ok
              ? null
              : {
                  type: 'http_error',
                  message: redirect
                    ? `The endpoint answered HTTP ${code}; redirects are not followed.`
                    : `The endpoint answered HTTP ${code}.`,
                },
            retryAfter: response.headers['retry-after'],
          });
        };
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // the body is not kept; a huge one is not read to the end
          if (received > MAX_RESPONSE_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        const [type, message] = describeFailure(error);
        fail(type, message);
      });
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describeFailure(error: NodeJS.ErrnoException): [string, string] {
  if (error instanceof UnsafeUrlError || error.code === 'EUNSAFEADDRESS') return ['unsafe_url', error.message];
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
    return ['dns_error', 'The endpoint host name could not be resolved.'];
  }
  if (
    code.startsWith('ERR_TLS') ||
    code.includes('CERT') ||
    code.startsWith('ERR_SSL') ||
    /SSL|TLS/i.test(error.message)
  ) {
    return ['tls_error', `TLS handshake failed (${code || 'unknown'}).`];
  }
  if (code === 'ETIMEDOUT') return ['timeout', 'The connection timed out.'];
  return ['connection_error', `Could not complete the request (${code || 'connection closed'}).`];
}
