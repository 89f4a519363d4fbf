// TEMPORARY until SettlementAccountService lands (wt-accounts): reads a usable account by scope and id.
import type { Kysely } from 'kysely';
import { AkweError } from '../../core/errors/index.js';
import type { Clock } from '../../core/ports.js';
import type { SettlementAccount } from '../../core/settlements/settlement-account.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { Database } from '../schema.js';

export function temporaryAccounts(db: Kysely<Database>, clock: Clock) {
  return {
    async usable(scope: TenantScope, id: string): Promise<SettlementAccount> {
      const row = await db.selectFrom('settlement_accounts').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment).where('id', '=', id).executeTakeFirst();
      if (!row) throw new AkweError('not_found', `No settlement account ${id}.`);
      if (row.removed_at) throw new AkweError('settlement_account_removed');
      if (Date.parse(row.usable_from) > clock.now().getTime()) throw new AkweError('settlement_account_cooling', `Usable from ${row.usable_from}.`);
      return {
        id: row.id,
        merchantId: row.merchant_id,
        environment: row.environment,
        kind: row.kind,
        currency: row.currency,
        country: row.country,
        holderName: row.holder_name,
        operator: row.operator,
        phone: row.phone,
        iban: row.iban,
        bankName: row.bank_name,
        description: row.description,
        metadata: JSON.parse(row.metadata) as Record<string, string>,
        usableFrom: row.usable_from,
        removedAt: row.removed_at,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        version: row.version,
      } as SettlementAccount;
    },
  };
}
