import { hasPhrase } from "../text/text.js";

/** The keywords one passage of prose owes. */
export interface PassageKeywords {
  /** Sentences that should hold the primary keyword. */
  primaryUses: number;
  /** Secondary keywords the passage must mention. */
  secondary: string[];
  /** Words the passage aims at: the primary keyword's uses are spread over them. */
  budget: number;
}

/**
 * When a keyword is owed. The plan gives each prose passage its uses of the primary
 * keyword, spread evenly over its words, and the secondary keywords it must mention.
 * Sentences that hold a keyword, whoever placed it, pay
 * what is owed; what a passage could not place is carried to the next prose passage.
 */
export class KeywordSchedule {
  /** Uses the last passage could not place, and the words they have waited since they fell due. */
  private carried = { primary: 0, secondary: [] as string[], waited: 0 };
  /** Words the keywords carried into this passage had waited before it. */
  private waitedBefore = 0;
  private uses = 0;
  private primaryLeft = 0;
  private secondaryLeft: string[] = [];
  private every = Infinity;

  constructor(private readonly options: { primary: string; language: string }) {}

  /** Start a prose passage: its own keywords and whatever the one before still owes. */
  open(passage: PassageKeywords): void {
    this.uses = passage.primaryUses + this.carried.primary;
    this.primaryLeft = this.uses;
    this.secondaryLeft = [...this.carried.secondary, ...passage.secondary];
    this.waitedBefore = this.carried.waited;
    this.carried = { primary: 0, secondary: [], waited: 0 };
    this.every = passage.budget / Math.max(1, this.uses);
  }

  /** The keyword the passage owes now, after `words` words; undefined when none is. */
  due(words: number): string | undefined {
    if (this.primaryLeft > 0 && words >= this.every * (this.uses - this.primaryLeft)) return this.options.primary;
    return this.secondaryLeft[0];
  }

  /**
   * Words written, the passage's `words` among them, since the keyword {@link due} now fell due
   * (since the passage opened, for a secondary one), counting those it waited in earlier passages.
   */
  waited(words: number): number {
    const at = this.every * (this.uses - this.primaryLeft);
    return this.waitedBefore + (this.primaryLeft > 0 && words >= at ? words - at : words);
  }

  /** Whether the passage still owes a keyword. */
  get owing(): boolean {
    return this.primaryLeft > 0 || this.secondaryLeft.length > 0;
  }

  /** A sentence the article kept: the keywords it holds are paid. */
  record(sentence: string): void {
    const { primary, language } = this.options;
    if (this.primaryLeft > 0 && hasPhrase(sentence, primary, language)) this.primaryLeft--;
    this.secondaryLeft = this.secondaryLeft.filter((k) => !hasPhrase(sentence, k, language));
  }

  /** End the passage after its `words`: what it still owes goes to the next one, with how long it waited. */
  close(words: number): void {
    const owes = this.primaryLeft > 0 || this.secondaryLeft.length > 0;
    this.carried = { primary: Math.max(0, this.primaryLeft), secondary: this.secondaryLeft, waited: owes ? this.waited(words) : 0 };
    this.primaryLeft = 0;
    this.secondaryLeft = [];
  }
}
