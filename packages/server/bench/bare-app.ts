/**
 * The benchmark's yardstick: a bare Fastify app on the same machine, with nothing but a JSON body
 * parser and one route. POST /echo takes the same body as a payment creation and answers a small
 * JSON object, so the difference to Akwe is everything Akwe does per request (authentication, rate
 * limits, validation, idempotency, the database, serialisation).
 *
 * Run as a child process by run-bench.ts: `node --import tsx bench/bare-app.ts`, PORT from the
 * environment; prints `listening <port>` once it accepts connections.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });

app.post('/echo', async (request, reply) => {
  const body = request.body as { reference?: unknown } | null;
  return reply.status(201).send({ ok: true, reference: typeof body?.reference === 'string' ? body.reference : null });
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
