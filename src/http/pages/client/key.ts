/**
 * The API key both of the playground's forms send: one field above the tabs, kept in the
 * tab's session storage only, so a reload or the other tab does not ask for it again.
 */
import { byId } from "./dom.js";

const KEY_STORAGE = "inkpress.key";

/** The key's field. */
export const keyInput = byId<HTMLInputElement>("f-key");

/** Remember the key for this browser tab (session storage: gone with the tab). */
export function rememberKey(key: string): void {
  try {
    sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // storage off
  }
}

keyInput.addEventListener("input", () => keyInput.removeAttribute("aria-invalid"));

try {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? "";
} catch {
  // storage off
}
