import { InkpressError } from "../errors.js";

/** A problem with the whole batch (an unreadable input, a key the server refuses): it ends the run, unlike a bad row. */
export class BatchError extends InkpressError {}
