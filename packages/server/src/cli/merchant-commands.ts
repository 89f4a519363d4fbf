import { Command, Option } from 'commander';
import { kycStatuses, merchantStatuses, type KycStatus, type Merchant, type MerchantStatus } from '../core/merchants/merchant.js';
import type { MerchantStatusChange } from '../core/merchants/merchant-status-change.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function merchantJson(m: Merchant) {
  return { id: m.id, name: m.name, status: m.status, kyc_status: m.kycStatus, created_at: m.createdAt, updated_at: m.updatedAt };
}

/** Changes made from the command line are recorded with this actor in the status history. */
const CLI_ACTOR = 'cli';

function statusChangeJson(c: MerchantStatusChange) {
  return { id: c.id, merchant_id: c.merchantId, field: c.field, from: c.from, to: c.to, actor: c.actor, changed_at: c.changedAt };
}

export function merchantCommands(): Command {
  const merchants = new Command('merchants').description('create, list and update merchants');

  merchants
    .command('create')
    .description('create a merchant with one test key and one live key (keys are shown once)')
    .requiredOption('--name <name>', 'merchant name')
    .addOption(new Option('--kyc <status>', 'KYC status').choices(kycStatuses).default('pending'))
    .option('--json', 'print JSON')
    .action(async (options: { name: string; kyc: KycStatus; json?: boolean }) => {
      const { merchant, keys } = await withServices((s) => s.merchants.createMerchant({ name: options.name, kycStatus: options.kyc, actor: CLI_ACTOR }));
      const testKey = keys.find((k) => k.key.environment === 'test')!;
      const liveKey = keys.find((k) => k.key.environment === 'live')!;
      output(options.json, { merchant: merchantJson(merchant), test_key: { id: testKey.key.id, key: testKey.secret }, live_key: { id: liveKey.key.id, key: liveKey.secret } }, () =>
        [
          `merchant ${merchant.id} (${merchant.name}, kyc ${merchant.kycStatus})`,
          `test key: ${testKey.secret}`,
          `live key: ${liveKey.secret}`,
          'Keys are stored only as hashes: copy them now.',
        ].join('\n'),
      );
    });

  merchants
    .command('list')
    .description('list merchants')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withServices((s) => s.merchants.listMerchants());
      output(options.json, list.map(merchantJson), () => table(list.map((m) => ({ id: m.id, name: m.name, status: m.status, kyc: m.kycStatus, created: m.createdAt }))));
    });

  merchants
    .command('set')
    .description('change a merchant’s KYC status or account status')
    .requiredOption('--merchant <id>', 'merchant id')
    .addOption(new Option('--kyc <status>', 'KYC status').choices(kycStatuses))
    .addOption(new Option('--status <status>', 'account status').choices(merchantStatuses))
    .option('--json', 'print JSON')
    .action(async (options: { merchant: string; kyc?: KycStatus; status?: MerchantStatus; json?: boolean }) => {
      if (options.kyc === undefined && options.status === undefined) throw new Error('nothing to change: give --kyc and/or --status');
      const updated = await withServices((s) => s.merchants.updateMerchant(options.merchant, { kycStatus: options.kyc, status: options.status }, { actor: CLI_ACTOR }));
      output(options.json, merchantJson(updated), () => `merchant ${updated.id}: status ${updated.status}, kyc ${updated.kycStatus}`);
    });

  merchants
    .command('history')
    .description('list a merchant’s changes of status and KYC status, newest first')
    .requiredOption('--merchant <id>', 'merchant id')
    .option('--json', 'print JSON')
    .action(async (options: { merchant: string; json?: boolean }) => {
      const history = await withServices((s) => s.merchants.statusHistory(options.merchant));
      output(options.json, history.map(statusChangeJson), () =>
        table(history.map((c) => ({ changed: c.changedAt, field: c.field, from: c.from ?? '-', to: c.to, actor: c.actor }))),
      );
    });

  return merchants;
}
