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

const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

/** The `n`th given weekday of a month (0-based month, Sunday = 0); n = -1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = utcDay(year, month, 1);
    return utcDay(year, month, 1 + ((weekday - first.getUTCDay() + 7) % 7) + 7 * (n - 1));
  }
  const last = utcDay(year, month + 1, 0);
  return utcDay(year, month, last.getUTCDate() - ((last.getUTCDay() - weekday + 7) % 7));
}

/** A holiday on a Saturday is observed the Friday before, one on a Sunday the Monday after (5 U.S.C. 6103(b)). */
function observed(date: Date): Date {
  const shift = date.getUTCDay() === 6 ? -1 : date.getUTCDay() === 0 ? 1 : 0;
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + shift);
}

const holidayMemo = new Map<number, ReadonlyMap<string, string>>();

/** The US federal holidays observed in a year, YYYY-MM-DD to name: carriers pick up on none of them. */
export function usFederalHolidays(year: number): ReadonlyMap<string, string> {
  const known = holidayMemo.get(year);
  if (known) return known;
  const days: [string, Date][] = [
    ["New Year's Day", observed(utcDay(year, 0, 1))],
    ['Birthday of Martin Luther King, Jr.', nthWeekday(year, 0, 1, 3)],
    ["Washington's Birthday", nthWeekday(year, 1, 1, 3)],
    ['Memorial Day', nthWeekday(year, 4, 1, -1)],
    ...(year >= 2021 ? [['Juneteenth National Independence Day', observed(utcDay(year, 5, 19))] as [string, Date]] : []),
    ['Independence Day', observed(utcDay(year, 6, 4))],
    ['Labor Day', nthWeekday(year, 8, 1, 1)],
    ['Columbus Day', nthWeekday(year, 9, 1, 2)],
    ['Veterans Day', observed(utcDay(year, 10, 11))],
    ['Thanksgiving Day', nthWeekday(year, 10, 4, 4)],
    ['Christmas Day', observed(utcDay(year, 11, 25))],
    // A New Year's Day on a Saturday is observed on the last day of the year before.
    ["New Year's Day", observed(utcDay(year + 1, 0, 1))],
  ];
  const holidays = new Map(days.filter(([, d]) => d.getUTCFullYear() === year).map(([name, d]) => [d.toISOString().slice(0, 10), name]));
  holidayMemo.set(year, holidays);
  return holidays;
}

/** The name of the federal holiday observed on a YYYY-MM-DD, if one is. */
export function usFederalHoliday(date: string): string | undefined {
  return usFederalHolidays(Number(date.slice(0, 4))).get(date);
}
