import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { defineCommand } from "citty";
import * as v from "valibot";
import { PublisherSchema, StyleSchema, type Style } from "../contract/request.js";
import { cliCommand } from "../invocation.js";
import { KeyStoreError } from "../keys/errors.js";
import { DEFAULT_LIMITS, KeyStore, type KeyLimits, type KeyRecord } from "../keys/store.js";
import { readUsage, usageFileFor } from "../keys/usage.js";
import { readSetting, settingArgs } from "../settings.js";
import { fail } from "./fail.js";

const UNITS: Record<string, number> = { s: 1, sec: 1, second: 1, min: 60, minute: 60, h: 3600, hour: 3600, day: 86_400 };

/** Parse a rate such as `60/min`, `5/s` or `1000/day`. */
export function parseRate(text: string): KeyLimits["rate"] {
  const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const windowS = match && UNITS[match[2]!.toLowerCase()];
  const requests = match ? Number(match[1]) : 0;
  if (!windowS || requests < 1) throw new KeyStoreError(`rate must look like 60/min (units: s, min, hour, day), got "${text}"`);
  return { requests, windowS };
}

function positive(text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new KeyStoreError(`${what} must be a whole number of at least 1, got "${text}"`);
  return Number(text);
}

/** A style file, validated as a request's `style` is: a bad one is one line naming the field. */
async function readStyle(file: string): Promise<Style> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ? (error as Error).message : "it is not valid JSON";
    throw new KeyStoreError(`cannot read the style file ${file}: ${why}`);
  }
  const parsed = v.safeParse(StyleSchema, data);
  if (!parsed.success) {
    const [issue] = parsed.issues;
    const field = v.getDotPath(issue);
    // Most messages name their field already ("voice must be a string").
    const why = field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
    throw new KeyStoreError(`the style file ${file} is invalid: ${why}`);
  }
  return parsed.output;
}

const fileArg = settingArgs("keysFile");

/** The key store the command's `--keys-file` names, tidied of crashed commands' temporary copies. */
function openStore(args: { "keys-file"?: string }): Promise<KeyStore> {
  return KeyStore.open(readSetting("keysFile", { flags: args }));
}

const create = defineCommand({
  meta: {
    name: "create",
    description: "Create a key and its webhook secret; both are printed once, the key is stored only as a SHA-256 digest",
  },
  args: {
    name: { type: "string", description: "A unique name for the key (shown in logs)", required: true },
    rate: { type: "string", description: "Requests per window, e.g. 60/min (default 60/min)" },
    concurrency: { type: "string", description: "Generations at once (default 2)" },
    "daily-words": { type: "string", description: "Words per UTC day (default no quota)" },
    style: { type: "string", description: "A JSON file with the key's default style (avoid, voice, cliches)" },
    "publish-to": { type: "string", description: "Comma-separated publishing targets the key may publish to (default none)" },
    ...fileArg,
  },
  async run({ args }) {
    try {
      const limits: KeyLimits = {
        rate: args.rate ? parseRate(args.rate) : DEFAULT_LIMITS.rate,
        concurrency: positive(args.concurrency, "concurrency") ?? DEFAULT_LIMITS.concurrency,
      };
      const dailyWords = positive(args["daily-words"], "daily words");
      if (dailyWords) limits.dailyWords = dailyWords;
      const style = args.style === undefined ? undefined : await readStyle(args.style);
      const store = await openStore(args);
      const publishTo = args["publish-to"]
        ?.split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const { key, record } = await store.create(args.name, limits, style, publishTo);
      process.stdout.write(`${key}\n${record.webhookSecret}\n`);
      process.stderr.write(
        `key "${args.name}" (${record.id}) created: the first line is the API key, the second its webhook signing secret; store both now, neither is shown ` +
          `again\n`,
      );
    } catch (error) {
      fail(error);
    }
  },
});

const list = defineCommand({
  meta: { name: "list", description: "List active keys: name, id, created, last used and limits (never the key)" },
  args: fileArg,
  async run({ args }) {
    try {
      const store = await openStore(args);
      const keys = (await store.read()).filter((k) => !k.revoked);
      if (keys.length === 0) {
        const state = existsSync(store.file) ? "no active keys: every key was revoked" : "no keys yet";
        return void process.stdout.write(`${state}; create one with ${cliCommand("keys create --name NAME")}\n`);
      }
      const lastUsed = await lastUses(store.file, keys);
      const rows = keys.map((k) => [
        k.name,
        k.id,
        `${k.prefix}…`,
        k.created.slice(0, 19).replace("T", " "),
        lastUsed[k.id]?.slice(0, 19).replace("T", " ") ?? "never",
        `${k.limits.rate.requests}/${k.limits.rate.windowS}s`,
        String(k.limits.concurrency),
        k.limits.dailyWords ? String(k.limits.dailyWords) : "-",
        k.style ? "yes" : "-",
      ]);
      const table = [["NAME", "ID", "KEY", "CREATED (UTC)", "LAST USED (UTC)", "RATE", "CONCURRENCY", "DAILY WORDS", "STYLE"], ...rows];
      const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
      for (const row of table)
        process.stdout.write(
          `${row
            .map((c, i) => c.padEnd(widths[i]!))
            .join("  ")
            .trimEnd()}\n`,
        );
    } catch (error) {
      fail(error);
    }
  },
});

