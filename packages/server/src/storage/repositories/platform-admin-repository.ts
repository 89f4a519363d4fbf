import type { Kysely } from 'kysely';
import type { PlatformAdmin, PlatformAdminStore } from '../../core/admin/platform-admins.js';
import type { Database } from '../schema.js';

export class PlatformAdminRepository implements PlatformAdminStore {
  constructor(private readonly db: Kysely<Database>) {}

  async isAdmin(userId: string): Promise<boolean> {
    return (await this.db.selectFrom('platform_admins').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
  }

  async grant(userId: string, grantedAt: string, grantedBy: string): Promise<boolean> {
    const result = await this.db
      .insertInto('platform_admins')
      .values({ user_id: userId, granted_at: grantedAt, granted_by: grantedBy })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async revoke(userId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('platform_admins').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async list(): Promise<PlatformAdmin[]> {
    const rows = await this.db
      .selectFrom('platform_admins')
      .innerJoin('users', 'users.id', 'platform_admins.user_id')
      .select(['platform_admins.user_id', 'users.email', 'users.name', 'platform_admins.granted_at', 'platform_admins.granted_by'])
      .orderBy('platform_admins.granted_at')
      .execute();
    return rows.map((r) => ({ userId: r.user_id, email: r.email, name: r.name, grantedAt: r.granted_at, grantedBy: r.granted_by }));
  }
}
