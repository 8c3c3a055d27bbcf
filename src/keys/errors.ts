import { InkpressError } from "../errors.js";

/** A key file that cannot be read or trusted, or a key command that cannot be done: one line for the user. */
export class KeyStoreError extends InkpressError {}
