import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorCatalog, type ErrorCode } from '../../core/errors/index.js';
import { errorDocUrl } from '../shared/error-doc-url.js';

/** Node's parser codes for requests that never became a request Fastify could route. */
function codeFor(parserCode: string | undefined): ErrorCode {
  if (parserCode === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'malformed_request';
}

/**
 * Fastify's `clientErrorHandler`: a request that Node's HTTP parser refuses (headers over the size
 * limit, a malformed request line, a request too slow to arrive) is answered in our error shape
 * too, with a stable code and its `doc_url` in the error reference at `referenceUrl`, then the
 * connection is closed. There is no request, so no request id.
 */
export function clientErrorAnswerer(referenceUrl: string) {
  return (error: Error & { code?: string }, socket: Socket) => answerClientError(error, socket, referenceUrl);
}

function answerClientError(error: Error & { code?: string }, socket: Socket, referenceUrl: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = codeFor(error.code);
  const { status, message } = errorCatalog[code];
  const body = JSON.stringify({ error: { code, message, doc_url: errorDocUrl(referenceUrl, code) } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
