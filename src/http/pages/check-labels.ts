/**
 * How the playground names each SEO check: words a person reads, not ids. The labels live
 * with the checks (src/contract/checks.ts), so a new check cannot ship without a
 * name, and each check in an answer carries its label too (the page still falls back to
 * its id in words for a server newer than the page).
 */
export { CHECK_LABELS } from "../../contract/checks.js";
