// An operation's parts as types, from the operations generated from either document
// (spec/generated): its path parameters, query and JSON body. A leaf that imports nothing: the
// package's public types (mock/package/control-client.ts) use it, and whatever they import ships
// in the package's declarations, which a team's strict compile checks (`--skipLibCheck false`).

/** The application/json content of a request body or response, if it has one. */
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : undefined;
type Defined<T, Else> = [NonNullable<T>] extends [never] ? Else : NonNullable<T>;

/** An operation's path parameters; none is an empty object. */
export type PathOf<Op> = Op extends { parameters: { path?: infer Path } } ? Defined<Path, Record<string, never>> : Record<string, never>;
/** An operation's query, after validation (coerced, the document's defaults filled in). */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Query } }
  ? Defined<Query, Record<string, never>>
  : Record<string, never>;
/** An operation's JSON body: required, optional (may be absent) or none. */
export type BodyOf<Op> = Op extends { requestBody: infer Body }
  ? JsonOf<Body>
  : Op extends { requestBody?: infer Body }
    ? JsonOf<NonNullable<Body>> | undefined
    : undefined;
