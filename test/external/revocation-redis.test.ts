import { describeRevocation } from "../helpers/revocation.js";

// Jobs in a real Redis (the external tier); the same suite on the data folder's files is revocation.test.ts.
describeRevocation("redis");
