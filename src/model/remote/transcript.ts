/** A span of the answer, in UTF-16 code units: `[start, end)`. */
interface Range {
  start: number;
  end: number;
}

/**
 * The assistant answer of one article as text, with what the model no longer sees. An article
 * longer than the context drops its oldest prose after the pinned part: `text` stays whole
 * (it is the article), `visible()` is what is sent upstream.
 */
export class Transcript {
  /** The whole answer: forced and generated text. */
  text = "";
  /** Everything before this stays visible whatever the context. */
  private pinned = 0;
  /** Dropped ranges, sorted and disjoint. */
  private dropped: Range[] = [];

  append(text: string): void {
    this.text += text;
  }

  /** Cut back to the first `length` characters (never grows). */
  truncate(length: number): void {
    if (length >= this.text.length) return;
    this.text = this.text.slice(0, Math.max(0, length));
    this.pinned = Math.min(this.pinned, this.text.length);
    this.dropped = this.dropped.filter((r) => r.start < this.text.length).map((r) => ({ start: r.start, end: Math.min(r.end, this.text.length) }));
  }

  /** Keep everything so far visible whenever prose must be dropped. */
  pin(): void {
    this.pinned = this.text.length;
  }

  /** The answer as the model sees it: the text without the dropped ranges. */
  visible(): string {
    let out = "";
    let at = 0;
    for (const r of this.dropped) {
      out += this.text.slice(at, r.start);
      at = r.end;
    }
    return out + this.text.slice(at);
  }

  /**
   * Drop about `length` more characters of the oldest visible prose after the pinned part,
   * ending after whitespace so the model sees whole words. Returns the characters
   * dropped (0 when nothing is left to drop).
   */
  drop(length: number): number {
    let start = this.pinned;
    for (const r of this.dropped) if (r.start <= start && start < r.end) start = r.end;
    if (start >= this.text.length) return 0;
    const end = boundary(this.text, start + Math.max(1, length));
    this.dropped = merge([...this.dropped, { start, end }]);
    return end - start;
  }
}

/** The first position at or after `at` that follows whitespace (a word's end), else the end. */
function boundary(text: string, at: number): number {
  const space = text.slice(at).search(/\s/);
  return space === -1 ? text.length : at + space + 1;
}

/** Sorted, disjoint ranges covering the same characters. */
function merge(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const r of ranges.toSorted((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
