/** The ship date moved off a weekend to the next Monday, as carriers do not pick up on weekends. */
function firstBusinessDay(date: Date): Date {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

const memo = new Map<number, string>();

/** YYYY-MM-DD of the day `days` business days after shipping, skipping Saturdays and Sundays. */
export function deliveryDate(shipDate: Date, days: number): string {
  // Every quote of a day asks the same few questions.
  const key = Math.floor(shipDate.getTime() / 86_400_000) * 64 + days;
  const known = memo.get(key);
  if (known) return known;
  if (memo.size > 1000) memo.clear();
  const answer = countBusinessDays(shipDate, days);
  memo.set(key, answer);
  return answer;
}

function countBusinessDays(shipDate: Date, days: number): string {
  const d = firstBusinessDay(shipDate);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}
