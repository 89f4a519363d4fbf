/**
 * The metrics listener: `GET /metrics` on a port of its own (METRICS_PORT), apart from the API.
 * Protection is where it listens: a private address (METRICS_HOST, loopback by default) that the
 * public proxy never forwards to, so no token has to be shared with the scraper or kept out of logs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AkweMetrics } from './akwe-metrics.js';

export interface MetricsServer {
  /** `http://host:port`, the port the system chose when asked for 0. */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: AkweMetrics, { host, port, logger }: { host: string; port: number; logger?: Logger }): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    metrics.scrape().then(
      ({ body, contentType }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger?.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics could not be gathered\n');
      },
    );
  });
  // A scraper's keep-alive connection must not hold a shutdown open.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
