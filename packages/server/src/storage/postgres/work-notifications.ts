import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

/**
 * LISTEN/NOTIFY between the processes that share one PostgreSQL database (several API and worker
 * processes): a commit in one wakes the workers of all. The channel is per schema, so databases
 * sharing a server (tests) never wake each other.
 */
export interface WorkNotifications {
  publish(topic: string): Promise<void>;
  /**
   * Calls `onTopic` for every notification, reconnecting if the listening connection drops;
   * `onListening` learns when notifications start arriving (true) and when they may be missed (false).
   */
  listen(onTopic: (topic: string) => void, onListening?: (listening: boolean) => void): Promise<{ close(): Promise<void> }>;
}

const RECONNECT_DELAY_MS = 1_000;

export function postgresWorkNotifications(db: Kysely<Database>, url: string, schema: string | undefined): WorkNotifications {
  const channel = schema ? `akwe_work_${schema}` : 'akwe_work';
  return {
    async publish(topic) {
      await sql`select pg_notify(${channel}, ${topic})`.execute(db);
    },
    async listen(onTopic, onListening) {
      let closed = false;
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      // Tried again after each failure, so a database that is down for a while is rejoined when back.
      const reconnectLater = () => {
        clearTimeout(retry);
        if (!closed) retry = setTimeout(() => void connect().catch(reconnectLater), RECONNECT_DELAY_MS);
      };
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        // A dropped connection is replaced after a pause; workers poll meanwhile.
        next.on('error', () => {
          void next.end().catch(() => {});
          onListening?.(false);
          reconnectLater();
        });
        next.on('notification', (message) => {
          if (message.payload) onTopic(message.payload);
        });
        await next.connect();
        // The channel name is built from a checked schema name, never from input.
        try {
          await next.query(`listen ${channel}`);
        } catch (error) {
          await next.end().catch(() => {});
          throw error;
        }
        client = next;
        onListening?.(true);
      };
      await connect();
      return {
        async close() {
          closed = true;
          clearTimeout(retry);
          await client?.end().catch(() => {});
        },
      };
    },
  };
}
