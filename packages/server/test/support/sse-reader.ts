/** Reads a `text/event-stream` response message by message (comments skipped), for the event stream tests. */
import { SseParser, type SseMessage } from '@akwe/cli';

export class SseReader {
  private readonly parser = new SseParser();
  private readonly ready: SseMessage[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(response: Response) {
    if (!response.body) throw new Error('the response has no body');
    this.reader = response.body.getReader();
  }

  /** The next message; fails after `timeoutMs`. */
  async next(timeoutMs = 10_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    while (this.ready.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([this.reader.read(), new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)))]).finally(() =>
        clearTimeout(timer),
      );
      if (chunk === 'timeout') throw new Error(`no event within ${timeoutMs} ms`);
      if (chunk.done) throw new Error('the stream ended');
      this.ready.push(...this.parser.push(this.decoder.decode(chunk.value, { stream: true })));
    }
    return this.ready.shift()!;
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}
