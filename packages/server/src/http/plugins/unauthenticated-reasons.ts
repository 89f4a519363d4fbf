import { AkweError } from '../../core/errors/index.js';

/**
 * The three 401s, each saying what to fix. A well-formed key that is unknown and one that was
 * revoked get the same message from the same code path (one lookup by hash, then refusal), so the
 * answer never tells whether a key exists.
 */
const HOW_TO_SEND = 'Send the API key as `Authorization: Bearer <key>` or as `X-API-Key: <key>`.';

export const unauthenticated = {
  noKey: () => new AkweError('unauthenticated', `No API key was sent. ${HOW_TO_SEND}`),
  wrongScheme: () => new AkweError('unauthenticated', `The Authorization header is not \`Bearer <key>\`. ${HOW_TO_SEND}`),
  twoKeys: () => new AkweError('unauthenticated', 'Authorization and X-API-Key carry different keys; send one key, in one of them.'),
  malformedKey: () =>
    new AkweError(
      'unauthenticated',
      'The API key is not shaped like an Akwe key (`ak_test_` or `ak_live_` then 43 characters); check that it was copied whole, without quotes or spaces.',
    ),
  invalidKey: () => new AkweError('unauthenticated', 'The API key is not valid: it is unknown or has been revoked. Use a current key of your merchant, or create one.'),
};
