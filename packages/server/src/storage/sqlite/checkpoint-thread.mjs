// The body of the checkpoint thread (see background-checkpoints.ts). Plain JavaScript: worker
// threads do not inherit the tsx loader that the main thread registers.
//
// Every `intervalMs` it copies what the write-ahead log holds into the database file with a
// PASSIVE checkpoint, which never waits for (nor blocks) the writer or readers. When the log has
// nothing new, the checkpoint returns at once without touching the disk. An error ends the thread;
// the main thread then lets the writer checkpoint by itself again.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { file, intervalMs } = workerData;
const connection = new BetterSqlite3(file);

function checkpoint() {
  // [{ busy, log, checkpointed }]: frames in the log, and how many of them are in the file now.
  return connection.pragma('wal_checkpoint(PASSIVE)')[0];
}

const timer = setInterval(checkpoint, intervalMs);

parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    parentPort.postMessage(checkpoint());
  } else if (message === 'stop') {
    clearInterval(timer);
    connection.close();
    parentPort.close();
  }
});
