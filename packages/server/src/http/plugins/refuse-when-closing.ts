/**
 * While the server shuts down, requests that still arrive (on a kept-alive connection) get 503
 * `service_unavailable` in the current error shape, with their request id and `Connection: close`,
 * instead of the body Fastify sends on its own (`return503OnClosing`, turned off in app.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AkweError } from '../../core/errors/index.js';

export function installRefusalWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close');
    throw new AkweError('service_unavailable', 'The server is shutting down; retry the request.');
  });
}
