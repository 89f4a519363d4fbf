import { Command, Option } from 'commander';
import type { WebhookEndpoint } from '../core/webhooks/webhook-endpoint.js';
import type { WebhookApiVersion } from '../core/webhooks/webhook-endpoint.js';
import { contractVersions } from '../http/contracts/index.js';
import { environments, type Environment } from '../core/shared/environment.js';
import { endpointToWire } from '../http/webhooks/webhook-mapper.js';
import { resolveSecret } from '../secret.js';
import { resealStoredSecrets } from '../storage/reseal-secrets.js';
import { SecretBox } from '../storage/secret-box.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

/** Where the reseal command reads the old server secret: the environment, never the command line (ps shows that). */
const PREVIOUS_SECRET_VARIABLE = 'AKWE_PREVIOUS_SECRET';

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function rows(endpoints: WebhookEndpoint[]) {
  return table(
    endpoints.map((e) => ({
      id: e.id,
      merchant: e.merchantId,
      env: e.environment,
      url: e.url,
      events: e.eventTypes.join(',') || 'all',
      enabled: e.enabled ? 'yes' : `no${e.disabledReason ? ` (${e.disabledReason})` : ''}`,
      version: e.apiVersion,
    })),
  );
}

export function webhookCommands(): Command {
  const webhooks = new Command('webhooks').description('create, list, delete webhook endpoints, rotate their secrets, reseal them after AKWE_SECRET changes');

  webhooks
    .command('create')
    .description('create a webhook endpoint (its signing secret is printed)')
    .requiredOption('--merchant <id>', 'merchant id')
    .addOption(new Option('--env <environment>', 'environment whose events it receives').choices(environments).makeOptionMandatory())
    .requiredOption('--url <url>', 'receiver URL (https:// for live)')
    .option('--events <list>', 'comma-separated event types (collect.payment.*, …); default all')
    .option('--description <text>', 'free text')
    .addOption(new Option('--api-version <version>', 'event shape').choices(contractVersions.webhookVersions).default(contractVersions.defaultWebhookVersion))
    .option('--json', 'print JSON')
    .action(async (options: { merchant: string; env: Environment; url: string; events?: string; description?: string; apiVersion: WebhookApiVersion; json?: boolean }) => {
      const endpoint = await withServices(async (s) => {
        await s.merchants.getMerchant(options.merchant);
        return s.webhooks.createEndpoint(
          { merchantId: options.merchant, environment: options.env },
          { url: options.url, eventTypes: list(options.events), description: options.description, apiVersion: options.apiVersion },
        );
      });
      output(options.json, endpointToWire(endpoint, { withSecret: true }), () =>
        [`endpoint ${endpoint.id} (${endpoint.environment}) -> ${endpoint.url}`, `events: ${endpoint.eventTypes.join(',') || 'all'}`, `signing secret: ${endpoint.secret}`].join(
          '\n',
        ),
      );
    });

  webhooks
    .command('list')
    .description('list webhook endpoints (never their secrets)')
    .option('--merchant <id>', 'only this merchant’s endpoints')
    .addOption(new Option('--env <environment>', 'only this environment').choices(environments))
    .option('--json', 'print JSON')
    .action(async (options: { merchant?: string; env?: Environment; json?: boolean }) => {
      const endpoints = await withServices((s) => s.webhooks.listAllEndpoints({ merchantId: options.merchant, environment: options.env }));
      output(
        options.json,
        endpoints.map((e) => endpointToWire(e)),
        () => rows(endpoints),
      );
    });

  webhooks
    .command('delete')
    .description('delete a webhook endpoint; its waiting deliveries are cancelled')
    .argument('<endpoint-id>', 'the endpoint’s id (from webhooks list)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      await withServices(async (s) => s.webhooks.deleteEndpoint(await s.webhooks.scopeOfEndpoint(id), id));
      output(options.json, { id, deleted: true }, () => `endpoint ${id} deleted`);
    });

  webhooks
    .command('rotate-secret')
    .description('give an endpoint a new signing secret; the old one keeps signing during the overlap')
    .argument('<endpoint-id>', 'the endpoint’s id')
    .option('--overlap <seconds>', 'how long the old secret keeps signing (0 to 604800)', '86400')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { overlap: string; json?: boolean }) => {
      const endpoint = await withServices(async (s) => s.webhooks.rotateSecret(await s.webhooks.scopeOfEndpoint(id), id, Number(options.overlap)));
      output(options.json, endpointToWire(endpoint, { withSecret: true }), () =>
        [
          `endpoint ${endpoint.id}: new signing secret ${endpoint.secret}`,
          endpoint.previousSecretExpiresAt ? `the old secret signs too until ${endpoint.previousSecretExpiresAt}` : 'the old secret no longer signs',
        ].join('\n'),
      );
    });

  webhooks
    .command('reseal-secrets')
    .description(
      `after AKWE_SECRET has changed: re-encrypt every stored webhook and callback secret, sealed with the old server secret (given in ${PREVIOUS_SECRET_VARIABLE}), with the current one`,
    )
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const previous = process.env[PREVIOUS_SECRET_VARIABLE];
      if (!previous) throw new Error(`set ${PREVIOUS_SECRET_VARIABLE} to the server secret the stored secrets were sealed with`);
      const result = await withServices((s, config) =>
        resealStoredSecrets(s.database.db, { previous: new SecretBox(() => previous), current: new SecretBox(() => resolveSecret(config)) }),
      );
      output(
        options.json,
        { resealed: result.resealed, already_current: result.alreadyCurrent },
        () => `resealed ${result.resealed} stored secret(s) with the current server secret; ${result.alreadyCurrent} already were`,
      );
    });

  return webhooks;
}
