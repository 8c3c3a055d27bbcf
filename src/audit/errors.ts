import { InkpressError } from "../errors.js";

/** A page or folder that cannot be analysed (unreadable, invalid front matter, a bad target): its message names it. */
export class AuditError extends InkpressError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 400 });
  }
}
