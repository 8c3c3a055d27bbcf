/** A span of the answer's pieces, by index: `[start, end)`. */
interface Range {
  start: number;
  end: number;
}

/** One piece of the answer: a generated token (or tokens), or forced text whose tokens are not known yet. */
interface Piece {
  /** Its token ids; undefined until the writer has tokenized forced text. */
  ids: number[] | undefined;
  /** Length of the whole text after this piece, in UTF-16 code units. */
  end: number;
}

/** A piece whose tokens the writer still has to ask for. */
export interface Unresolved {
  index: number;
  text: string;
}

/**
 * The assistant answer of one article as the server's tokens: generated token ids exactly as the
 * server sampled them, and forced text tokenized on its own, so the server's prompt cache always
 * matches what it holds. An article longer than the context drops its oldest prose after the
 * pinned part: `text` stays whole (it is the article), `visibleTokens()` is what is sent upstream.
 */
export class Transcript {
  /** The whole answer: forced and generated text. */
  text = "";
  private pieces: Piece[] = [];
  /** Pieces before this index stay visible whatever the context. */
  private pinned = 0;
  /** Dropped pieces, sorted and disjoint ranges. */
  private dropped: Range[] = [];
  /** Indexes of the pieces without ids, in order: only these are looked at before a step. */
  private pending: number[] = [];

  /** Forced text: its tokens are asked for before the next step ({@link resolve}). */
  append(text: string): void {
    if (!text) return;
    this.text += text;
    this.pending.push(this.pieces.length);
    this.pieces.push({ ids: undefined, end: this.text.length });
  }

  /** Generated tokens and their text (which may be empty: a byte of a character, or a control token). */
  add(ids: number[], text: string): void {
    this.text += text;
    this.pieces.push({ ids, end: this.text.length });
  }

  /**
   * Cut back to the first `length` characters (never grows). The tokens wholly before the cut
   * stay as they are; the part of a piece before the cut becomes forced text of its own.
   */
  truncate(length: number): void {
    if (length >= this.text.length) return;
    let keep = this.pieces.length;
    while (keep > 0 && this.pieces[keep - 1]!.end > length) keep--;
    const keptEnd = keep > 0 ? this.pieces[keep - 1]!.end : 0;
    const rest = this.text.slice(keptEnd, Math.max(0, length));
    this.pieces.length = keep;
    this.text = this.text.slice(0, keptEnd);
    this.pinned = Math.min(this.pinned, keep);
    this.pending = this.pending.filter((index) => index < keep);
    this.dropped = this.dropped.filter((r) => r.start < keep).map((r) => ({ start: r.start, end: Math.min(r.end, keep) }));
    this.append(rest);
  }

  /** Keep everything so far visible whenever prose must be dropped. */
  pin(): void {
    this.pinned = this.pieces.length;
  }

  /** The forced pieces whose tokens are not known yet, with their text. */
  unresolved(): Unresolved[] {
    return this.pending.map((index) => ({ index, text: this.text.slice(this.start(index), this.pieces[index]!.end) }));
  }

  /** Give a forced piece its tokens. */
  resolve(index: number, ids: number[]): void {
    this.pieces[index]!.ids = ids;
    this.pending = this.pending.filter((i) => i !== index);
  }

  /** The answer's tokens as the model sees them (dropped pieces left out); an unresolved piece counts as none. */
  visibleTokens(): number[] {
    return this.visible().flatMap((index) => this.pieces[index]!.ids ?? []);
  }

  /** The answer's text as the model sees it. */
  visibleText(): string {
    return this.visible()
      .map((index) => this.text.slice(this.start(index), this.pieces[index]!.end))
      .join("");
  }

  /** How many tokens `visibleTokens()` holds. */
  visibleCount(): number {
    return this.visible().reduce((sum, index) => sum + (this.pieces[index]!.ids?.length ?? 0), 0);
  }

  /**
   * Drop at least `tokens` more tokens of the oldest visible prose after the pinned part, ending
   * at a word's end so the model sees whole words. Returns the tokens dropped (0 when nothing is
   * left to drop).
   */
  drop(tokens: number): number {
    let start = this.pinned;
    for (const r of this.dropped) if (r.start <= start && start < r.end) start = r.end;
    let end = start;
    let count = 0;
    while (end < this.pieces.length && (count < tokens || !this.wordEnds(end))) count += this.pieces[end++]!.ids?.length ?? 0;
    if (end === start) return 0;
    this.dropped = merge([...this.dropped, { start, end }]);
    return count;
  }

  /** Whether a word ends before piece `index`: the text before it ends in whitespace, or its own starts with some. */
  private wordEnds(index: number): boolean {
    const at = this.start(index);
    return /\s/u.test(this.text.charAt(at - 1)) || /\s/u.test(this.text.charAt(at));
  }

  private start(index: number): number {
    return index > 0 ? this.pieces[index - 1]!.end : 0;
  }

  /** Indexes of the pieces the model sees. */
  private visible(): number[] {
    const out: number[] = [];
    let at = 0;
    for (const r of [...this.dropped, { start: this.pieces.length, end: this.pieces.length }]) {
      for (let i = at; i < r.start; i++) out.push(i);
      at = r.end;
    }
    return out;
  }
}

/** Sorted, disjoint ranges covering the same pieces. */
function merge(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const r of ranges.toSorted((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
