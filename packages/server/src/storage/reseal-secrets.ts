/**
 * Re-encrypts every stored secret (webhook endpoints' signing secrets, current and previous, and
 * the callback secrets) from the server secret they were sealed with to the current one, after
 * AKWE_SECRET has changed. All or nothing, in one transaction: a value that neither secret opens
 * stops the whole run, so no endpoint is left half converted.
 */
import { SEALED_PREFIX } from './sealed-responses.js';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { SecretBox } from './secret-box.js';

export interface ResealResult {
  /** Values that were sealed with the previous secret and now are with the current one. */
  resealed: number;
  /** Values the current secret opened already (a second run, or a newer row): left untouched. */
  alreadyCurrent: number;
}

export class UnreadableSecretError extends Error {}

export async function resealStoredSecrets(db: Kysely<Database>, boxes: { previous: SecretBox; current: SecretBox }): Promise<ResealResult> {
  const result: ResealResult = { resealed: 0, alreadyCurrent: 0 };
  /** The value sealed with the current secret, or undefined when it is already. */
  const convert = (sealed: string, where: string): string | undefined => {
    if (opens(boxes.current, sealed)) {
      result.alreadyCurrent += 1;
      return undefined;
    }
    let plaintext: string;
    try {
      plaintext = boxes.previous.open(sealed);
    } catch {
      throw new UnreadableSecretError(`${where}: neither the current nor the previous secret opens it; nothing was changed`);
    }
    result.resealed += 1;
    return boxes.current.seal(plaintext);
  };

  await db.transaction().execute(async (trx) => {
    const endpoints = await trx.selectFrom('webhook_endpoints').select(['id', 'secret_encrypted', 'previous_secret_encrypted']).orderBy('id').execute();
    for (const endpoint of endpoints) {
      const secret = convert(endpoint.secret_encrypted, `webhook endpoint ${endpoint.id}`);
      const previous = endpoint.previous_secret_encrypted === null ? undefined : convert(endpoint.previous_secret_encrypted, `webhook endpoint ${endpoint.id} (previous secret)`);
      if (secret === undefined && previous === undefined) continue;
      // Only the version read: a rotation by a running server in between is never overwritten.
      await trx
        .updateTable('webhook_endpoints')
        .set({ ...(secret === undefined ? {} : { secret_encrypted: secret }), ...(previous === undefined ? {} : { previous_secret_encrypted: previous }) })
        .where('id', '=', endpoint.id)
        .where('secret_encrypted', '=', endpoint.secret_encrypted)
        .where((eb) =>
          endpoint.previous_secret_encrypted === null ? eb('previous_secret_encrypted', 'is', null) : eb('previous_secret_encrypted', '=', endpoint.previous_secret_encrypted),
        )
        .execute();
    }
    const callbackSecrets = await trx
      .selectFrom('callback_secrets')
      .select(['merchant_id', 'environment', 'secret_encrypted'])
      .orderBy('merchant_id')
      .orderBy('environment')
      .execute();
    for (const row of callbackSecrets) {
      const secret = convert(row.secret_encrypted, `callback secret of merchant ${row.merchant_id} (${row.environment})`);
      if (secret === undefined) continue;
      await trx
        .updateTable('callback_secrets')
        .set({ secret_encrypted: secret })
        .where('merchant_id', '=', row.merchant_id)
        .where('environment', '=', row.environment)
        .where('secret_encrypted', '=', row.secret_encrypted)
        .execute();
    }
    // Stored answers that show a secret (endpoint creations replayable for 24 h).
    const answers = await trx
      .selectFrom('idempotency_records')
      .select(['merchant_id', 'environment', 'method', 'route', 'idempotency_key', 'response_body'])
      .where('response_body', 'like', `${SEALED_PREFIX}%`)
      .execute();
    for (const row of answers) {
      const sealed = row.response_body!.slice(SEALED_PREFIX.length);
      const body = convert(sealed, `stored answer to ${row.method} ${row.route} (key ${row.idempotency_key})`);
      if (body === undefined) continue;
      await trx
        .updateTable('idempotency_records')
        .set({ response_body: SEALED_PREFIX + body })
        .where('merchant_id', '=', row.merchant_id)
        .where('environment', '=', row.environment)
        .where('method', '=', row.method)
        .where('route', '=', row.route)
        .where('idempotency_key', '=', row.idempotency_key)
        .where('response_body', '=', row.response_body)
        .execute();
    }
  });
  return result;
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}
