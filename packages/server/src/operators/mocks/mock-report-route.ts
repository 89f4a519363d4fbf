import type { FastifyInstance } from 'fastify';

/**
 * GET <prefix>/_mock/report?date=YYYY-MM-DD: the mock's report of a UTC day (today by default), in
 * its provider's format (docs/operations.md "Reconciliation"), for `akwe mocks` users and tests.
 */
export function mountMockReport(app: FastifyInstance, prefix: string, render: (day: string) => string): void {
  app.get<{ Querystring: { date?: string } }>(`${prefix}/_mock/report`, async (request, reply) => {
    const day = request.query.date ?? new Date().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return reply.code(400).send({ error: 'date must be YYYY-MM-DD' });
    return reply.header('content-type', 'text/csv; charset=utf-8').send(render(day));
  });
}
