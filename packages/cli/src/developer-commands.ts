/**
 * The developer commands (docs/cli.md) as commander commands: listen, trigger, events resend,
 * payments, payouts. They talk to a running server over HTTP(S) with an API key, as a merchant's
 * code does, and never open a database. This package's `akwe` runs them alone; the server's `akwe`
 * adds them beside its admin commands, passing its error catalog's `action` as `hintFor`.
 */
import type { Akwe } from '@akwe/sdk';
import { Command } from 'commander';
import { apiCall, connectionFrom, isTestKey, type HintFor } from './api-connection.js';
import { listen, type ListenOptions } from './listen.js';
import { green, printList, printObject, say } from './output.js';
import { triggers, type TriggerOptions } from './triggers.js';

export interface DeveloperCommandsOptions {
  /** What to do about an API error code; without it, the error's doc_url is printed as the hint. */
  hintFor?: HintFor;
}

interface ConnectionOptions {
  apiKey?: string;
  baseUrl?: string;
}

const LIST_COLUMNS = ['id', 'reference', 'status', 'amount', 'currency', 'operator', 'created_at'];

function withConnection(command: Command): Command {
  return command
    .option('--api-key <key>', 'the API key (default: the AKWE_API_KEY variable)')
    .option('--base-url <url>', 'the server (default: AKWE_BASE_URL, else http://localhost:8080)');
}

/** A list as the API answers it, for --json. */
function listBody(page: { data: readonly object[]; hasMore: boolean; nextCursor: string | null; previousCursor: string | null }) {
  return { object: 'list', data: page.data, has_more: page.hasMore, next_cursor: page.nextCursor, previous_cursor: page.previousCursor };
}

function listenCommand(hintFor: HintFor): Command {
  return withConnection(
    new Command('listen')
      .description("forward the key's events, as they happen, to a local handler, signed with a secret printed at start")
      .requiredOption('--forward-to <url>', 'where each event is POSTed (http://localhost:3000/webhooks)')
      .option('--events <list>', 'comma-separated types or families, as endpoint subscriptions take them (payout.*,collect.payment.*); default all')
      .option('--after <event id>', 'start after this event; default: after the last event an earlier run forwarded (same server, key and --events), else from now on')
      .option('--no-resume', 'ignore the position saved by an earlier run: start from now (or --after)')
      .option('--secret <whsec>', 'sign with this secret instead of a new one (keeps a handler configured across runs)'),
  )
    .addHelpText(
      'after',
      '\nThe last forwarded event is kept in AKWE_CLI_STATE_DIR (default ~/.config/akwe), so a new run resumes there.\n\nExamples:\n  AKWE_API_KEY=ak_test_… akwe listen --forward-to http://localhost:3000/webhooks\n  akwe listen --forward-to http://localhost:3000/webhooks --events payout.*,collect.payment.* --no-resume',
    )
    .action(async (options: ListenOptions) => {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await listen(options, hintFor, stop.signal);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

function triggerCommand(hintFor: HintFor): Command {
  return withConnection(
    new Command('trigger')
      .description('create the sandbox objects that produce an event (test keys only)')
      .argument('<event-type>', `one of: ${Object.keys(triggers).join(', ')}`)
      .option('--receiver <merchant id>', 'transfer.sent: the merchant receiving the transfer')
      .option('--json', 'print JSON'),
  )
    .addHelpText('after', '\nExamples:\n  AKWE_API_KEY=ak_test_… akwe trigger payout.completed\n  akwe trigger transfer.sent --receiver <merchant id>')
    .action(async (type: string, options: ConnectionOptions & TriggerOptions & { json?: boolean }) => {
      const connection = connectionFrom(options);
      if (!isTestKey(connection.apiKey)) throw new Error('trigger creates real objects: it runs with a test key (ak_test_…) only');
      const make = triggers[type.toLowerCase()];
      if (!make) throw new Error(`no trigger for ${JSON.stringify(type)}; known: ${Object.keys(triggers).join(', ')}`);
      const created = await apiCall(connection, hintFor, (client) => make(client, options));
      if (options.json) say(JSON.stringify({ event: type, object: created.what, id: created.id, reference: created.reference }, null, 2));
      else say(`${green('created')} ${created.what} ${created.reference} (${created.id}): ${created.note}`);
    });
}

function eventsCommand(hintFor: HintFor): Command {
  const events = new Command('events').description('events of the key: send one again');
  withConnection(events.command('resend').description('queue the event again for every endpoint subscribed to it (or one, --endpoint)').argument('<event id>'))
    .option('--endpoint <id>', 'only this webhook endpoint')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  akwe events resend 0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52')
    .action(async (id: string, options: ConnectionOptions & { endpoint?: string; json?: boolean }) => {
      const result = await apiCall(connectionFrom(options), hintFor, (client) => client.events.resend(id, options.endpoint ? { endpoint_id: options.endpoint } : {}));
      printList(options.json, result, ['id', 'endpoint_id', 'status', 'url']);
    });
  return events;
}

/** How a resource command reads its list and one of its objects through the SDK. */
interface ResourceReader {
  list(client: Akwe, query: { limit: number; status?: string }): PromiseLike<Parameters<typeof listBody>[0]>;
  one(client: Akwe, idOrReference: string): PromiseLike<object>;
}

interface ListOptions extends ConnectionOptions {
  limit: string;
  status?: string;
  json?: boolean;
}

/** `payments` and `payouts`: list and get, read through the SDK. */
function resourceCommand(name: 'payments' | 'payouts', description: string, read: ResourceReader, example: string, hintFor: HintFor): Command {
  const command = new Command(name).description(description);
  withConnection(command.command('list').description(`the latest ${name}, newest first`))
    .option('--limit <n>', 'how many (1-100)', '10')
    .option('--status <status>', 'only this status')
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExample:\n  AKWE_API_KEY=ak_test_… akwe ${name} list --limit 5`)
    .action(async (options: ListOptions) => {
      const query = { limit: Number(options.limit), ...(options.status ? { status: options.status } : {}) };
      const page = await apiCall(connectionFrom(options), hintFor, (client) => read.list(client, query));
      printList(options.json, listBody(page), LIST_COLUMNS);
    });
  withConnection(command.command('get').description(`one of the ${name}, by id or reference`).argument('<id-or-reference>'))
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExample:\n  akwe ${name} get ${example}`)
    .action(async (idOrReference: string, options: ConnectionOptions & { json?: boolean }) => {
      printObject(options.json, await apiCall(connectionFrom(options), hintFor, (client) => read.one(client, idOrReference)));
    });
  return command;
}

/** listen, trigger, events, payments and payouts, ready for a commander program's addCommand. */
export function developerCommands(options: DeveloperCommandsOptions = {}): Command[] {
  const hintFor: HintFor = options.hintFor ?? (() => undefined);
  return [
    listenCommand(hintFor),
    triggerCommand(hintFor),
    eventsCommand(hintFor),
    resourceCommand(
      'payments',
      'collect payments: list and read',
      {
        // --status is passed as given: the API refuses an unknown one with its list of statuses.
        list: (client, query) => client.payments.list(query as Parameters<typeof client.payments.list>[0]),
        one: (client, idOrReference) => client.payments.retrieve(idOrReference),
      },
      'ORDER-1001',
      hintFor,
    ),
    resourceCommand(
      'payouts',
      'payouts: list and read',
      {
        list: (client, query) => client.payouts.list(query as Parameters<typeof client.payouts.list>[0]),
        one: (client, reference) => client.payouts.retrieve(reference),
      },
      'PAYOUT-2001',
      hintFor,
    ),
  ];
}
