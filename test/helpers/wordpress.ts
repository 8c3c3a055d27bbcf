import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile, copyFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./port.js";

const run = promisify(execFile);
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/wordpress");

/** A real WordPress (Debian's package) on a loopback port, with its own MariaDB, owned by one test file. */
export interface TestWordPress {
  /** The site's base URL, `http://127.0.0.1:PORT`. */
  url: string;
  /** An administrator's user name and application password. */
  admin: { user: string; password: string };
  /** A contributor's (may write drafts, may not publish). */
  writer: { user: string; password: string };
  /** GET a REST route as the administrator (`/wp/v2/posts?…`), answering its JSON. */
  rest<T = unknown>(route: string): Promise<T>;
  /** The site's must-use plugins folder: a plugin copied in is loaded from the next request on. */
  muPlugins: string;
  /** WordPress's own `parse_blocks()` of a post's content, inner blocks flattened (`name` null for freeform HTML). */
  blocks(id: number): Promise<{ name: string | null; html: string }[]>;
  stop(): Promise<void>;
}

/**
 * Start WordPress from Debian's packages (installed by .ci/run): a private MariaDB on a Unix
 * socket in a temporary folder, a host config that Debian's wp-config.php picks by name
 * (`WORDPRESS_CONFIG`), WordPress installed and two application passwords created through its
 * own PHP API, the must-use plugin that exposes the Yoast and Rank Math fields over REST (unless
 * `seoFields` is false: a site without an SEO plugin), and
 * PHP's built-in server with `WP_ENVIRONMENT_TYPE=local` (application passwords over plain HTTP).
 */
export async function startWordPress(options: { seoFields?: boolean } = {}): Promise<TestWordPress> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "inkpress-wp-"));
  const children: ChildProcess[] = [];
  const name = `inkpress-${randomBytes(6).toString("hex")}`;
  const configFile = `/etc/wordpress/config-${name}.php`;
  const stop = async () => {
    for (const child of children.reverse()) await kill(child);
    await rm(configFile, { force: true });
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const socket = await startMariaDb(dir, children);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const muPlugins = path.join(dir, "mu-plugins");
    await mkdir(muPlugins);
    if (options.seoFields !== false) await copyFile(path.join(FIXTURES, "seo-fields.php"), path.join(muPlugins, "seo-fields.php"));
    await writeFile(configFile, hostConfig(socket, url, muPlugins));
    const env = { ...process.env, WORDPRESS_CONFIG: name, WP_HOST: `127.0.0.1:${port}` };
    const { stdout } = await run("php", [path.join(FIXTURES, "install.php")], { env });
    const passwords = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { admin: string; writer: string };
    const server = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", "/usr/share/wordpress", path.join(FIXTURES, "router.php")], {
      env: { ...env, PHP_CLI_SERVER_WORKERS: "4" },
      stdio: "ignore",
    });
    children.push(server);
    await waitFor(async () => (await fetch(`${url}/wp-json/`)).ok, "WordPress to answer");
    const admin = { user: "admin", password: passwords.admin };
    const authorization = `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString("base64")}`;
    const rest = async <T>(route: string): Promise<T> => {
      const response = await fetch(`${url}/wp-json${route}`, { headers: { authorization } });
      if (!response.ok) throw new Error(`GET ${route}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    const blocks = async (id: number) =>
      JSON.parse((await run("php", [path.join(FIXTURES, "parse-blocks.php"), String(id)], { env })).stdout) as {
        name: string | null;
        html: string;
      }[];
    return { url, admin, writer: { user: "writer", password: passwords.writer }, rest, muPlugins, blocks, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A MariaDB of its own: a fresh data folder, no TCP, root over the socket; answers the socket's path. */
async function startMariaDb(dir: string, children: ChildProcess[]): Promise<string> {
  const data = path.join(dir, "db");
  const socket = path.join(dir, "db.sock");
  await run("mariadb-install-db", [
    "--no-defaults",
    `--datadir=${data}`,
    "--auth-root-authentication-method=normal",
    "--skip-test-db",
    "--user=root",
  ]);
  const db = spawn(
    "mariadbd",
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--socket=${socket}`,
      "--skip-networking",
      "--user=root",
      `--pid-file=${path.join(dir, "db.pid")}`,
      `--log-error=${path.join(dir, "db.err")}`,
    ],
    { stdio: "ignore" },
  );
  children.push(db);
  await waitFor(
    async () =>
      await run("mariadb", ["--no-defaults", `--socket=${socket}`, "-uroot", "-e", "CREATE DATABASE IF NOT EXISTS wp"]).then(() => true),
    "MariaDB to start",
  );
  return socket;
}

/** The host config Debian's wp-config.php loads: the database, the site's address, local environment, the must-use plugins. */
function hostConfig(socket: string, url: string, muPlugins: string): string {
  const constants: Record<string, string> = {
    DB_NAME: "wp",
    DB_USER: "root",
    DB_PASSWORD: "",
    DB_HOST: `localhost:${socket}`,
    WP_HOME: url,
    WP_SITEURL: url,
    WP_ENVIRONMENT_TYPE: "local",
    WPMU_PLUGIN_DIR: muPlugins,
  };
  const lines = Object.entries(constants).map(([key, value]) => `define('${key}', '${value}');`);
  return `<?php\n${lines.join("\n")}\ndefine('DISABLE_WP_CRON', true);\ndefine('AUTOMATIC_UPDATER_DISABLED', true);\ndefine('WP_HTTP_BLOCK_EXTERNAL', true);\n`;
}

async function waitFor(ready: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
