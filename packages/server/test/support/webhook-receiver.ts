/**
 * A real HTTP(S) receiver on 127.0.0.1 for webhook tests. The test decides each answer (status,
 * delay, headers, body, or a long streamed body) and reads back every request exactly as it
 * arrived: raw body bytes, headers, and how the answer ended.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceiverAnswer {
  /** 200 unless told. */
  status?: number;
  /** Wait this long after the request body arrived before answering (cut short if the client leaves). */
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Instead of `body`: stream this many bytes of `x`, 16 KiB at a time, respecting back-pressure. */
  streamBytes?: number;
}

export type AnswerState = 'waiting' | 'answering' | 'finished' | 'closed';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names and values as sent, in order (names in their original letter case). */
  rawHeaders: string[];
  rawBody: Buffer;
  /** rawBody as UTF-8 text. */
  body: string;
  /** waiting (delay running) → answering → finished (all written) or closed (the client left first). */
  state: AnswerState;
  /** Answer body bytes handed to the socket so far. */
  bytesWritten: number;
  /** Settles when the answer is over: 'finished' or 'closed'. */
  ended: Promise<'finished' | 'closed'>;
}

export interface WebhookReceiver {
  /** `http(s)://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** TLS server names (SNI) offered by clients, in order (HTTPS receivers only). */
  serverNames: string[];
  /** TCP connections accepted so far (kept-alive connections carry several requests). */
  readonly connections: number;
  /** The answer for the next requests; a function decides per request. */
  answerWith(answer: ReceiverAnswer | ((request: ReceivedRequest) => ReceiverAnswer)): void;
  /** Stops listening and cuts every open connection, pending delays included. */
  close(): Promise<void>;
}

/**
 * A throwaway self-signed certificate for `hooks.example.test` (a reserved .test name), valid until
 * 2126, used only by these tests. Nothing trusts it, which is the point: it lets a test see the
 * TLS server name a client offers and that the client refuses a certificate it cannot verify.
 */
export const TEST_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXYMxblda8H5LXGK8
ogvyojjYyQ1KAYpVMLx0Q6dWJ/2hRANCAAR5fIk0TLG+WttWd+ytpz95I5RiYRBw
YpXTpSwXvA6bSoeCI0qgUup0XkQcNEjlqw9pFnPt1TUc02AXu2DEkP7k
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBsDCCAVagAwIBAgIUcACdPN97Isu3GXk8Pi7LyYRC+hgwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSaG9va3MuZXhhbXBsZS50ZXN0MCAXDTI2MTEyMjA0MjkxNloY
DzIxMjYxMDI5MDQyOTE2WjAdMRswGQYDVQQDDBJob29rcy5leGFtcGxlLnRlc3Qw
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR5fIk0TLG+WttWd+ytpz95I5RiYRBw
YpXTpSwXvA6bSoeCI0qgUup0XkQcNEjlqw9pFnPt1TUc02AXu2DEkP7ko3IwcDAd
BgNVHQ4EFgQU8ztJnHy/UKjE9mKum6XzzfgSOyYwHwYDVR0jBBgwFoAU8ztJnHy/
UKjE9mKum6XzzfgSOyYwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHREEFjAUghJob29r
cy5leGFtcGxlLnRlc3QwCgYIKoZIzj0EAwIDSAAwRQIhAN/gu92P7YR8GKY8Nfkw
yUph60PA6yH4z6J7G7GyDSDzAiA1+zf+wDqQyulecwOLHiHzlHoAK3JzQ2JJmtlM
InsYfA==
-----END CERTIFICATE-----
`,
};

export async function startWebhookReceiver(options: { answer?: ReceiverAnswer; tls?: boolean } = {}): Promise<WebhookReceiver> {
  let decide: (request: ReceivedRequest) => ReceiverAnswer = () => options.answer ?? {};
  const requests: ReceivedRequest[] = [];
  const serverNames: string[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let settle: (how: 'finished' | 'closed') => void = () => {};
      const ended = new Promise<'finished' | 'closed'>((resolve) => (settle = resolve));
      const rawBody = Buffer.concat(chunks);
      const record: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        rawBody,
        body: rawBody.toString('utf8'),
        state: 'waiting',
        bytesWritten: 0,
        ended,
      };
      requests.push(record);
      res.on('close', () => {
        if (record.state !== 'finished') record.state = 'closed';
        settle(record.state === 'finished' ? 'finished' : 'closed');
      });
      res.on('finish', () => {
        record.state = 'finished';
        settle('finished');
      });

      const answer = decide(record);
      const respond = () => {
        if (res.destroyed) return;
        record.state = 'answering';
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        if (answer.streamBytes !== undefined) {
          void stream(res, answer.streamBytes, record);
        } else {
          const body = answer.body ?? '';
          record.bytesWritten = Buffer.byteLength(body);
          res.end(body);
        }
      };
      if (answer.delayMs === undefined || answer.delayMs <= 0) return respond();
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond();
      }, answer.delayMs);
      timers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
    });
  };

  const server: Server = options.tls
    ? createHttpsServer(
        {
          ...TEST_TLS,
          SNICallback: (name, callback) => {
            serverNames.push(name);
            callback(null, undefined);
          },
        },
        handle,
      )
    : createHttpServer(handle);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    serverNames,
    get connections() {
      return connections;
    },
    answerWith(answer) {
      decide = typeof answer === 'function' ? answer : () => answer;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function stream(res: ServerResponse, total: number, record: ReceivedRequest): Promise<void> {
  const chunk = Buffer.alloc(16 * 1024, 'x');
  while (record.bytesWritten < total && !res.destroyed) {
    const size = Math.min(chunk.length, total - record.bytesWritten);
    const flowing = res.write(chunk.subarray(0, size));
    record.bytesWritten += size;
    if (!flowing) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end();
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
