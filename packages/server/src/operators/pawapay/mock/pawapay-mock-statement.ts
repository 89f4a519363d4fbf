/**
 * The mock's wallet statement (what pawaPay's statement export holds): every completed deposit,
 * payout and refund the mock recorded on a UTC day, in the columns of pawapay-statement.ts. Tests
 * change its lines to make discrepancies; the mock serves it at GET /_mock/statement?date=.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { csvLine } from '../../../core/exports/csv-cells.js';
import { pawapayStatementColumns } from '../pawapay-statement.js';
import { providerOf, type PawapayMockState, type PawapayMockTransaction } from './pawapay-mock.js';

const typeOf = { deposits: 'DEPOSIT', payouts: 'PAYOUT', refunds: 'REFUND' } as const;
const idField = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' } as const;

/** A transaction's wallet country: its party's provider's, or for a refund its deposit's. */
function countryOf(state: PawapayMockState, tx: PawapayMockTransaction): string | undefined {
  const deposit = tx.kind === 'refunds' && typeof tx.body['depositId'] === 'string' ? state.transaction('deposits', tx.body['depositId']) : undefined;
  return providerOf((deposit ?? tx).body)?.country;
}

/** The statement of a UTC day (YYYY-MM-DD), or of [from, to) given as ISO instants; of one wallet's country, or of all. */
export function pawapayMockStatement(state: PawapayMockState, period: string | { from: string; to: string }, country?: string): string {
  const within = typeof period === 'string' ? (at: string) => at.startsWith(period) : (at: string) => at >= period.from && at < period.to;
  const lines = [...state.transactions.values()]
    .filter((tx) => tx.status === 'COMPLETED' && within(tx.created) && (country === undefined || countryOf(state, tx) === country))
    .map((tx) => {
      const party = (tx.body['payer'] ?? tx.body['recipient']) as { accountDetails?: { phoneNumber?: string } } | undefined;
      const provider = providerOf(tx.body);
      return csvLine([
        tx.created,
        party?.accountDetails?.phoneNumber ?? null,
        String(tx.body[idField[tx.kind]] ?? tx.id),
        tx.providerTransactionId ?? null,
        Number(tx.body['amount']),
        String(tx.body['currency'] ?? provider?.currency ?? 'XOF'),
        provider?.country ?? null,
        provider?.provider ?? null,
        typeOf[tx.kind],
      ]);
    });
  return csvLine(pawapayStatementColumns) + lines.join('');
}

/**
 * pawaPay's statements API on the mock: POST /pawapay/v2/statements asks (accepted, and made at
 * once), GET /pawapay/v2/statements/{id} answers COMPLETED with its `downloadUrl`, which serves
 * the wallet's statement of the period asked.
 */
export function mountPawapayMockStatements(app: FastifyInstance, state: PawapayMockState, apiToken: string): void {
  const asked = new Map<string, { country: string; from: string; to: string }>();
  const authorized = (request: FastifyRequest) => request.headers.authorization === `Bearer ${apiToken}`;
  app.post<{ Body: { statementId?: string; wallet?: { country?: string }; startDate?: string; endDate?: string } }>('/pawapay/v2/statements', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ failureReason: { failureCode: 'AUTHENTICATION_ERROR', failureMessage: 'Bad token.' } });
    const { statementId, wallet, startDate, endDate } = request.body ?? {};
    if (!statementId || !wallet?.country || !startDate || !endDate)
      return { statementId, status: 'REJECTED', failureReason: { failureCode: 'INVALID_INPUT', failureMessage: 'Missing fields.' } };
    // endDate is inclusive, to the second.
    asked.set(statementId, { country: wallet.country, from: new Date(startDate).toISOString(), to: new Date(Date.parse(endDate) + 1000).toISOString() });
    return { statementId, status: 'ACCEPTED', created: new Date().toISOString() };
  });
  app.get<{ Params: { id: string } }>('/pawapay/v2/statements/:id', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({});
    if (!asked.has(request.params.id)) return { status: 'NOT_FOUND' };
    const downloadUrl = `${request.protocol}://${request.headers.host}/pawapay/_mock/statement-files/${request.params.id}`;
    return { status: 'FOUND', data: { statementId: request.params.id, status: 'COMPLETED', downloadUrl } };
  });
  app.get<{ Params: { id: string } }>('/pawapay/_mock/statement-files/:id', async (request, reply) => {
    const statement = asked.get(request.params.id);
    if (!statement) return reply.code(404).send('');
    return reply.header('content-type', 'text/csv; charset=utf-8').send(pawapayMockStatement(state, { from: statement.from, to: statement.to }, statement.country));
  });
}
