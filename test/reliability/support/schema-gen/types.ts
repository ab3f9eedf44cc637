// What the schema-driven generators are given: the running mock's real ids and values, and the
// switches for inputs that trip known mock bugs.

/** Real ids and values of the running mock, so generated requests reach past "not found". */
export interface Pools {
  accounts: string[];
  quotes: string[];
  operations: string[];
  beneficiaries: string[];
  /** The fuzzing customer's own beneficiaries (withdrawals to them can succeed). */
  ownBeneficiaries: string[];
  instructions: string[];
  subscriptions: string[];
  /** Subscriptions the fuzzed DELETE may remove, so the others stay for the other operations. */
  disposableSubscriptions: string[];
  executionLogs: string[];
  /** Quotes with the account they were made for: bodies that name both get past the account check. */
  quotePairs: Array<{ quoteId: string; accountId: string }>;
  clients: Array<{ clientId: string; clientSecret: string }>;
  urls: string[];
}

/** Bug switches: inputs that trip known mock bugs are left out of the general fuzz unless asked for. */
export interface KnownBugs {
  /** Amounts whose converted value overflows the 20 integer digits of DecimalString (bug: 500 instead of 4xx). */
  overflowingAmounts: boolean;
  /** Malformed percent-escapes in a path segment (bug: 500 instead of 400). */
  malformedPathEscapes: boolean;
  /** A Content-Encoding whose body does not decode (bug: 500 instead of 400). */
  undecodableBodies: boolean;
}
