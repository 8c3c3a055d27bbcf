/**
 * Forced text is a piece inside an answer, not the start of a text, so it is tokenized without
 * what a tokenizer puts before a text: a SentencePiece vocabulary's space prefix turns " bin" into
 * a lone space and " bin", and "\n\n## Heading" into a space and "\n\n## Heading", so the model
 * would read a space the answer never holds. The piece is tokenized after {@link PIECE_LEAD}, a
 * control character that no vocabulary merges with its neighbours, and the lead's own tokens are
 * cut off. node-llama-cpp's "trimLeadingSpace" leads with a newline instead, which merges with a
 * piece that opens with one.
 */
export const PIECE_LEAD = "\u0001";

/**
 * `tokens` (the tokens of {@link PIECE_LEAD} + a piece) without `lead` (the tokens of the lead
 * alone); `undefined` when the result does not open with them and the lead cannot be cut off.
 */
export function afterLead<T extends number>(lead: readonly T[], tokens: readonly T[]): T[] | undefined {
  if (lead.length === 0 || !lead.every((id, i) => tokens[i] === id)) return undefined;
  return tokens.slice(lead.length);
}
