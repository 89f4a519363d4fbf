import { closeSync, fdatasync, fsync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * fdatasync of a database's write-ahead log (`<file>-wal`), run on libuv's thread pool so the event
 * loop never waits for the disk.
 *
 * The descriptor stays valid for as long as the database is open: SQLite deletes the WAL only when
 * the last connection to the file closes, and our writer connection is open until close(). On
 * Linux an fdatasync through any descriptor flushes the file's data, whoever wrote it. The first
 * sync also syncs the folder, so the WAL file's own directory entry survives a power loss. This is
 * the sync SQLite itself would make with synchronous = FULL.
 */
export class WalFileSync {
  private descriptor: number | undefined;
  private folderSynced = false;

  constructor(private readonly databaseFile: string) {}

  get walFile(): string {
    return `${this.databaseFile}-wal`;
  }

  async sync(): Promise<void> {
    const descriptor = this.open();
    await new Promise<void>((resolve, reject) => fdatasync(descriptor, (error) => (error ? reject(error) : resolve())));
    // Windows cannot open a folder to sync it (and NTFS journals the entry itself).
    if (!this.folderSynced && process.platform !== 'win32') {
      const folder = openSync(dirname(this.databaseFile), 'r');
      try {
        await new Promise<void>((resolve, reject) => fsync(folder, (error) => (error ? reject(error) : resolve())));
      } finally {
        closeSync(folder);
      }
      this.folderSynced = true;
    }
  }

  close(): void {
    if (this.descriptor === undefined) return;
    closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  private open(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    this.descriptor = openSync(this.walFile, 'r+');
    return this.descriptor;
  }
}
