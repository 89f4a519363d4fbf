/** The payment creations and lookups every creation phase of `npm run bench` sends. */
import type autocannon from 'autocannon';

export const CREATE_PATH = '/api/v1/collect/payments';

/** The body of every creation (and of the bare app's POST), with its own reference. */
export function paymentBody(reference: string): string {
  return JSON.stringify({ reference, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } });
}

/**
 * Each request gets a fresh Idempotency-Key and reference: run id (hex, so it never holds a sandbox
 * keyword such as FAIL or PENDING) and a counter shared by all connections.
 */
export function creationRequests(testKey: string, runId: string, created: string[]): autocannon.Request[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: CREATE_PATH,
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        request.headers = { ...request.headers, 'idempotency-key': `idem-${runId}-${counter}` };
        request.body = paymentBody(`bench-${runId}-${counter}`);
        return request;
      },
      onResponse: (status, body) => {
        if (status !== 201) return;
        const match = /"reference":"([^"]+)"/.exec(body);
        if (match) created.push(match[1]!);
      },
    },
  ];
}

/** GET of one fixed path (a list page), with the key. */
export function getRequests(testKey: string, path: string): autocannon.Request[] {
  return [{ method: 'GET', path, headers: { authorization: `Bearer ${testKey}` } }];
}
