import type { Job, JobKind } from "../contract/job.js";

/** A job as it is stored: the public view plus the key it belongs to (jobs stored before refresh jobs have no `kind`: they write articles). */
export interface JobRecord extends Omit<Job, "kind"> {
  kind?: JobKind;
  /** The id of the key that created it (`key_…`; a key name in jobs of 0.1.0 that no key inherited); other keys cannot see it. */
  owner: string;
}

/** The public view of a record. */
export function publicJob({ owner: _owner, ...job }: JobRecord): Job {
  return { ...job, kind: job.kind ?? "article" };
}
