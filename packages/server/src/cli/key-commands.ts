import { Command, Option } from 'commander';
import type { ApiKey } from '../core/merchants/api-key.js';
import { isScope, scopes, type Scope } from '../core/merchants/scopes.js';
import { environments, type Environment } from '../core/shared/environment.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function keyJson(k: ApiKey) {
  return {
    id: k.id,
    merchant_id: k.merchantId,
    environment: k.environment,
    display: `${k.keyPrefix}…${k.keyLastFour}`,
    scopes: k.scopes,
    created_at: k.createdAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
  };
}

export function parseScopes(list: string | undefined): Scope[] {
  if (list === undefined || list.trim() === '') return [];
  const parsed = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = parsed.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new Error(`unknown scope ${unknown.join(', ')}; known scopes: ${scopes.join(', ')}`);
  return [...new Set(parsed)] as Scope[];
}

export function keyCommands(): Command {
  const keys = new Command('keys').description('create, list and revoke API keys');

  keys
    .command('create')
    .description('create an API key (shown once)')
    .requiredOption('--merchant <id>', 'merchant id')
    .addOption(new Option('--env <environment>', 'environment the key acts in').choices(environments).makeOptionMandatory())
    .option('--scopes <list>', `comma-separated scopes (empty = all): ${scopes.join(', ')}`)
    .option('--json', 'print JSON')
    .action(async (options: { merchant: string; env: Environment; scopes?: string; json?: boolean }) => {
      const keyScopes = parseScopes(options.scopes);
      const issued = await withServices((s) => s.merchants.createKey({ merchantId: options.merchant, environment: options.env, scopes: keyScopes }));
      output(options.json, { ...keyJson(issued.key), key: issued.secret }, () =>
        [`key ${issued.key.id} (${issued.key.environment}, scopes: ${keyScopes.join(',') || 'all'})`, issued.secret, 'Stored only as a hash: copy it now.'].join('\n'),
      );
    });

  keys
    .command('list')
    .description('list API keys (never their secrets)')
    .option('--merchant <id>', 'only this merchant’s keys')
    .option('--json', 'print JSON')
    .action(async (options: { merchant?: string; json?: boolean }) => {
      const list = await withServices((s) => s.merchants.listKeys({ merchantId: options.merchant }));
      output(options.json, list.map(keyJson), () =>
        table(
          list.map((k) => ({
            id: k.id,
            merchant: k.merchantId,
            env: k.environment,
            key: `${k.keyPrefix}…${k.keyLastFour}`,
            scopes: k.scopes.join(',') || 'all',
            revoked: k.revokedAt ?? '',
            last_used: k.lastUsedAt ?? '',
          })),
        ),
      );
    });

  keys
    .command('over-scoped')
    .description('list unrevoked keys made in a dashboard session that hold more than their creator’s current role')
    .option('--merchant <id>', 'only this merchant’s keys')
    .option('--json', 'print JSON')
    .action(async (options: { merchant?: string; json?: boolean }) => {
      const found = await withServices((s) => s.dashboardDevelopers.overScopedKeys({ merchantId: options.merchant }));
      output(
        options.json,
        found.map((o) => ({ ...keyJson(o.key), created_by: o.key.createdByUserId, creator_role: o.creatorRole, scopes_beyond_creator_role: o.beyondCreator })),
        () =>
          found.length === 0
            ? 'no key holds more than its creator’s role'
            : table(
                found.map((o) => ({
                  id: o.key.id,
                  merchant: o.key.merchantId,
                  env: o.key.environment,
                  key: `${o.key.keyPrefix}…${o.key.keyLastFour}`,
                  creator: o.key.createdByUserId ?? '',
                  role: o.creatorRole ?? 'no longer a member',
                  beyond_role: o.beyondCreator.join(','),
                })),
              ),
      );
    });

  keys
    .command('revoke')
    .description('revoke an API key at once')
    .argument('<key-id>', 'the key’s id (from keys list)')
    .option('--json', 'print JSON')
    .action(async (keyId: string, options: { json?: boolean }) => {
      const revoked = await withServices((s) => s.merchants.revokeKey(keyId));
      output(options.json, keyJson(revoked), () => `key ${revoked.id} revoked at ${revoked.revokedAt}`);
    });

  return keys;
}
