/**
 * Developer commands (docs/cli.md): they talk to a running server over HTTP(S) with an API key, as
 * a merchant's code would: listen, trigger, payments, payouts, events resend. The admin commands
 * (merchants, keys, …) open the database instead.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from '../core/webhooks/webhook-signature.js';
import { ApiClient, connectionFrom, errorOf, isTestKey } from './api-client.js';
import { cliStateDir, ListenPosition } from './listen-position.js';
import { table } from './output.js';
import { SseParser, type SseMessage } from './server-sent-events.js';

interface ConnectionOptions {
  apiKey?: string;
  baseUrl?: string;
}

const RECONNECT_DELAY_MS = 1_000;
/** The longest Retry-After listen honours; a longer one is waited out in steps of this. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in seconds (the only form the server sends), else the usual reconnection delay. */
function retryDelayMs(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds) || seconds <= 0) return RECONNECT_DELAY_MS;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}
const FORWARD_TIMEOUT_MS = 10_000;

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
function paint(code: number, text: string): string {
  return process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[${code}m${text}\u001b[0m` : text;
}
const green = (text: string) => paint(32, text);
const red = (text: string) => paint(31, text);
const dim = (text: string) => paint(2, text);

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function withConnection(command: Command): Command {
  return command
    .option('--api-key <key>', 'the API key (default: the AKWE_API_KEY variable)')
    .option('--base-url <url>', 'the server (default: AKWE_BASE_URL, else http://localhost:8080)');
}

/** A secret shaped like an endpoint's, for this listen session only. */
export function newListenSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Posts one streamed event to the local handler, signed as a registered endpoint of the current contract would be. */
async function forward(target: string, message: SseMessage, secret: string): Promise<string> {
  const body = message.data;
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'akwe-listen',
        [SIGNATURE_HEADER]: signatureHeader(body, [secret], Math.floor(Date.now() / 1000)),
        ...(message.id ? { [EVENT_ID_HEADER]: message.id } : {}),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    const status = String(response.status);
    return response.ok ? green(status) : red(status);
  } catch (error) {
    const reason = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
    return red(`error (${reason})`);
  }
}

interface ListenOptions extends ConnectionOptions {
  forwardTo: string;
  events?: string;
  after?: string;
  secret?: string;
  /** false with --no-resume: ignore (and overwrite) the position saved by an earlier run. */
  resume: boolean;
}

async function listen(options: ListenOptions, stop: AbortSignal): Promise<void> {
  const client = new ApiClient(connectionFrom(options));
  try {
    new URL(options.forwardTo);
  } catch {
    throw new Error(`--forward-to must be an absolute URL, got ${JSON.stringify(options.forwardTo)}`);
  }
  const secret = options.secret ?? newListenSecret();
  say(`Signing secret: ${secret}`);
  say(dim(`Forwarding ${options.events ? `${options.events} ` : ''}events to ${options.forwardTo}; check the X-Service-Signature header with this secret.`));
  const query = options.events ? `?types=${encodeURIComponent(options.events)}` : '';
  const position = new ListenPosition(cliStateDir(), client.connection.baseUrl, client.connection.apiKey, options.events);
  const saved = options.after === undefined && options.resume ? position.read() : undefined;
  let lastId = options.after ?? saved;
  if (saved) say(dim(`Resuming after ${saved}, the last event an earlier run forwarded (--no-resume starts from now).`));
  let connectedOnce = false;
  while (!stop.aborted) {
    let response: Response;
    try {
      response = await fetch(client.url(`/events/stream${query}`), { headers: client.headers(lastId ? { 'last-event-id': lastId } : {}), signal: stop });
    } catch {
      if (stop.aborted) break;
      say(red(`cannot reach ${client.connection.baseUrl}; retrying in ${RECONNECT_DELAY_MS / 1000} s`));
      await sleep(RECONNECT_DELAY_MS, undefined, { signal: stop }).catch(() => undefined);
      continue;
    }
    // A refusal (bad key, unknown type) will not change by retrying; a busy server (429, 5xx) may.
    if (response.status >= 400 && response.status < 500 && response.status !== 429) throw await errorOf(response);
    if (!response.ok || !response.body) {
      // Too many streams open (429 too_many_event_streams) or a busy server: wait as long as it asks.
      const delayMs = retryDelayMs(response.headers.get('retry-after'));
      await response.body?.cancel().catch(() => undefined);
      say(red(`the stream answered ${response.status}; retrying in ${delayMs / 1000} s`));
      await sleep(delayMs, undefined, { signal: stop }).catch(() => undefined);
      continue;
    }
    say(connectedOnce ? `Reconnected${lastId ? ` after ${lastId}` : ''}.` : `Ready: listening${lastId ? ` after ${lastId}` : ''} (Ctrl-C to stop).`);
    connectedOnce = true;
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        for (const message of parser.push(decoder.decode(chunk as Uint8Array, { stream: true }))) {
          const status = await forward(options.forwardTo, message, secret);
          say(`${new Date().toISOString()} ${message.event ?? 'message'} ${message.id ?? '-'} -> ${status}`);
          if (message.id) {
            lastId = message.id;
            position.write(lastId);
          }
        }
      }
    } catch {
      // The connection dropped (or we are stopping): reconnect below with the last id.
    }
    if (stop.aborted) break;
    say(red(`stream lost; reconnecting in ${RECONNECT_DELAY_MS / 1000} s`));
    await sleep(RECONNECT_DELAY_MS, undefined, { signal: stop }).catch(() => undefined);
  }
  if (lastId) say(dim(`Stopped after ${lastId}; the next listen (same server, key and --events) resumes there.`));
}

type Created = { what: string; id: string; reference: string; note: string };

const uniqueReference = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toUpperCase();

function payout(prefix: string, note: string) {
  return async (client: ApiClient): Promise<Created> => {
    const reference = uniqueReference(prefix);
    const created = await client.post<{ id: string; reference: string }>('/payout/mobile-money/', {
      reference,
      amount: 100_000,
      phone: '0197000000',
      country: 'BJ',
      operator: 'mtn_bj',
    });
    return { what: 'payout', id: created.id, reference: created.reference, note };
  };
}

function payment(reference: string) {
  return (client: ApiClient) =>
    client.post<{ id: string; reference: string; status: string }>('/collect/payments', {
      reference,
      amount: 3000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      customer: { phone: '0197000000' },
    });
}

async function completedPayment(client: ApiClient): Promise<{ id: string; reference: string }> {
  const created = await payment(uniqueReference('trigger'))(client);
  for (let waited = 0; waited < 30_000; waited += 500) {
    const current = await client.get<{ status: string }>(`/collect/payments/${encodeURIComponent(created.reference)}`);
    if (current.status === 'completed') return created;
    if (['failed', 'cancelled', 'expired'].includes(current.status)) throw new Error(`the sandbox payment ${created.reference} ended ${current.status}`);
    await sleep(500);
  }
  throw new Error(`the sandbox payment ${created.reference} did not complete within 30 s`);
}

/** The sandbox objects that produce each event (docs/payouts.md "Test and live", docs/failure-codes.md). */
const triggers: Record<string, (client: ApiClient, options: { receiver?: string }) => Promise<Created>> = {
  'payout.completed': payout('trigger', 'payout.initiated now, payout.completed after the sandbox delay (about 2 s)'),
  'payout.failed': payout('trigger-fail', 'payout.initiated now, payout.failed after the sandbox delay'),
  'collect.payment.completed': async (client) => {
    const created = await payment(uniqueReference('trigger'))(client);
    return { what: 'payment', id: created.id, reference: created.reference, note: 'collect.payment.created now, collect.payment.completed when the sandbox answers' };
  },
  'collect.payment.failed': async (client) => {
    const created = await payment(uniqueReference('trigger-fail'))(client);
    return { what: 'payment', id: created.id, reference: created.reference, note: 'collect.payment.created now, collect.payment.failed when the sandbox answers' };
  },
  'collect.refund.completed': async (client) => {
    const paid = await completedPayment(client);
    const refund = await client.post<{ id: string }>(`/collect/payments/${encodeURIComponent(paid.reference)}/refunds`, { amount: 1000 });
    return { what: 'refund', id: refund.id, reference: paid.reference, note: 'collect.refund.created now, collect.refund.completed when the sandbox answers' };
  },
  'transfer.sent': async (client, { receiver }) => {
    if (!receiver) throw new Error('transfer.sent needs --receiver <merchant id>: the merchant_id of another merchant of this server');
    const reference = uniqueReference('trigger');
    const transfer = await client.post<{ id: string }>('/transfers/', { receiver, amount_minor: 1000, currency: 'XOF', reference });
    return { what: 'transfer', id: transfer.id, reference, note: 'transfer.sent now (the receiver gets transfer.received)' };
  },
};

function printObject(json: boolean | undefined, value: Record<string, unknown>): void {
  if (json) return say(JSON.stringify(value, null, 2));
  const width = Math.max(...Object.keys(value).map((key) => key.length));
  for (const [key, field] of Object.entries(value)) say(`${key.padEnd(width)}  ${typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field)}`);
}

function printList(json: boolean | undefined, list: { data: Record<string, unknown>[] }, columns: string[]): void {
  if (json) return say(JSON.stringify(list, null, 2));
  say(table(list.data.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] === null || row[column] === undefined ? '' : String(row[column])])))));
}

/** `payments` and `payouts`: list and get, read through the API. */
function resourceCommands(name: string, description: string, paths: { list: string; one: (idOrReference: string) => string }, columns: string[], example: string): Command {
  const command = new Command(name).description(description);
  withConnection(command.command('list').description(`the latest ${name}, newest first`))
    .option('--limit <n>', 'how many (1-100)', '10')
    .option('--status <status>', 'only this status')
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExample:\n  AKWE_API_KEY=ak_test_… akwe ${name} list --limit 5`)
    .action(async (options: ConnectionOptions & { limit: string; status?: string; json?: boolean }) => {
      const query = new URLSearchParams({ limit: options.limit, ...(options.status ? { status: options.status } : {}) });
      printList(options.json, await new ApiClient(connectionFrom(options)).get(`${paths.list}?${query}`), columns);
    });
  withConnection(command.command('get').description(`one of the ${name}, by id or reference`).argument('<id-or-reference>'))
    .option('--json', 'print JSON')
    .addHelpText('after', `\nExample:\n  akwe ${name} get ${example}`)
    .action(async (idOrReference: string, options: ConnectionOptions & { json?: boolean }) => {
      printObject(options.json, await new ApiClient(connectionFrom(options)).get(paths.one(encodeURIComponent(idOrReference))));
    });
  return command;
}

