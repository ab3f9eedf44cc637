// Generic helpers that any layer may use: they know nothing of the service, the store or HTTP.
export { arrayKeys, sliceSorted, type SliceQuery, type SlotSlice, type SortedKeys, type SortOrder } from './pagination';
export { compileUserPattern, PatternError, PROGRAM_LIMIT, type UserPattern } from './user-pattern';
