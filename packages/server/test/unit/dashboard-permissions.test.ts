/** The dashboard's role table (core/dashboard/permissions.ts) and its opaque-token hashing. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { hashOpaqueToken, looksLikeOpaqueToken, newOpaqueToken } from '../../src/core/dashboard/opaque-tokens.js';
import { actionsOf, may, mayAssign, roles } from '../../src/core/dashboard/permissions.js';

describe('dashboard permissions', () => {
  it('grants exactly the table of docs/dashboard.md', () => {
    const table = Object.fromEntries(roles.map((role) => [role, actionsOf(role)]));
    assert.deepEqual(table, {
      owner: ['read', 'keys.manage', 'webhooks.manage', 'payments.create', 'refunds.create', 'payouts.create', 'team.manage', 'kyc.submit', 'approvals.decide', 'approvals.manage'],
      admin: ['read', 'keys.manage', 'webhooks.manage', 'payments.create', 'refunds.create', 'payouts.create', 'team.manage', 'kyc.submit', 'approvals.decide', 'approvals.manage'],
      developer: ['read', 'keys.manage', 'webhooks.manage', 'payments.create'],
      finance: ['read', 'payments.create', 'refunds.create', 'payouts.create', 'approvals.decide'],
      viewer: ['read'],
    });
    assert.equal(may('viewer', 'team.manage'), false);
  });

  it('lets only owners grant or take away owner', () => {
    assert.equal(mayAssign('owner', 'viewer', 'owner'), true);
    assert.equal(mayAssign('admin', 'viewer', 'developer'), true);
    assert.equal(mayAssign('admin', 'viewer', 'owner'), false);
    assert.equal(mayAssign('admin', 'owner', 'viewer'), false);
    assert.equal(mayAssign('admin', 'owner', undefined), false);
    assert.equal(mayAssign('developer', 'viewer', 'finance'), false);
  });
});

describe('opaque tokens', () => {
  it('are 32 random bytes in base64url, stored as their SHA-256 in hex', () => {
    const token = newOpaqueToken();
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.ok(looksLikeOpaqueToken(token));
    assert.notEqual(newOpaqueToken(), token);
    assert.equal(hashOpaqueToken(token), createHash('sha256').update(token).digest('hex'));
    assert.match(hashOpaqueToken(token), /^[0-9a-f]{64}$/);
    for (const bad of ['', 'short', `${token}x`, token.replace(/.$/, '!'), 42]) assert.equal(looksLikeOpaqueToken(bad), false);
  });
});
