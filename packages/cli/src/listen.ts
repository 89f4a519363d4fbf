/**
 * `akwe listen` (docs/cli.md): reads the key's event stream (GET /api/v1/events/stream) and POSTs
 * each event to a local handler, signed as a registered endpoint of the current contract would be
 * (the SDK's generateTestHeader), one at a time, in id order. It reconnects after a drop with the
 * last id it saw, waits out a 429 as long as Retry-After says, and keeps its position on disk so a
 * restart resumes there.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateTestHeader, webhooks } from '@akwe/sdk';
import { apiUrl, connectionFrom, errorOfResponse, networkReason, type HintFor } from './api-connection.js';
import { cliStateDir, ListenPosition } from './listen-position.js';
import { dim, green, red, say } from './output.js';
import { SseParser, type SseMessage } from './server-sent-events.js';

/** Every delivery names its event (docs/webhooks.md): handlers deduplicate on it. */
export const EVENT_ID_HEADER = 'X-Service-Event-Id';

const RECONNECT_DELAY_MS = 1_000;
/** The longest Retry-After listen honours; a longer one is waited out in steps of this. */
const MAX_RETRY_AFTER_MS = 60_000;
const FORWARD_TIMEOUT_MS = 10_000;

export interface ListenOptions {
  apiKey?: string;
  baseUrl?: string;
  forwardTo: string;
  events?: string;
  after?: string;
  secret?: string;
  /** false with --no-resume: ignore (and overwrite) the position saved by an earlier run. */
  resume: boolean;
}

/** Retry-After in seconds (the only form the server sends), else the usual reconnection delay. */
function retryDelayMs(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds) || seconds <= 0) return RECONNECT_DELAY_MS;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}

/** A secret shaped like an endpoint's, for this listen session only. */
export function newListenSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Posts one streamed event to the local handler; answers its status (coloured) or why it failed. */
async function forward(target: string, message: SseMessage, secret: string): Promise<string> {
  const body = message.data;
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'akwe-listen',
        [webhooks.SIGNATURE_HEADER]: await generateTestHeader({ payload: body, secret }),
        ...(message.id ? { [EVENT_ID_HEADER]: message.id } : {}),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    const status = String(response.status);
    return response.ok ? green(status) : red(status);
  } catch (error) {
    return red(`error (${networkReason(error)})`);
  }
}

export async function listen(options: ListenOptions, hintFor: HintFor, stop: AbortSignal): Promise<void> {
  const connection = connectionFrom(options);
  try {
    new URL(options.forwardTo);
  } catch {
    throw new Error(`--forward-to must be an absolute URL, got ${JSON.stringify(options.forwardTo)}`);
  }
  const secret = options.secret ?? newListenSecret();
  say(`Signing secret: ${secret}`);
  say(dim(`Forwarding ${options.events ? `${options.events} ` : ''}events to ${options.forwardTo}; check the X-Service-Signature header with this secret.`));
  const query = options.events ? `?types=${encodeURIComponent(options.events)}` : '';
  const position = new ListenPosition(cliStateDir(), connection.baseUrl, connection.apiKey, options.events);
  const saved = options.after === undefined && options.resume ? position.read() : undefined;
  let lastId = options.after ?? saved;
  if (saved) say(dim(`Resuming after ${saved}, the last event an earlier run forwarded (--no-resume starts from now).`));
  let connectedOnce = false;
  while (!stop.aborted) {
    let response: Response;
    try {
      response = await fetch(apiUrl(connection, `/events/stream${query}`), {
        headers: { authorization: `Bearer ${connection.apiKey}`, ...(lastId ? { 'last-event-id': lastId } : {}) },
        signal: stop,
      });
    } catch {
      if (stop.aborted) break;
      say(red(`cannot reach ${connection.baseUrl}; retrying in ${RECONNECT_DELAY_MS / 1000} s`));
      await sleep(RECONNECT_DELAY_MS, undefined, { signal: stop }).catch(() => undefined);
      continue;
    }
    // A refusal (bad key, unknown type) will not change by retrying; a busy server (429, 5xx) may.
    if (response.status >= 400 && response.status < 500 && response.status !== 429) throw await errorOfResponse(response, hintFor);
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
