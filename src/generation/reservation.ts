import { countWords } from "../article/index.js";
import { LIMITS } from "../contract/limits.js";
import type { RefreshRequest } from "../contract/refresh.js";

/**
 * Words a refresh reserves of a key's daily quota while it runs: the article's length (asked,
 * else as given, within the request bounds). It counts only the words the model writes.
 */
export function refreshReservation(request: RefreshRequest): number {
  const words = request.length ?? countWords(request.markdown, request.language ?? "en");
  return Math.min(LIMITS.lengthMax, Math.max(LIMITS.lengthMin, words));
}