const revoke = defineCommand({
  meta: { name: "revoke", description: "Revoke a key by name; a running server stops accepting it and stops its work within seconds" },
  args: { name: { type: "positional", description: "The key's name", required: true }, ...fileArg },
  async run({ args }) {
    try {
      const store = await openStore(args);
      const removed = await store.revoke(args.name);
      if (!removed) throw new KeyStoreError(`no key named "${args.name}"`);
      process.stderr.write(`key "${args.name}" revoked\n`);
    } catch (error) {
      fail(error);
    }
  },
});

const rotateSecret = defineCommand({
  meta: {
    name: "rotate-secret",
    description: "Give a key a new webhook signing secret, printed once; the old one stops signing within a second",
  },
  args: { name: { type: "positional", description: "The key's name", required: true }, ...fileArg },
  async run({ args }) {
    try {
      const store = await openStore(args);
      const secret = await store.rotateSecret(args.name);
      process.stdout.write(`${secret}\n`);
      process.stderr.write(`webhook secret of "${args.name}" rotated; store it now, it is not shown again\n`);
    } catch (error) {
      fail(error);
    }
  },
});

const setStyle = defineCommand({
  meta: {
    name: "set-style",
    description: "Set a key's default style from a JSON file (avoid, voice, cliches); a request's style overrides it field by field",
  },
  args: {
    name: { type: "positional", description: "The key's name", required: true },
    file: { type: "positional", description: "The style file", required: true },
    ...fileArg,
  },
  async run({ args }) {
    try {
      const style = await readStyle(args.file);
      const store = await openStore(args);
      await store.setStyle(args.name, style);
      process.stderr.write(`default style of "${args.name}" set; a running server uses it within a second\n`);
    } catch (error) {
      fail(error);
    }
  },
});

/**
 * When each key was last used: from Redis when INKPRESS_REDIS_URL is set (the replicas
 * record it there), else from the usage file the server keeps beside the key file.
 */
async function lastUses(file: string, keys: KeyRecord[]): Promise<Record<string, string | undefined>> {
  const url = readSetting("redis");
  if (!url) {
    const usage = await readUsage(usageFileFor(file));
    // A key of 0.1.0 that no server has migrated yet still has its use under its name.
    return Object.fromEntries(keys.map((k) => [k.id, (usage[k.id] ?? (k.formerOwner ? usage[k.formerOwner] : undefined))?.lastUsed]));
  }
  // Loaded only here, so the other commands start without the Redis client.
  const { RedisKeyStorage } = await import("../keys/redis-storage.js");
  const storage = await RedisKeyStorage.connectOnce(url);
  try {
    return Object.fromEntries(await Promise.all(keys.map(async (k) => [k.id, (await storage.activity(k.id)).lastUsed] as const)));
  } finally {
    await storage.close();
  }
}

const setPublisher = defineCommand({
  meta: {
    name: "set-publisher",
    description: "Set the publisher a key's articles name in their structured data (over the server's --publisher-name)",
  },
  args: {
    name: { type: "positional", description: "The key's name", required: true },
    publisher: { type: "string", description: "The publisher's name; with --clear, none" },
    url: { type: "string", description: "The publisher's home page (http or https)" },
    logo: { type: "string", description: "The address of the publisher's logo image (http or https)" },
    clear: { type: "boolean", description: "Remove the key's publisher: the server's applies again" },
    ...fileArg,
  },
  async run({ args }) {
    try {
      const publisher = args.clear ? undefined : parsePublisher(args);
      const store = await openStore(args);
      await store.setPublisher(args.name, publisher);
      process.stderr.write(`publisher of "${args.name}" ${publisher ? "set" : "removed"}; a running server uses it within a second\n`);
    } catch (error) {
      fail(error);
    }
  },
});

/** The publisher of `keys set-publisher`'s flags, validated as the key file holds it: a bad one is one line naming the flag. */
function parsePublisher(args: { publisher?: string; url?: string; logo?: string }) {
  const given = {
    name: args.publisher ?? "",
    ...(args.url !== undefined && { url: args.url }),
    ...(args.logo !== undefined && { logo: args.logo }),
  };
  const parsed = v.safeParse(PublisherSchema, given);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const flag = issue.path?.[0]?.key === "name" ? "--publisher" : `--${String(issue.path?.[0]?.key)}`;
  throw new KeyStoreError(`${flag}: ${issue.message}`);
}

/** `inkpress keys create | list | revoke | rotate-secret | set-style | set-publisher`. */
export const keysCommand = defineCommand({
  meta: { name: "keys", description: "Manage API keys (stored hashed in the key file) and their webhook secrets" },
  subCommands: { create, list, revoke, "rotate-secret": rotateSecret, "set-style": setStyle, "set-publisher": setPublisher },
});