export function developerCommands(): Command[] {
  const listenCommand = withConnection(
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
        await listen(options, stop.signal);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });

  const triggerCommand = withConnection(
    new Command('trigger')
      .description('create the sandbox objects that produce an event (test keys only)')
      .argument('<event-type>', `one of: ${Object.keys(triggers).join(', ')}`)
      .option('--receiver <merchant id>', 'transfer.sent: the merchant receiving the transfer')
      .option('--json', 'print JSON'),
  )
    .addHelpText('after', '\nExamples:\n  AKWE_API_KEY=ak_test_… akwe trigger payout.completed\n  akwe trigger transfer.sent --receiver <merchant id>')
    .action(async (type: string, options: ConnectionOptions & { receiver?: string; json?: boolean }) => {
      const connection = connectionFrom(options);
      if (!isTestKey(connection.apiKey)) throw new Error('trigger creates real objects: it runs with a test key (ak_test_…) only');
      const make = triggers[type.toLowerCase()];
      if (!make) throw new Error(`no trigger for ${JSON.stringify(type)}; known: ${Object.keys(triggers).join(', ')}`);
      const created = await make(new ApiClient(connection), options);
      if (options.json) say(JSON.stringify({ event: type, object: created.what, id: created.id, reference: created.reference }, null, 2));
      else say(`${green('created')} ${created.what} ${created.reference} (${created.id}): ${created.note}`);
    });

  const events = new Command('events').description('events of the key: send one again');
  withConnection(events.command('resend').description('queue the event again for every endpoint subscribed to it (or one, --endpoint)').argument('<event id>'))
    .option('--endpoint <id>', 'only this webhook endpoint')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  akwe events resend 0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52')
    .action(async (id: string, options: ConnectionOptions & { endpoint?: string; json?: boolean }) => {
      const result = await new ApiClient(connectionFrom(options)).post<{ data: Record<string, unknown>[] }>(
        `/events/${encodeURIComponent(id)}/resend`,
        options.endpoint ? { endpoint_id: options.endpoint } : null,
      );
      printList(options.json, result, ['id', 'endpoint_id', 'status', 'url']);
    });

  return [
    listenCommand,
    triggerCommand,
    events,
    resourceCommands(
      'payments',
      'collect payments: list and read',
      { list: '/collect/payments', one: (ref) => `/collect/payments/${ref}` },
      ['id', 'reference', 'status', 'amount', 'currency', 'operator', 'created_at'],
      'ORDER-1001',
    ),
    resourceCommands(
      'payouts',
      'payouts: list and read',
      { list: '/payout/mobile-money/', one: (ref) => `/payout/mobile-money/${ref}/` },
      ['id', 'reference', 'status', 'amount', 'currency', 'operator', 'created_at'],
      'PAYOUT-2001',
    ),
  ];
}
