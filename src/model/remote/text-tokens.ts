/**
 * Token counts where the server has no tokenizer to ask (Ollama): estimated from text, and
 * corrected by what the server says a whole prompt held. The writer needs counts only to keep an
 * article inside the context and to report usage; no id is ever sent.
 */

/**
 * Tokens per UTF-16 character before the server has said any: a small vocabulary's rate (stories260K writes about 2.5 characters a token),
 * so the first estimates err high.
 */
const FIRST_RATE = 0.4;
/** Slack on a measured rate: prompts differ (headings, punctuation, another script). */
const SLACK = 1.1;

/** Estimates tokens of text at the highest rate any prompt of this server has shown. */
export class TextTokens {
  private rate = FIRST_RATE;
  private measured = false;

  /** Tokens `text` is estimated to hold (at least one for any text). */
  count(text: string): number {
    return text ? Math.max(1, Math.ceil(text.length * this.rate)) : 0;
  }

  /** Placeholder ids, as many as {@link count}: what the writer's transcript counts. */
  ids(text: string): number[] {
    return Array.from({ length: this.count(text) }, () => 0);
  }

  /** A prompt of `chars` characters held `tokens` tokens: the rate follows the highest seen since the first. */
  learn(chars: number, tokens: number): void {
    if (chars < 200 || tokens <= 0) return;
    const rate = (tokens / chars) * SLACK;
    this.rate = this.measured ? Math.max(this.rate, rate) : rate;
    this.measured = true;
  }
}

/** Pieces in a row with the same trimmed text after which Ollama's runner ends an answer by itself (more than 30). */
const GUARD_RUN = 31;

/**
 * Ollama's repeat guard, seen from outside: its runner ends an answer, with no error and
 * `done_reason: "stop"`, once more than 30 tokens in a row have the same trimmed text. An answer
 * that ended on such a run was cut by the guard, not ended by the model.
 */
export class RepeatRun {
  private last: string | undefined;
  private run = 0;

  /** One streamed piece (Ollama streams a token a line). */
  add(piece: string): void {
    const trimmed = piece.trim();
    this.run = trimmed === this.last ? this.run + 1 : 1;
    this.last = trimmed;
  }

  /** Whether the answer so far ends on a run the guard stops. */
  get guarded(): boolean {
    return this.run >= GUARD_RUN;
  }
}

/**
 * The text of a JSON string the server streams under a `format` schema of one string whose
 * pattern is a grammar (`pattern.ts`): its opening quote dropped, its closing quote (and any blank
 * after it) held back until text follows, for a quote inside the text is a quotation mark. The
 * pattern admits no backslash escapes, so the characters between are the text as they are.
 */
export class QuotedText {
  private opened = false;
  private held = "";
  /** Whether the string was closed: the grammar is complete. */
  closed = false;

  /** The text a piece adds, what may be its closing quote held back. */
  take(piece: string): string {
    let text = piece;
    if (!this.opened) {
      const start = text.indexOf('"');
      if (start < 0) return "";
      this.opened = true;
      text = text.slice(start + 1);
    }
    text = this.held + text;
    const close = /"\s*$/u.exec(text);
    this.held = close ? text.slice(close.index) : "";
    return close ? text.slice(0, close.index) : text;
  }

  /** The answer ended: by itself (`ended`), the held quote closed the string; else it was text. */
  finish(ended: boolean): string {
    const rest = this.held;
    this.held = "";
    if (ended && rest.startsWith('"')) {
      this.closed = true;
      return "";
    }
    return rest;
  }
}
