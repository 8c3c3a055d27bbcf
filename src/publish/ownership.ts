import type { Published } from "../contract/publish.js";
import type { PublicationRecords } from "../keys/storage.js";
import { PublishError } from "./errors.js";
import { plainText, type Post } from "./post.js";
import type { PublishTarget } from "./targets.js";

/** A post found on a target: enough to name it, check its owner and update it. */
export interface FoundPost {
  id: string;
  title: string;
  slug: string;
  /** What an update must send back to show it saw the post as it is (Ghost's `updated_at`). */
  version?: string;
}

/** A CMS client: finds posts and saves one; who may update which post is decided here, above it. */
export interface CmsClient {
  /** What must hold before anything is looked up (WordPress: who the credentials are and what they may do). */
  check(post: Post): Promise<void>;
  /** The post of this id, unless there is none (or it is in the trash). */
  byId(id: string): Promise<FoundPost | undefined>;
  /** The posts of this slug, in any status. */
  bySlug(slug: string): Promise<FoundPost[]>;
  /** Create the post, or update `existing`; a new post's id goes to `created` the moment the site answers with it. */
  save(post: Post, existing: FoundPost | undefined, created: (id: string) => Promise<void>): Promise<Published>;
}

/** Who publishes: the key's id (`local` for the command line on this machine) and where inkpress keeps its records. */
export interface Publisher {
  owner: string;
  records: PublicationRecords;
}

/** Owner of what the command line publishes: the operator at this machine, no key. */
export const LOCAL_OWNER = "local";

/** How long a publication may hold its article's lock: more than its calls can take (several, each with its retries). */
const lockTtlMs = (target: PublishTarget) => Math.max(60_000, 20 * target.timeoutMs);

/** How often a publication waiting for its article's lock tries again. */
const LOCK_POLL_MS = 100;

/**
 * Publish one post, never twice and never over another's: one publication of an article (a site
 * and a slug) at a time, on any replica, so identical requests at once find the post the first
 * made; the post is the one the article recorded, else the one of its slug that this owner made;
 * a post of another key, or one inkpress never made, is refused by name (409) and left as it is,
 * unless the target lets keys adopt the posts inkpress has no record of.
 */
export async function publishOwned(client: CmsClient, target: PublishTarget, post: Post, by: Publisher): Promise<Published> {
  const unlock = await lockArticle(target, `${target.url}\0${post.slug}`, by.records);
  try {
    await client.check(post);
    const existing = await ownPost(client, target, post, by);
    // Claimed before the create: a crash between the site saving the post and its owner being recorded leaves it this owner's to find.
    if (!existing) await by.records.recordPost(target.url, slugClaim(post.slug), by.owner);
    // Recorded before anything else is asked of the site: a failure after the create must not leave a post no one owns.
    return await client.save(post, existing, async (id) => {
      await by.records.recordPost(target.url, id, by.owner);
    });
  } finally {
    await unlock();
  }
}

/** The post this publication updates: its own, found by recorded id or slug; undefined when it makes a new one. */
async function ownPost(client: CmsClient, target: PublishTarget, post: Post, by: Publisher): Promise<FoundPost | undefined> {
  if (post.recordedId) {
    const recorded = await client.byId(post.recordedId);
    const how = `the article's posts.${target.name} names it`;
    if (recorded) return claim(recorded, await by.records.postOwner(target.url, recorded.id), { target, by, how, adoptable: target.adopt });
  }
  const matches = await client.bySlug(post.slug);
  const owners = await Promise.all(matches.map((match) => by.records.postOwner(target.url, match.id)));
  const mine = matches.find((_, i) => owners[i] === by.owner);
  if (mine) return mine;
  const unowned = matches.findIndex((_, i) => owners[i] === undefined);
  const claimed = unowned >= 0 && (await by.records.postOwner(target.url, slugClaim(post.slug))) === by.owner;
  const at = claimed ? unowned : 0;
  const how = "publish this article under another slug";
  return matches[at] && claim(matches[at], owners[at], { target, by, how, adoptable: claimed || target.adopt });
}

/** The record of who first set out to create a post under a slug on a site (no post id holds a colon). */
const slugClaim = (slug: string) => `slug:${slug}`;

/** A found post, if it is this owner's or may be adopted (and is then recorded as its); else the refusal naming it. */
async function claim(
  found: FoundPost,
  recorded: string | undefined,
  { target, by, how, adoptable }: { target: PublishTarget; by: Publisher; how: string; adoptable: boolean },
): Promise<FoundPost> {
  // Adopted under the article's lock; another owner recording it first (through another article) keeps it.
  const owner = recorded === undefined && adoptable ? await by.records.recordPost(target.url, found.id, by.owner) : recorded;
  if (owner === by.owner) return found;
  const whose =
    owner === undefined
      ? 'which inkpress did not publish (the operator may let keys take such posts over: "adopt": true on the target)'
      : "which another key published";
  throw new PublishError(
    target.name,
    `target "${target.name}" has post ${found.id} "${plainText(found.title).slice(0, 80)}" (slug ${found.slug}), ${whose}; nothing was changed (${how})`,
    { status: 409 },
  );
}

/** Wait for the lock of one article on a site (polled: it may be held on another replica); the function that releases it. */
async function lockArticle(target: PublishTarget, name: string, records: PublicationRecords): Promise<() => Promise<void>> {
  const ttlMs = lockTtlMs(target);
  const until = Date.now() + ttlMs;
  for (;;) {
    const token = await records.lockPublication(name, ttlMs);
    if (token) return () => records.unlockPublication(name, token);
    if (Date.now() > until) {
      throw new PublishError(
        target.name,
        `another publication of this article to target "${target.name}" is still under way; try again later`,
        {
          status: 503,
          headers: { "retry-after": "60" },
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
