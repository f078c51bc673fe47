/** Cents of US dollars as a merchant reads them in a message: $1,234.50. */
export const dollars = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
