import { LRUCache } from "lru-cache";
import { afterLead, FORCED_LEAD } from "../forced-text.js";
import type { Generated } from "./server.js";

/** The server's raw tokenizer: no BOS, special tokens kept as text. */
export type RawTokenize = (text: string, signal?: AbortSignal) => Promise<number[]>;

/** Forced pieces remembered per server: headings, JSON punctuation and paragraph breaks come back in every article. */
const CACHE_SIZE = 512;

/**
 * Forced text as the in-process writer tokenizes it: on its own, as a piece of the answer
 * ({@link afterLead}). Answers are cached per server, so a piece seen before costs no request.
 */
export function pieceTokenizer(raw: RawTokenize): RawTokenize {
  const cache = new LRUCache<string, number[]>({ max: CACHE_SIZE });
  let lead: Promise<number[]> | undefined;
  const uncached = async (text: string, signal?: AbortSignal): Promise<number[]> => {
    lead ??= raw(FORCED_LEAD, signal).catch((error: unknown) => {
      lead = undefined;
      throw error;
    });
    const [leadTokens, tokens] = await Promise.all([lead, raw(`${FORCED_LEAD}${text}`, signal)]);
    return afterLead(leadTokens, tokens) ?? raw(text, signal);
  };
  return async (text, signal) => {
    let tokens = cache.get(text);
    if (!tokens) cache.set(text, (tokens = await uncached(text, signal)));
    return tokens;
  };
}

/**
 * Turns a stream's chunks into {@link Generated} pieces. A token with no text is held back until
 * text follows, so the end-of-generation token that closes a step never joins the answer. Where the
 * server's count of generated tokens runs ahead of the ids it sent (llama-server sends only the
 * last token of a character split over several), the chunk's text goes without ids and is
 * tokenized again before the next step.
 */
export class GeneratedTokens {
  private held: number[] = [];
  private predicted = 0;

  /** One chunk: its text, the ids it carries (if the server sends ids), and the tokens generated so far (if it says). */
  take(text: string, ids: number[] | undefined, predicted?: number): Generated[] {
    const gap =
      ids === undefined || (text !== "" && ids.length === 0) || (predicted !== undefined && predicted - this.predicted > ids.length);
    if (predicted !== undefined) this.predicted = predicted;
    if (gap) {
      const out = this.release();
      if (text) out.push({ text, ids: undefined });
      return out;
    }
    this.held.push(...ids);
    return text ? this.release(text) : [];
  }

  /** The step is over: held tokens join the answer unless the server ended on them (`ended`: end of generation). */
  finish(ended: boolean): Generated[] {
    if (ended) this.held = [];
    return this.release();
  }

  private release(text = ""): Generated[] {
    if (this.held.length === 0 && !text) return [];
    const out = [{ text, ids: this.held }];
    this.held = [];
    return out;
  }
}
