/**
 * Forced text continues an answer, it does not start a text, so it is tokenized without what a
 * tokenizer puts before a text: a SentencePiece vocabulary's space prefix turns " bin" into
 * a lone space and " bin", and "\n\n## Heading" into a space and "\n\n## Heading", so the model
 * would read a space the answer never holds. Forced text is tokenized after {@link FORCED_LEAD}, a
 * control character that no vocabulary merges with its neighbours, and the lead's own tokens are
 * cut off. node-llama-cpp's "trimLeadingSpace" leads with a newline instead, which merges with
 * text that opens with one.
 */
export const FORCED_LEAD = "\u0001";

/**
 * `tokens` (the tokens of {@link FORCED_LEAD} and forced text) without `lead` (the tokens of the lead
 * alone); `undefined` when the result does not open with them and the lead cannot be cut off.
 */
export function afterLead<T extends number>(lead: readonly T[], tokens: readonly T[]): T[] | undefined {
  if (lead.length === 0 || !lead.every((id, i) => tokens[i] === id)) return undefined;
  return tokens.slice(lead.length);
}
