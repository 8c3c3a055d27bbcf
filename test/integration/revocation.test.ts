import { describeRevocation } from "../helpers/revocation.js";

// Jobs in the data folder's files; the same suite on a real Redis is revocation-redis.test.ts.
describeRevocation("files");
