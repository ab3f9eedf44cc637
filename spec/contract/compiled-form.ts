// The version of the form the document's schemas are compiled in: schema-transform.ts's rewrites
// and makeAjv's options (ajv-instance.ts). Generated validators carry it (precompiled.ts,
// documentHash) and are not used once it changes. Raise it with any change to either that changes
// what a validator accepts or says.
// 2: discriminators honoured (ajv's discriminator option; the mapping as an enum of the tag).
export const COMPILED_FORM = 2;
