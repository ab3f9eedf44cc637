// The single error type of the filter module; the HTTP layer maps it to 400 INVALID_FILTER with details.position.

export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
  /** 0-based character offset in the filter text where the problem was found. */
  readonly position: number;

  constructor(problem: string, position: number) {
    // The position is repeated in the message so a bare message is still actionable for API clients.
    super(`${problem} at position ${position}`);
    this.position = position;
  }
}

/** Quotes user text for an error message, cut short so a hostile 2 KB value is not echoed back whole. */
export function show(text: string): string {
  const MAX = 64;
  return `'${text.length > MAX ? `${text.slice(0, MAX)}…` : text}'`;
}
