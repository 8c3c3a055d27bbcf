import type { Server } from "node:http";
import type { Socket } from "node:net";
import { STATUS_CODES } from "node:http";
import { PROBLEM_TYPES } from "./problem.js";

/** Seconds a client has to send its request headers (slow senders, slowloris). */
export const HEADERS_TIMEOUT_S = 10;
/** Seconds a client has to send its whole request. */
export const REQUEST_TIMEOUT_S = 30;

/**
 * Protect the socket: deadlines for slow senders, and a problem+json answer (instead of
 * Node's bare one) when the HTTP parser itself refuses a request, such as headers over
 * its 16 KiB limit or a malformed request line.
 */
export function hardenServer(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_S * 1000;
  server.requestTimeout = REQUEST_TIMEOUT_S * 1000;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    const type = PROBLEM_TYPES[status as keyof typeof PROBLEM_TYPES];
    const body = JSON.stringify({ type: `/docs#${type}`, title: STATUS_CODES[status], status, detail: detailFor(status) });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

function detailFor(status: number): string {
  if (status === 431) return "Request headers are too large.";
  if (status === 408) return `The request was not received within ${REQUEST_TIMEOUT_S} s.`;
  return "The request could not be parsed as HTTP.";
}
