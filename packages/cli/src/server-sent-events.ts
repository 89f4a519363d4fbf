/** A small `text/event-stream` parser (the WHATWG format: fields per line, a blank line ends a message; `:` lines are comments). */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export class SseParser {
  private buffer = '';

  /** Feeds decoded text; answers the messages it completed (comment-only blocks are dropped). */
  push(text: string): SseMessage[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const messages: SseMessage[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const message = parseBlock(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
      if (message) messages.push(message);
    }
    return messages;
  }
}

function parseBlock(block: string): SseMessage | undefined {
  const message: SseMessage = { data: '' };
  let hasField = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    hasField = true;
    if (field === 'id') message.id = value;
    else if (field === 'event') message.event = value;
    else if (field === 'data') message.data = message.data ? `${message.data}\n${value}` : value;
  }
  return hasField ? message : undefined;
}
