import { Command, InvalidArgumentError } from 'commander';
import type { Settlement } from '../core/settlements/settlement.js';
import { settlementToWire } from '../http/settlements/settlement-mapper.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function positive(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 10_000) throw new InvalidArgumentError('a whole number from 1 to 10000');
  return parsed;
}

function nonEmpty(what: string) {
  return (value: string): string => {
    const trimmed = value.trim();
    if (trimmed.length === 0 || trimmed.length > 255) throw new InvalidArgumentError(`${what}: 1 to 255 characters`);
    return trimmed;
  };
}

function summary(settlement: Settlement): string {
  const net = (settlement.amountMinor - settlement.feeMinor) / 100;
  return `settlement ${settlement.id} (${settlement.reference}) ${settlement.status}: ${net} ${settlement.currency}`;
}

/** `akwe settlements`: bank settlements are paid outside Akwe by an administrator, then recorded here. */
export function settlementCommands(): Command {
  const settlements = new Command('settlements').description('bank settlements waiting for an administrator (docs/settlements.md)');
  settlements
    .command('pending')
    .description('list bank settlements to pay, oldest first, with where each goes')
    .option('--limit <n>', 'at most this many', positive, 100)
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; json?: boolean }) => {
      await withServices(async (services) => {
        const pending = await services.settlements.awaitingBank(options.limit);
        output(options.json, { data: pending.map((settlement) => ({ merchant_id: settlement.merchantId, ...settlementToWire(settlement) })) }, () =>
          table(
            pending.map((s) => ({
              id: s.id,
              at: s.createdAt,
              env: s.environment,
              merchant: s.merchantId,
              pay: `${(s.amountMinor - s.feeMinor) / 100} ${s.currency}`,
              to: s.destination.kind === 'bank' ? `${s.destination.holderName} ${s.destination.iban}` : '',
              reference: s.reference,
            })),
          ),
        );
      });
    });
  settlements
    .command('mark-paid')
    .description('record that a bank settlement was paid, with the bank’s reference of the transfer')
    .argument('<id>', 'settlement id')
    .requiredOption('--bank-reference <text>', 'the bank’s reference of the transfer', nonEmpty('--bank-reference'))
    .option('--json', 'print JSON')
    .action(async (id: string, options: { bankReference: string; json?: boolean }) => {
      await withServices(async (services) => {
        const paid = await services.settlements.markPaid(id, options.bankReference);
        output(options.json, settlementToWire(paid), () => `${summary(paid)}, bank reference ${paid.bankReference}`);
      });
    });
  settlements
    .command('mark-failed')
    .description('record that a bank settlement could not be paid (or came back): its money returns to the available balance')
    .argument('<id>', 'settlement id')
    .requiredOption('--reason <text>', 'why, as the merchant will read it', nonEmpty('--reason'))
    .option('--json', 'print JSON')
    .action(async (id: string, options: { reason: string; json?: boolean }) => {
      await withServices(async (services) => {
        const failed = await services.settlements.markFailed(id, options.reason);
        output(options.json, settlementToWire(failed), () => `${summary(failed)} (${failed.failureMessage})`);
      });
    });
  return settlements;
}
