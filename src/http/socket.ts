import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { PROBLEM_TYPES } from "./problem.js";

/** Deadlines for slow senders (slowloris). */
export interface SocketLimits {
  /** Seconds a client has to send its request headers. */
  headersTimeoutS: number;
  /** Seconds a client has to send its request body. */
  bodyTimeoutS: number;
}

/**
 * Protect the socket below the app:
 * - a client gets `headersTimeoutS` in all to send its headers, counted per request on
 *   the socket itself (Node's own check runs only every 30 s, so it would fire late);
 * - what the HTTP parser refuses itself (headers over its 16 KiB limit, a malformed
 *   request, a CONNECT) is answered with problem+json instead of Node's bare replies;
 * - a request without Host reaches the app, which answers it like any other 400;
 * - listhen's shutdown helper reads `req.socket` when a response finishes, which a
 *   request destroyed early (a body cut off at the size limit) no longer has: it gets
 *   the socket the request arrived on, so that case cannot crash the process.
 */
export function hardenServer(server: Server, limits: SocketLimits): void {
  const headersMs = limits.headersTimeoutS * 1000;
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  const deadlines = new WeakMap<Duplex, NodeJS.Timeout>();
  // A total deadline, not an idle one: a header byte a second must not keep a socket forever.
  const arm = (socket: Duplex) => {
    clearTimeout(deadlines.get(socket));
    const timeout = `The request headers were not received within ${limits.headersTimeoutS} s.`;
    const readBefore = bytesRead(socket);
    const expire = () => {
      // A kept-alive socket that sent nothing since its last answer is idle, not slow: it is
      // closed quietly, as Node closes idle sockets (a client may still be reading the answer).
      if (bytesRead(socket) === readBefore && readBefore > 0) socket.end();
      else refuse(socket, 408, timeout);
    };
    deadlines.set(socket, setTimeout(expire, headersMs));
  };
  server.on("connection", (socket: Duplex) => {
    arm(socket);
    socket.on("close", () => clearTimeout(deadlines.get(socket)));
  });
  // Requests in progress per socket: a response's "finish" can come after the next request on
  // the same kept-alive socket has begun, and must not arm a deadline against that request.
  const active = new WeakMap<Duplex, number>();
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    clearTimeout(deadlines.get(socket));
    active.set(socket, (active.get(socket) ?? 0) + 1);
    // The next request on a kept-alive socket gets its own headers deadline.
    res.on("finish", () => {
      const left = (active.get(socket) ?? 1) - 1;
      active.set(socket, left);
      if (left === 0) arm(socket);
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    refuse(socket, status, status === 431 ? "Request headers are too large." : "The request could not be parsed as HTTP.");
  });
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => refuse(socket, 405, "CONNECT is not supported."));
  for (const listener of server.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>) {
    if (!String(listener).includes("_isIdle")) continue;
    server.removeListener("request", listener);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      listener(
        {
          get socket() {
            return req.socket ?? socket;
          },
        } as IncomingMessage,
        res,
      );
    });
  }
}

const bytesRead = (socket: Duplex) => (socket as Duplex & { bytesRead?: number }).bytesRead ?? 0;

/** Answer on the raw socket with a problem+json and close it. */
function refuse(socket: Duplex, status: number, detail: string): void {
  if (!socket.writable) return void socket.destroy();
  const type = PROBLEM_TYPES[status as keyof typeof PROBLEM_TYPES];
  const body = JSON.stringify({ type: `/docs#${type}`, title: STATUS_CODES[status], status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
