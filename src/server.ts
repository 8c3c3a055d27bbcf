import net from "node:net";
import { log } from "./log.js";
import { toNodeHandler } from "h3/node";
import { listen, type Listener } from "listhen";
import { ConfigError, type ServeConfig } from "./config.js";
import { Keyring } from "./http/auth.js";
import { createApp } from "./http/app.js";
import { ModelRuntime } from "./model/runtime.js";

/** A running server. */
export interface RunningServer {
  url: string;
  runtime: ModelRuntime;
  /** Stop listening and free the model. */
  close(): Promise<void>;
}

/** Load the model, then listen. A taken port is an error, never a silent move to another one. */
export async function startServer(config: ServeConfig): Promise<RunningServer> {
  await assertPortFree(config.host, config.port);
  const runtime = await ModelRuntime.load(config);
  let listener: Listener;
  try {
    const app = createApp({ runtime, keyring: new Keyring(config.apiKeys) });
    listener = await listen(toNodeHandler(app), {
      hostname: config.host,
      port: config.port === 0 ? 0 : { port: config.port, ports: [], portRange: [config.port, config.port], alternativePortRange: [config.port, config.port], random: false },
      public: false,
      qr: false,
      showURL: false,
      autoClose: false,
    });
  } catch (error) {
    await runtime.dispose();
    throw error;
  }
  const port = (listener.server.address() as net.AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  return {
    url,
    runtime,
    async close() {
      await listener.close();
      await runtime.dispose();
    },
  };
}

/** Serve until SIGINT or SIGTERM, then close and exit 0. */
export async function serve(config: ServeConfig): Promise<void> {
  const server = await startServer(config);
  log.log(`inkpress listening on ${server.url} (model ${server.runtime.name}, ${config.threads} thread${config.threads === 1 ? "" : "s"})`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new ConfigError(`port ${port} on ${host} is already in use: choose another with --port or INKPRESS_PORT`) : new ConfigError(`cannot listen on ${host}:${port}: ${error.message}`));
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
